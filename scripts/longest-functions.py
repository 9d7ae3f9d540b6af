#!/usr/bin/env python3
"""List the longest Swift functions, initialisers, accessors and closures.

Usage: scripts/longest-functions.py [-n N] [--kinds func,init,closure,...] [PATH ...]

PATH defaults to Sources/. A body's length is the count of lines from the line of its declaration (`func`,
`init`, `deinit`, `subscript`, a computed `var`, or the line of a closure's `{`) to the line of its closing
brace, both included; attributes and doc comments above are not counted. Bodies are found by matching braces
after string literals and comments are blanked, so a brace inside a string or a comment does not count. It is a
heuristic, not a parser: a closure is a `{` followed on its line by `... in` or preceded by `=`, `(`, `,`, `:`,
`return` or `)` of a call that does not open a statement (`if`, `guard`, `while`, `for`, `switch`); a nested
function is listed on its own and also counted in the length of the function around it.

Prints one row per body, longest first: LINES  KIND  Type.name  file:line. With --summary it also prints the
total number of Swift lines under each PATH.
"""

import argparse
import os
import re
import sys

DECL = re.compile(
    r"\b(?:(func)\s+([^\s(<]+)|(init)\s*[?!]?\s*[(<]|(deinit)\b|(subscript)\s*[(<]"
    r"|(struct|class|enum|extension|actor|protocol)\s+([A-Za-z_][\w.]*))"
)
COMPUTED_VAR = re.compile(r"\bvar\s+([A-Za-z_]\w*)\s*:[^={\n]*\{")
# A new declaration at depth 0 before any `{`: the one found had no body (a protocol requirement).
NEXT_DECL = re.compile(
    r"\n\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|private|internal|fileprivate|package|open|static|class|"
    r"mutating|nonmutating|nonisolated|override|final|required|convenience|@\w+)\s+)*"
    r"(?:func|var|let|init|deinit|case|subscript|associatedtype|typealias|struct|class|enum|protocol|actor)\b"
)
STATEMENT_KEYWORDS = {"if", "guard", "while", "for", "switch", "else", "catch", "do", "repeat", "defer", "where"}


def blank_strings_and_comments(text: str) -> str:
    """The text with the contents of comments and string literals replaced by spaces (newlines kept)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == '"' or (c == "#" and re.match(r'#+"', text[i:])):
            i = skip_string(text, i, out)
        else:
            out.append(c)
            i += 1
    return "".join(out)


def skip_string(text: str, i: int, out: list) -> int:
    """Blanks the string literal starting at i (raw `#"`, multi-line `\"\"\"`, interpolations kept as code)."""
    n = len(text)
    hashes = 0
    while text[i + hashes] == "#":
        hashes += 1
    start = i
    i += hashes
    triple = text.startswith('"""', i)
    quote = '"""' if triple else '"'
    closing = quote + "#" * hashes
    out.append(" " * (i + len(quote) - start))
    i += len(quote)
    escape = "\\" + "#" * hashes
    while i < n:
        if text.startswith(escape + "(", i):
            # An interpolation: its code may hold strings and parentheses of its own.
            out.append(" " * (len(escape) + 1))
            i += len(escape) + 1
            depth = 1
            while i < n and depth:
                ch = text[i]
                if ch == '"' or (ch == "#" and re.match(r'#+"', text[i:])):
                    i = skip_string(text, i, out)
                    continue
                depth += {"(": 1, ")": -1}.get(ch, 0)
                out.append(ch if ch == "\n" else " ")
                i += 1
        elif text.startswith(escape, i):
            out.append(" " * (len(escape) + 1))
            i += len(escape) + 1
        elif text.startswith(closing, i):
            out.append(" " * len(closing))
            return i + len(closing)
        elif not triple and text[i] == "\n":
            return i  # an unterminated single-line string: stop at the line's end
        else:
            out.append("\n" if text[i] == "\n" else " ")
            i += 1
    return i


def matching_braces(code: str) -> dict:
    """Maps the offset of every `{` to the offset of its `}`."""
    pairs, stack = {}, []
    for i, ch in enumerate(code):
        if ch == "{":
            stack.append(i)
        elif ch == "}" and stack:
            pairs[stack.pop()] = i
    return pairs


def body_brace(code: str, start: int) -> int:
    """The `{` that opens the body of the declaration at `start`, or -1 when it has none."""
    depth = 0
    i = start
    while i < len(code):
        ch = code[i]
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif depth == 0 and ch == "{":
            return i
        elif depth == 0 and ch == "}":
            return -1
        elif depth == 0 and ch == "\n" and NEXT_DECL.match(code, i):
            return -1
        i += 1
    return -1


def statement_start_word(code: str, brace: int) -> str:
    """The first word of the line holding `brace` (to tell `if f(x) {` from `f(x) {` trailing closures)."""
    line_start = code.rfind("\n", 0, brace) + 1
    m = re.match(r"\s*\}?\s*(\w+)", code[line_start:brace])
    return m.group(1) if m else ""


def bodies(path: str):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    code = blank_strings_and_comments(text)
    pairs = matching_braces(code)
    line_of = lambda offset: code.count("\n", 0, offset) + 1
    found, types, claimed = [], [], set()
    for m in DECL.finditer(code):
        if code[: m.start()].rstrip().endswith("."):
            continue  # `.init(…)`, `self.init(…)`: a call, not a declaration
        brace = body_brace(code, m.end(m.lastindex))
        if brace < 0 or brace not in pairs:
            continue
        claimed.add(brace)
        if m.group(6):
            types.append((brace, pairs[brace], m.group(7)))
            continue
        kind = "func" if m.group(1) else "init" if m.group(3) else "deinit" if m.group(4) else "subscript"
        name = m.group(2) if m.group(1) else kind
        found.append([kind, name, m.start(), brace])
    for m in COMPUTED_VAR.finditer(code):
        brace = m.end() - 1
        if brace in pairs and brace not in claimed:
            claimed.add(brace)
            found.append(["var", m.group(1), m.start(), brace])
    for brace, close in pairs.items():
        if brace in claimed:
            continue
        line_end = code.find("\n", brace)
        after = code[brace + 1 : line_end if line_end >= 0 else len(code)]
        before = code[:brace].rstrip()
        prev = before[-1:] if before else ""
        closure = bool(re.match(r"\s*(\[[^\]]*\]\s*)?[\w\s,()_:?\[\].<>]*\bin\s*$", after))
        closure = closure or prev in "=(,:" or before.endswith("return")
        if not closure and prev == ")":
            closure = statement_start_word(code, brace) not in STATEMENT_KEYWORDS
        if closure:
            found.append(["closure", "{ }", brace, brace])
    for kind, name, start, brace in found:
        owner = [t for t in types if t[0] < start < t[1]]
        qualified = f"{owner[-1][2]}.{name}" if owner and kind != "closure" else name
        first = line_of(start)
        yield (line_of(pairs[brace]) - first + 1, kind, qualified, path, first)


def swift_files(paths):
    for root in paths:
        if os.path.isfile(root):
            yield root
            continue
        for folder, dirs, files in os.walk(root):
            dirs.sort()
            for name in sorted(files):
                if name.endswith(".swift"):
                    yield os.path.join(folder, name)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*", default=["Sources"])
    parser.add_argument("-n", type=int, default=20, help="how many rows (default 20; 0 for all)")
    parser.add_argument("--kinds", default="func,init,deinit,subscript,var,closure", help="kinds to list")
    parser.add_argument("--summary", action="store_true", help="also print the Swift lines under each path")
    args = parser.parse_args()
    kinds = set(args.kinds.split(","))
    rows = []
    for path in sorted(set(swift_files(args.paths))):
        rows.extend(row for row in bodies(path) if row[1] in kinds)
    if not rows and not args.summary:
        print("no Swift bodies found under " + " ".join(args.paths), file=sys.stderr)
        return 1
    rows.sort(key=lambda row: (-row[0], row[3], row[4]))
    for lines, kind, name, path, line in rows[: args.n or None]:
        print(f"{lines:5d}  {kind:<9} {name:<48} {path}:{line}")
    if args.summary:
        for root in args.paths:
            total = 0
            for path in swift_files([root]):
                with open(path, encoding="utf-8") as f:
                    total += sum(1 for _ in f)
            print(f"{total:6d} lines of Swift under {root}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
