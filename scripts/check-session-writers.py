#!/usr/bin/env python3
"""No stored property of CoachingSession or of its core is written from more than one file (issue 26, item 1).

Lists, for each stored property of `CoachingCore` (declared in Sources/CoachKit/Session/CoachingCore.swift) and of
`CoachingSession` (CoachingSession.swift), the files of Sources/CoachKit/Session that write it from the methods of its
own type, or, for the core's, from the session's through `core.` (`core.output.events = `, `core.clock.end()`): assign it or a part of it (`p = `, `p.x += `, `p[i] = `), pass
it `inout` (`&p`), or call a mutating method on it or on a part of it (`p.ingest(`, `p?.replay.start(`; a method is
taken as mutating when a `mutating func` of that name is declared anywhere in Sources/, or it is one of the standard
library's: over-approximated by name, never under). The initialiser's first assignments are not writes. The session's
`core` is a part: the session calls its methods from the files of its pipeline (listed, not counted), and what those
methods write is checked as the core's own properties.

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


def stored_properties(source, struct):
    """The stored properties declared at the top level of `struct <struct>`."""
    start, end = body_of(source, source.index(f"struct {struct}"))
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


def writes(line, prop, mutating, through=None):
    """Whether `line` writes `prop` (see the module's documentation); `through`: as `<through>.prop` only."""
    head = rf"(?:(?<![\w.])|(?<=\bself\.)){prop}\b" if through is None else rf"(?<![\w.]){through}\.{prop}\b"
    path = r"(?:[?!]?(?:\.\w+|\[[^\]]*\]))*"
    if re.search(head + path + r"[?!]?\s*(?:[-+*/]?=)(?!=)", line):
        return True
    if re.search(rf"&(?:self\.)?{prop}\b" if through is None else rf"&{through}\.{prop}\b", line):
        return True
    for m in re.finditer(head + path + r"[?!]?\.(\w+)\(", line):
        if m.group(1) in mutating:
            return True
    return False


def session_text(source, struct):
    """`source` with everything blanked but the bodies of `struct <struct>` and `extension <struct>` (their nested
    types' bodies blanked too, and the initialiser's, which sets the properties up)."""
    keep = [False] * len(source)
    for m in re.finditer(rf"\b(?:struct|extension) {struct}\s*(?::[^{{]*)?\{{", source):
        s, e = body_of(source, m.end() - 1)
        for i in range(s, e):
            keep[i] = True
        for n in re.finditer(r"\b(?:struct|enum|class|actor) \w+[^{]*\{", source[s + 1 : e]):
            ns, ne = body_of(source, s + 1 + n.end() - 1)
            for i in range(ns, ne):
                keep[i] = False
        for n in re.finditer(r"\binit\(configuration: Configuration[,)]", source[s:e]):
            ns, ne = body_of(source, s + n.end())
            for i in range(ns, ne):
                keep[i] = False
    return "".join(c if keep[i] or c == "\n" else " " for i, c in enumerate(source))


def writers_of(struct, props, mutating, through=None, of=None):
    """For each of `props`, the files (and lines) that write it from the methods of `struct` (`through`: as
    `<through>.prop`, from those of `of`)."""
    writers = {p: {} for p in props}
    for path in sorted(glob.glob(os.path.join(SESSION, "*.swift"))):
        source = session_text(strip(open(path, encoding="utf-8").read()), of or struct)
        name = os.path.relpath(path, ROOT)
        for number, line in enumerate(source.split("\n"), 1):
            # A declaration's name is not written; its initial value may write something.
            line = re.sub(r"^\s*(?:[\w()]+\s+)*(?:let|var)\s+\w+\s*(?::[^=]*)?=", "=", line)
            for p in props:
                if writes(line, p, mutating, through):
                    writers[p].setdefault(name, []).append(number)
    return writers


def main():
    verbose = "-v" in sys.argv[1:]
    mutating = mutating_names()
    read = lambda f: strip(open(os.path.join(SESSION, f), encoding="utf-8").read())
    core_props = stored_properties(read("CoachingCore.swift"), "CoachingCore")
    session_props = stored_properties(read("CoachingSession.swift"), "CoachingSession")
    core = writers_of("CoachingCore", core_props, mutating)
    # The core's properties written by the session's methods through `core.`.
    for p, files in writers_of("CoachingCore", core_props, mutating, "core", "CoachingSession").items():
        for f, lines in files.items():
            core[p].setdefault(f, []).extend(lines)
    session = writers_of("CoachingSession", session_props, mutating)
    shared = 0
    for struct, props, writers in (("CoachingCore", core_props, core), ("CoachingSession", session_props, session)):
        print(f"{len(props)} stored properties of {struct}")
        for p in props:
            files = writers[p]
            part = struct == "CoachingSession" and p == "core"
            mark = "" if len(files) <= 1 or part else "  <- written from more than one file"
            shown = ", ".join(os.path.basename(f) for f in files) or "(set up only)"
            print(f"{p}: {shown}{'  (its methods called: a part, checked above)' if part else ''}{mark}")
            if verbose:
                for f, lines in files.items():
                    print(f"    {f}: lines {', '.join(map(str, lines))}")
            shared += len(files) > 1 and not part
    print(f"{shared} properties written from more than one file")
    return 1 if shared else 0


if __name__ == "__main__":
    sys.exit(main())
