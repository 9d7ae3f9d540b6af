#!/usr/bin/env python3
"""Does the count depend on how many frames arrive?

A live server that is busy drops camera frames, so the coach sees 30, 15, 10, 7.5 or 5 frames a second of the
same movement. This thins each pose-track the same way (keeping a frame when 1/rate s have passed since the
last one kept, and dropping 30 % of frames at random with fixed seeds), runs `ptcoach analyze --json` on every
variant and prints the repetitions counted: one row per track and binary, one column per frame rate.

    scripts/check-frame-rates.py [--binary NAME=PATH ...] [--exercise label|none|ID] [--markdown] TRACK...

  --binary     the builds to compare, e.g. --binary before=/work/base/ptcoach --binary after=.build/release/ptcoach
               (default: .build/release/ptcoach)
  --exercise   label: the exercise in ../shared/data/videos/labels.csv for the track's name (or the track's own
               header label), given with --exercise; none: no exercise given (recognised); or an exercise id
  --seeds      seeds of the random 30 % drops (default 1,2)
  --markdown   a Markdown table (for docs/frame-rates.md)
  --cache FILE keep the counts in FILE (JSON), keyed by binary (path, size, time), track, variant and exercise,
               so a second table over the same builds runs nothing again

Reading the output: "labelled" is the count a person gave the video (the calimiro labels are ±1); "full" is
every frame; a thinned column that differs from "full" is marked with *. The last lines give, per build, the
tracks counted the same at every rate, how many tracks each thinning changed, and the sum of |count - labelled|.
"""
import argparse
import csv
import json
import os
import random
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
LABELS = os.path.join(HERE, "..", "..", "shared", "data", "videos", "labels.csv")


def labels():
    table = {}
    if os.path.exists(LABELS):
        for row in csv.DictReader(open(LABELS)):
            name = os.path.splitext(os.path.basename(row["file"]))[0]
            table[name] = (row["exercise"], int(row["reps_labelled"]))
    return table


def variants(frames, seeds):
    """The ways a busy server thins the frames: name → the frames kept."""
    out = {"full": frames}
    times = [json.loads(f)["t"] for f in frames]
    for rate in (15, 10, 7.5, 5):
        keep, last = [], -1e9
        for f, t in zip(frames, times):
            if t - last >= 1 / rate - 1e-3:
                keep.append(f)
                last = t
        out[f"{rate:g} fps"] = keep
    for seed in seeds:
        r = random.Random(seed)
        out[f"30% drop s{seed}"] = [f for f in frames if r.random() >= 0.3]
    return out


def count(binary, header, frames, exercise):
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as tmp:
        tmp.write("\n".join([header] + frames) + "\n")
    args = [binary, "analyze", tmp.name, "--json"] + (["--exercise", exercise] if exercise else [])
    p = subprocess.run(args, capture_output=True, text=True)
    os.unlink(tmp.name)
    try:
        return json.loads(p.stdout)["reps"]
    except Exception:
        return "error: " + (p.stderr.strip().splitlines() or ["no output"])[-1][:80]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary", action="append", default=[])
    ap.add_argument("--exercise", default="label")
    ap.add_argument("--seeds", default="1,2")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--cache")
    ap.add_argument("tracks", nargs="+")
    a = ap.parse_args()
    binaries = [b.split("=", 1) if "=" in b else (os.path.basename(b), b) for b in a.binary] or [
        ("after", ".build/release/ptcoach")
    ]
    seeds = [int(s) for s in a.seeds.split(",") if s]
    known = labels()
    jobs, rows = [], []
    for track in a.tracks:
        lines = open(track).read().splitlines()
        header, frames = lines[0], [l for l in lines[1:] if l.strip()]
        name = os.path.splitext(os.path.basename(track))[0]
        label_exercise, label_reps = known.get(name, (None, None))
        if label_exercise is None:
            label_exercise = json.loads(header).get("labels", {}).get("exercise")
        exercise = {"label": label_exercise, "none": None}.get(a.exercise, a.exercise)
        vs = variants(frames, seeds)
        for bname, binary in binaries:
            row = {"track": name, "labelled": label_reps, "build": bname, "exercise": exercise or "none", "counts": {}}
            rows.append(row)
            for vname, fs in vs.items():
                jobs.append((row, vname, binary, header, fs, exercise))
    cache = json.load(open(a.cache)) if a.cache and os.path.exists(a.cache) else {}

    def key(j):
        st = os.stat(j[2])
        return f"{os.path.realpath(j[2])}:{st.st_size}:{st.st_mtime}|{j[0]['track']}|{j[1]}|{j[5]}"

    def run(j):
        k = key(j)
        if k not in cache:
            cache[k] = count(j[2], j[3], j[4], j[5])
        return cache[k]

    with ThreadPoolExecutor(a.jobs) as pool:
        results = list(pool.map(run, jobs))
        for (row, vname, *_), reps in zip(jobs, results):
            row["counts"][vname] = reps
    if a.cache:
        json.dump(cache, open(a.cache, "w"))
    columns = list(rows[0]["counts"]) if rows else []
    head = ["track", "labelled", "exercise", "build"] + columns
    table = []
    for row in rows:
        full = row["counts"]["full"]
        cells = [str(row["counts"]["full"])] + [
            f"{v}{'*' if v != full else ''}" for k, v in row["counts"].items() if k != "full"
        ]
        table.append([row["track"], "" if row["labelled"] is None else str(row["labelled"]), row["exercise"], row["build"]] + cells)
    if a.markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "|".join("---" for _ in head) + "|")
        for r in table:
            print("| " + " | ".join(r) + " |")
    else:
        widths = [max(len(h), *(len(r[i]) for r in table)) for i, h in enumerate(head)]
        print("  ".join(h.ljust(w) for h, w in zip(head, widths)))
        for r in table:
            print("  ".join(c.ljust(w) for c, w in zip(r, widths)))
    print()
    for bname, _ in binaries:
        mine = [r for r in rows if r["build"] == bname]
        thinned = [c for c in columns if c != "full"]
        differ = {c: sum(1 for r in mine if r["counts"][c] != r["counts"]["full"]) for c in thinned}
        steady = sum(1 for r in mine if all(r["counts"][c] == r["counts"]["full"] for c in thinned))
        distance = {
            c: sum(
                abs(r["counts"][c] - r["labelled"])
                for r in mine
                if r["labelled"] is not None and isinstance(r["counts"][c], int)
            )
            for c in columns
        }
        print(f"{bname}: the same count at every rate on {steady} of {len(mine)} tracks")
        print("  tracks counted differently from full rate: " + ", ".join(f"{c} {n}" for c, n in differ.items()))
        print("  sum of |count - labelled|: " + ", ".join(f"{c} {d}" for c, d in distance.items()))

if __name__ == "__main__":
    sys.exit(main())
