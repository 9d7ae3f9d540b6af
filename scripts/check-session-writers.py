#!/usr/bin/env python3
"""No stored property of CoachingSession is written from more than one file (issue 26, item 1).

Lists, for each stored property of `CoachingSession` (declared in Sources/CoachKit/Session/CoachingSession.swift),
the files of Sources/CoachKit/Session that write it: assign it or a part of it (`p = `, `p.x += `, `p[i] = `), pass
it `inout` (`&p`), or call a mutating method on it or on a part of it (`p.ingest(`, `p?.replay.start(`; a method is
taken as mutating when a `mutating func` of that name is declared anywhere in Sources/, or it is one of the standard
library's: over-approximated by name, never under). The initialiser's first assignments are not writes.

    scripts/check-session-writers.py [-v]

Prints one line per property (`-v`: with every writing line) and exits 1 when any is written from more than one file.
"""
import glob
import importlib.util
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
SESSION = os.path.join(ROOT, "Sources/CoachKit/Session")

_spec = importlib.util.spec_from_file_location("literals", os.path.join(ROOT, "scripts/check-session-literals.py"))
_literals = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_literals)
strip = _literals.strip  # blanks comments and string literals

STANDARD_MUTATING = {
    "append", "insert", "remove", "removeAll", "removeFirst", "removeLast", "removeSubrange", "popLast", "popFirst",
    "reserveCapacity", "sort", "reverse", "shuffle", "swapAt", "replaceSubrange", "formUnion", "formIntersection",
    "subtract", "update", "updateValue", "removeValue", "merge", "toggle", "negate", "append(contentsOf",
}


def body_of(source, start):
    """The text from `start` (at or before an opening brace) to its matching closing brace."""
    i = source.index("{", start)
    depth = 0
    for j in range(i, len(source)):
        depth += {"{": 1, "}": -1}.get(source[j], 0)
        if depth == 0:
            return i, j + 1
    raise ValueError("unbalanced braces")


def stored_properties(source):
    """The stored properties declared at the top level of `struct CoachingSession`."""
    start, end = body_of(source, source.index("struct CoachingSession"))
    names, depth, line = [], 0, []
    for ch in source[start + 1 : end - 1]:
        if ch == "\n":
            text = "".join(line)
            m = re.match(
                r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|private|fileprivate)(?:\(set\))?\s+)*"
                r"(let|var)\s+(\w+)\s*(:[^={]*)?(=.*)?$",
                text,
            )
            # A `var` without an initial value and with a `{` on its line is computed.
            if depth == 0 and m and not (m.group(1) == "var" and m.group(4) is None and "{" in text):
                names.append(m.group(2))
            line = []
        else:
            if depth == 0:
                line.append(ch)
            depth += {"{": 1, "}": -1}.get(ch, 0)
    return names


def mutating_names():
    names = set(STANDARD_MUTATING)
    for path in glob.glob(os.path.join(ROOT, "Sources/**/*.swift"), recursive=True):
        names.update(re.findall(r"mutating func (\w+)", open(path, encoding="utf-8").read()))
    return names


def writes(line, prop, mutating):
    """Whether `line` writes `prop` (see the module's documentation)."""
    head = rf"(?:(?<![\w.])|(?<=\bself\.)){prop}\b"
    path = r"(?:[?!]?(?:\.\w+|\[[^\]]*\]))*"
    if re.search(head + path + r"[?!]?\s*(?:[-+*/]?=)(?!=)", line):
        return True
    if re.search(rf"&(?:self\.)?{prop}\b", line):
        return True
    for m in re.finditer(head + path + r"[?!]?\.(\w+)\(", line):
        if m.group(1) in mutating:
            return True
    return False


def session_text(source):
    """`source` with everything blanked but the bodies of `struct CoachingSession` and `extension CoachingSession`
    (their nested types' bodies blanked too, and the initialiser's, which sets the properties up)."""
    keep = [False] * len(source)
    for m in re.finditer(r"\b(?:struct|extension) CoachingSession\s*(?::[^{]*)?\{", source):
        s, e = body_of(source, m.end() - 1)
        for i in range(s, e):
            keep[i] = True
        for n in re.finditer(r"\b(?:struct|enum|class|actor) \w+[^{]*\{", source[s + 1 : e]):
            ns, ne = body_of(source, s + 1 + n.end() - 1)
            for i in range(ns, ne):
                keep[i] = False
        for n in re.finditer(r"\binit\(configuration: Configuration\)", source[s:e]):
            ns, ne = body_of(source, s + n.end())
            for i in range(ns, ne):
                keep[i] = False
    return "".join(c if keep[i] or c == "\n" else " " for i, c in enumerate(source))


def main():
    verbose = "-v" in sys.argv[1:]
    main_file = os.path.join(SESSION, "CoachingSession.swift")
    props = stored_properties(strip(open(main_file, encoding="utf-8").read()))
    mutating = mutating_names()
    writers = {p: {} for p in props}
    for path in sorted(glob.glob(os.path.join(SESSION, "*.swift"))):
        source = session_text(strip(open(path, encoding="utf-8").read()))
        name = os.path.relpath(path, ROOT)
        for number, line in enumerate(source.split("\n"), 1):
            # A declaration's name is not written; its initial value may write something.
            line = re.sub(r"^\s*(?:[\w()]+\s+)*(?:let|var)\s+\w+\s*(?::[^=]*)?=", "=", line)
            for p in props:
                if writes(line, p, mutating):
                    writers[p].setdefault(name, []).append(number)
    shared = 0
    print(f"{len(props)} stored properties of CoachingSession")
    for p in props:
        files = writers[p]
        mark = "" if len(files) <= 1 else "  <- written from more than one file"
        shown = ", ".join(os.path.basename(f) for f in files) or "(set up only)"
        print(f"{p}: {shown}{mark}")
        if verbose:
            for f, lines in files.items():
                print(f"    {f}: lines {', '.join(map(str, lines))}")
        shared += len(files) > 1
    print(f"{shared} properties written from more than one file")
    return 1 if shared else 0


if __name__ == "__main__":
    sys.exit(main())
