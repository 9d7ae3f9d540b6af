#!/usr/bin/env python3
"""How many source files one frame touches: the files of `Sources/` whose code runs inside `CoachingSession.ingest`.

Usage: scripts/files-per-frame.py BENCHMARK_BINARY [given|none] [--list]

BENCHMARK_BINARY is the coaching benchmark built in release (`swift build -c release --package-path Benchmarks`, or
the binary `scripts/bench-compare.sh` keeps in its WORK folder). It runs that benchmark on its synthetic squat
session (the warm-up minute and one more: 3,600 frames at 30 fps) under valgrind's callgrind, which records every
instruction executed and every call, with the exercise given (`given`, the default) or recognised (`none`). From
the call graph it takes every function `CoachingSession.ingest` reaches (callees of callees, so a session nested in
another is followed too), and names the source file of each instruction those functions executed, every inlined
level of it (`addr2line -i` over the build's debug line tables). It prints the number of distinct files under
`Sources/`, per module, and with --list each file and how many of its functions (inlined ones too) ran.

What it counts is the union over the run's frames: every file some frame's `ingest` executed code of (a frame that
ends a repetition reaches the judge and the cues; one mid-repetition does not); the count for one frame is at most
this. It is exact for that run (no sampling; the same binary gives the same count), needs no debugger, and runs in
seconds. Code the compiler generated (thunks, `<compiler-generated>`) and the standard library count for no file.
Callgrind reads a copy stripped of debug information (valgrind 3.19 cannot read Swift's); the addresses are the same.
"""

import collections
import os
import re
import subprocess
import sys
import tempfile

INGEST = re.compile(r"CoachingSessionV6ingest")


def profile(binary: str, mode: str) -> tuple[str, str]:
    """Runs the benchmark under callgrind (on a copy without debug information); the profile's path and the copy's."""
    stripped = tempfile.mktemp(prefix="ptcoach-bench-")
    out = tempfile.mktemp(prefix="ptcoach-callgrind-", suffix=".out")
    subprocess.run(["objcopy", "--strip-debug", binary, stripped], check=True)
    try:
        subprocess.run(
            ["valgrind", "--tool=callgrind", "--dump-instr=yes", f"--callgrind-out-file={out}", stripped, mode,
             "minutes=1"],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    finally:
        os.unlink(stripped)
    return out, stripped


def parse(path: str, program: str):
    """Per function of `program` (the stripped copy): the addresses of the instructions it executed, and the
    functions it called."""
    tables = {"ob": {}, "fn": {}}
    instructions = collections.defaultdict(set)
    callees = collections.defaultdict(set)
    obj = fn = None
    last = 0

    def name(table, value):
        m = re.match(r"\((\d+)\)(?: (.*))?$", value)
        if not m:
            return value
        if m.group(2) is not None:
            tables[table][m.group(1)] = m.group(2)
        return tables[table].get(m.group(1), value)

    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            key, eq, value = line.partition("=")
            if eq and key == "ob":
                obj = name("ob", value)
            elif eq and key == "cob":
                name("ob", value)
            elif eq and key == "fn":
                fn = name("fn", value)
            elif eq and key == "cfn":
                callee = name("fn", value)
                if fn:
                    callees[fn].add(callee)
            elif eq and key in ("fl", "fi", "fe", "cfi", "cfl", "calls", "jump", "jcnd"):
                continue
            elif line and line[0] in "0123456789+-*":
                first = line.split()[0]
                if first.startswith("0x"):
                    last = int(first, 16)
                elif first[0] in "+-":
                    last += int(first)
                elif first != "*":
                    last = int(first)
                if fn and obj and os.path.basename(obj) == os.path.basename(program):
                    instructions[fn].add(last)
    return instructions, callees


def locate(binary: str, addresses):
    """The (file, function) of each inlined level at each address, from one `addr2line -i` run."""
    text = subprocess.run(
        ["addr2line", "-e", binary, "-a", "-i", "-f"],
        input="\n".join(f"{a:x}" for a in sorted(addresses)),
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    found = collections.defaultdict(list)
    current = None
    lines = iter(text.splitlines())
    for line in lines:
        if line.startswith("0x"):
            current = int(line, 16)
            continue
        location = next(lines, "")
        found[current].append((location.rsplit(":", 1)[0], line))
    return found


def main() -> int:
    positional = [a for a in sys.argv[1:] if not a.startswith("--")]
    if not positional or not os.path.isfile(positional[0]):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 64
    binary, mode = positional[0], (positional[1] if len(positional) > 1 else "given")
    if mode not in ("given", "none"):
        print(f"mode must be given or none, got {mode}", file=sys.stderr)
        return 64
    out, program = profile(binary, mode)
    try:
        instructions, callees = parse(out, program)
    finally:
        os.unlink(out)
    roots = [fn for fn in instructions.keys() | callees.keys() if INGEST.search(fn)]
    if not roots:
        print("no CoachingSession.ingest in the profile: is this the coaching benchmark?", file=sys.stderr)
        return 1
    reached, stack = set(roots), list(roots)
    while stack:
        for callee in callees.get(stack.pop(), ()):
            if callee not in reached:
                reached.add(callee)
                stack.append(callee)
    addresses = {a for fn in reached for a in instructions.get(fn, ())}
    root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    by_name = {}
    for folder, _, files in os.walk(os.path.join(root, "Sources")):
        for f in files:
            if f.endswith(".swift"):
                by_name.setdefault(f, []).append(os.path.relpath(os.path.join(folder, f), root))
    functions = collections.defaultdict(set)
    for located in locate(binary, addresses).values():
        for file, function in located:
            # The line tables name the file as compiled: a path under some checkout's Sources/, or its name alone.
            if "/Sources/" in file:
                relative = file[file.rindex("/Sources/") + 1 :]
            elif len(by_name.get(file, [])) == 1:
                relative = by_name[file][0]
            else:
                continue
            if relative.endswith(".swift") and not relative.startswith("Sources/CoachBenchmark"):
                functions[relative].add(function)
    modules = collections.Counter(path.split("/")[1] for path in functions)
    print(
        f"{mode}: {len(functions)} files under Sources/ ran inside CoachingSession.ingest "
        + f"({', '.join(f'{m} {n}' for m, n in sorted(modules.items()))}); "
        + f"{len(reached)} functions reached, {len(addresses)} distinct instructions, over 3,600 frames"
    )
    if "--list" in sys.argv:
        for path in sorted(functions):
            print(f"  {path}: {len(functions[path])} functions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
