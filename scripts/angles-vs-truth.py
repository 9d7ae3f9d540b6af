#!/usr/bin/env python3
"""The per-repetition angles `ptcoach analyze --json` reports from a 2-D picture, against the true 3-D angles.

Two truths:

- generated motion (scripts/generate_motion.py): every library exercise with a template, left side moving, seen
  from the front (azimuth 0), obliquely (45, toward the moving side) and from the side (90, the moving side
  nearest), the camera at the body's mid-height. `clean`: the exact projection of the true landmarks (what a
  perfect 2-D pose model would give); `pose model`: with the generator's drawn pose-model artefacts (noise, drift,
  a far arm guessed, limbs out of the picture) and a guessed depth the coach does not trust (it measures in the
  image plane, as on real videos). The truth is the 3-D angle with the coach's own definitions (motion/truth.py).
- UI-PRMD's Kinect tracks (../shared/data/pose-tracks/ui-prmd, 3 virtual views): the file without its depth is
  what the coach measures in 2-D; the truth is the same skeleton's 3-D angle. The limbs of that set are distorted
  (DATA.md), but the 2-D and 3-D values come from one skeleton, so their difference is the view's alone.

For each of the coach's repetitions and each angle it reports in degrees, the value at the repetition's peak
(`atPeak`) is compared with the true value at the true primary angle's peak in the same window. A view measures an
angle "within 5°" when the median absolute error over the repetitions is at most 5°, "within 10°" at most 10°,
"not at all" beyond, or when the coach gives no value.

    scripts/angles-vs-truth.py [--bin .build/debug/ptcoach] [--count 2] [--only generated,uiprmd] [--json OUT]
    scripts/angles-vs-truth.py --report OUT      # the tables again from a run's --json
"""

import argparse
import collections
import concurrent.futures
import glob
import json
import os
import statistics
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from generate_motion import definition, generate_one  # noqa: E402
from motion.templates import TEMPLATES  # noqa: E402
from motion.truth import measure  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VIEWS = {"front": 0.0, "oblique": 45.0, "side": 90.0}
SKIPPED = {"kneeWidthRatio", "headShoulderRatio", "upperArmInclination"}  # image-plane quantities by definition


def parse():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--bin", default=os.path.join(REPO, ".build", "debug", "ptcoach"))
    p.add_argument("--count", type=int, default=2, help="generated clips per exercise, view and condition")
    p.add_argument("--seed", type=int, default=5)
    p.add_argument("--exercises", default="all")
    p.add_argument("--only", default="generated,uiprmd")
    p.add_argument("--data", default=os.path.join(REPO, "..", "shared", "data"))
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--json", help="write every comparison here")
    p.add_argument("--report", help="print the tables of comparisons written before with --json (runs nothing)")
    return p.parse_args()


def analyze(binary, path, exercise):
    done = subprocess.run([binary, "analyze", path, "--json", "--exercise", exercise], capture_output=True, text=True)
    return json.loads(done.stdout) if done.returncode == 0 else None


def compare(summary, times, truth_series, primary, decreasing, side_of):
    """(angle, error) pairs of every repetition: the coach's atPeak against the truth at the true peak."""
    out = []
    if not summary:
        return out
    for rep in summary["repetitions"]:
        window = (times >= rep["startSeconds"]) & (times <= rep["endSeconds"])
        if window.sum() < 2:
            continue
        side = rep.get("side") or side_of
        if f"{primary}.left" in truth_series and side is None:  # the side that moved more in the window
            side = max(("left", "right"), key=lambda s: np.nanmax(np.where(window, truth_series[f"{primary}.{s}"],
                                                                            np.nan))
                       - np.nanmin(np.where(window, truth_series[f"{primary}.{s}"], np.nan)))
        key = f"{primary}.{side}" if f"{primary}.{side}" in truth_series else primary
        prim = np.where(window, truth_series[key], np.nan)
        if np.all(np.isnan(prim)):
            continue
        at = int(np.nanargmin(prim) if decreasing else np.nanargmax(prim))
        reported = {(a["angle"], a.get("side")) for a in rep["angles"]}
        for angle, a_side in reported:
            if angle in SKIPPED:
                continue
            a = next(x for x in rep["angles"] if x["angle"] == angle and x.get("side") == a_side)
            key = f"{angle}.{a_side}" if a_side else angle
            if key not in truth_series or a.get("atPeak") is None:
                continue
            out.append((angle, a_side, float(a["atPeak"]) - float(truth_series[key][at])))
    return out


def truth_series_of(points_by_frame, angles):
    series = {}
    for angle in angles:
        sided = angle not in ("trunkLean", "kneeWidthRatio", "headShoulderRatio")
        for s in (["left", "right"] if sided else ["left"]):
            key = f"{angle}.{s}" if sided else angle
            series[key] = np.array([measure(p, angle, s) for p in points_by_frame])
    return series


# MARK: - generated


def generated_job(job):
    exercise, view, condition, index, seed, folder, binary = job
    clean = condition == "clean"
    sub = os.path.join(folder, f"{view}-{condition}")
    os.makedirs(sub, exist_ok=True)
    path, _, clip = generate_one(exercise, index, seed, sub, fault_share=0.0, clean=clean,
                                 depth="none" if clean else "guessed", azimuth=VIEWS[view], elevation=0.0, side="l")
    d = definition(exercise)
    series = truth_series_of(clip.points, d["angles"])
    rep = d.get("repetition", {})
    summary = analyze(binary, path, exercise)
    errors = compare(summary, clip.times, series, d["primary"], rep.get("peak", 1) < rep.get("start", 0), "left")
    os.remove(path)
    return [(f"generated, {condition}", view, exercise, angle, side, err) for angle, side, err in errors]


# MARK: - UI-PRMD


def uiprmd_job(job):
    path, binary, folder = job
    with open(path) as f:
        header = json.loads(f.readline())
        frames = [json.loads(line) for line in f]
    names = header["keypoints"]
    labels = header["labels"]
    flat = dict(header)
    flat.pop("dimensions", None)
    out_path = os.path.join(folder, os.path.basename(path))
    points, times = [], []
    with open(out_path, "w") as out:
        out.write(json.dumps(flat) + "\n")
        for frame in frames:
            pose = frame["poses"][0] if frame["poses"] else None
            if pose is None:
                out.write(json.dumps({"t": frame["t"], "poses": []}) + "\n")
                continue
            rows = [pose[i * 4:(i + 1) * 4] for i in range(len(names))]
            out.write(json.dumps({"t": frame["t"], "poses": [[v for r in rows for v in (r[0], r[1], r[3])]]}) + "\n")
            points.append({n: np.array([r[0], -r[1], -r[2]]) for n, r in zip(names, rows)})
            times.append(frame["t"])
    d = definition(labels["exercise"])
    series = truth_series_of(points, d["angles"])
    rep = d.get("repetition", {})
    summary = analyze(binary, out_path, labels["exercise"])
    os.remove(out_path)
    errors = compare(summary, np.array(times), series, d["primary"], rep.get("peak", 1) < rep.get("start", 0), None)
    return [("UI-PRMD Kinect", labels["view"], labels["exercise"], angle, side, err) for angle, side, err in errors]


# MARK: - report


def verdict(errors):
    if not errors:
        return "not at all (no value)"
    m = statistics.median(abs(e) for e in errors)
    return f"{m:.1f}" + (" ✓5" if m <= 5 else (" ✓10" if m <= 10 else " ✗"))


def report(rows, expected_views):
    by = collections.defaultdict(list)
    for source, view, exercise, angle, side, err in rows:
        by[(source, exercise, angle, view)].append(err)
    print("\nMedian absolute error of the per-repetition angle at the peak (degrees), 2-D as the coach measures it "
          "against the true 3-D angle; ✓5 within 5°, ✓10 within 10°, ✗ not measured (median beyond 10°); n = "
          "repetitions.\n")
    for source in sorted({k[0] for k in by}):
        views = expected_views[source]
        print(f"\n#### {source}\n")
        print("| exercise | angle | " + " | ".join(views) + " |")
        print("|---|---|" + "---|" * len(views))
        pairs = sorted({(k[1], k[2]) for k in by if k[0] == source})
        for exercise, angle in pairs:
            cells = []
            for view in views:
                errors = by.get((source, exercise, angle, view), [])
                cells.append(f"{verdict(errors)} (n {len(errors)})" if errors else "no value")
            print(f"| {exercise} | {angle} | " + " | ".join(cells) + " |")
    print("\n#### Pooled over the exercises: per angle and view, the median absolute error of every repetition\n")
    pooled = collections.defaultdict(list)
    for (source, exercise, angle, view), errors in by.items():
        pooled[(source, angle, view)].extend(errors)
    for source in sorted({k[0] for k in pooled}):
        views = expected_views[source]
        print(f"\n{source}\n")
        print("| angle | " + " | ".join(views) + " |")
        print("|---|" + "---|" * len(views))
        for angle in sorted({k[1] for k in pooled if k[0] == source}):
            cells = [f"{verdict(pooled[(source, angle, v)])} (n {len(pooled[(source, angle, v)])})"
                     if pooled.get((source, angle, v)) else "no value" for v in views]
            print(f"| {angle} | " + " | ".join(cells) + " |")
    print("\n#### Summary: per angle and view, the share of (exercise, angle) cells within 5° / within 10° / beyond\n")
    summary = collections.defaultdict(lambda: collections.Counter())
    for (source, exercise, angle, view), errors in by.items():
        m = statistics.median(abs(e) for e in errors)
        summary[(source, angle, view)]["5" if m <= 5 else ("10" if m <= 10 else "x")] += 1
    print("| source | angle | view | within 5° | 5–10° | beyond 10° |")
    print("|---|---|---|---|---|---|")
    for key in sorted(summary):
        c = summary[key]
        print(f"| {key[0]} | {key[1]} | {key[2]} | {c['5']} | {c['10']} | {c['x']} |")


def main():
    args = parse()
    if args.report:
        with open(args.report) as f:
            rows = [tuple(r) for r in json.load(f)]
        sources = {r[0] for r in rows}
        report(rows, {s: (["front", "oblique", "side"]) for s in sources})
        return
    if not os.path.exists(args.bin):
        sys.exit(f"angles-vs-truth.py: no ptcoach at {args.bin}; build it or pass --bin")
    folder = tempfile.mkdtemp(prefix="ptcoach-angles-")
    rows, views = [], {}
    if "generated" in args.only:
        exercises = sorted(TEMPLATES) if args.exercises == "all" else args.exercises.split(",")
        jobs = [(e, v, c, i, args.seed, folder, args.bin) for e in exercises if not TEMPLATES[e].get("hold")
                for v in VIEWS for c in ("clean", "pose model") for i in range(args.count)]
        with concurrent.futures.ProcessPoolExecutor(args.jobs) as pool:
            for result in pool.map(generated_job, jobs):
                rows.extend(result)
        views["generated, clean"] = views["generated, pose model"] = list(VIEWS)
    if "uiprmd" in args.only:
        paths = sorted(glob.glob(os.path.join(args.data, "pose-tracks", "ui-prmd", "*.jsonl")))
        with concurrent.futures.ProcessPoolExecutor(args.jobs) as pool:
            for result in pool.map(uiprmd_job, [(p, args.bin, folder) for p in paths]):
                rows.extend(result)
        views["UI-PRMD Kinect"] = ["front", "oblique", "side"]
    report(rows, views)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f)


if __name__ == "__main__":
    main()
