#!/usr/bin/env python3
"""Every tuned number of the coaching session is named (issue 26, item 2).

Lists the numeric literals in Sources/CoachKit/Session/*.swift that are neither in a configuration (a `static let`
or stored property `NAME = <number>`, a parameter default `NAME: Type = <number>`) nor arithmetic that is not
tuning: 0 and 1, the slot layout (`* 2`, `/ 2`, `% 2`, `? 2 : 1`, two sides), x-y-z triples, a mean of two,
second differences, floating-point tolerances (1e-6, 1e-9), buffer capacities and text formatting.

    scripts/check-session-literals.py [FILE...]

Prints one line per stray literal and exits 1 when there is any.
"""
import glob
import os
import re
import sys

ALLOWED = [
    r"^\s*(public |package |private |fileprivate )?(private\(set\) )?(static )?(let|var) \w+(: [\w.]+)? = [-\d.e_]+(\.\.\.[\d.]+)?$",
    r"\w+: (Double|Int)\?? = [-\d.]+[,)]",  # a parameter default in a configuration's init
    r"[*/%] [23]\b",  # slot layout (angle * 2 + side), a mean of two, x-y-z triples
    r"\b2 \* \w+(?:\[|\.)",  # a second difference
    r"\? 2 : 1\b",  # a sided angle's two slots
    r"count == 2\b",  # one counter per side
    r"base \+ [12]\b",  # x, y, z of a joint
    r"reserveCapacity\(\d+\)",
    r"\b1e-[69]\b",
    r"[*/] 10{1,2}\b",  # text formatting to a tenth or hundredth
    r"2 \* gapReturnVotes",  # a majority
    r"reps\.count >= 2\b",  # a pause needs two repetitions
    r"dropFirst\(\d+\)",  # a text prefix's length
    r"case \.\w+: \d$",  # a cue kind's rank
]
NUMBER = re.compile(r"(?<![\w.])(\d[\d_]*(?:\.\d+)?(?:e-?\d+)?)(?![\w])")


def strip(source):
    """Blanks comments and string literals (the code of interpolations stays)."""
    out, i, n = [], 0, len(source)
    while i < n:
        if source.startswith("//", i):
            j = source.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif source.startswith('"""', i):
            j = source.find('"""', i + 3) + 3
            out.append(re.sub(r"[^\n]", " ", source[i:j]))
            i = j
        elif source[i] == '"':
            j = i + 1
            while j < n and source[j] != '"':
                if source.startswith("\\(", j):
                    k, depth = j + 2, 1
                    while depth:
                        depth += {"(": 1, ")": -1}.get(source[k], 0)
                        k += 1
                    out.append(" " + strip(source[j + 2 : k - 1]) + " ")
                    j = k
                    continue
                j += 2 if source[j] == "\\" else 1
            out.append(" ")
            i = j + 1
        else:
            out.append(source[i])
            i += 1
    return "".join(out)


def main():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    files = sys.argv[1:] or sorted(glob.glob(os.path.join(root, "Sources/CoachKit/Session/*.swift")))
    stray = 0
    for path in files:
        for number, line in enumerate(strip(open(path, encoding="utf-8").read()).split("\n"), 1):
            if any(re.search(pattern, line) for pattern in ALLOWED):
                continue
            for match in NUMBER.finditer(line):
                if float(match.group(1).replace("_", "")) in (0, 1):
                    continue
                print(f"{os.path.relpath(path, root)}:{number}: {match.group(1)} is not named: {line.strip()}")
                stray += 1
    print(f"{stray} unnamed numbers in {len(files)} files")
    return 1 if stray else 0


if __name__ == "__main__":
    sys.exit(main())
