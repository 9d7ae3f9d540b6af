#!/usr/bin/env python3
"""The coach on generated motion (scripts/generate_motion.py), and the generator checked against the real clips.

Generates a set (or reads one with --set), runs `ptcoach analyze` on every clip with the exercise given and with
none given, and prints per exercise and per camera azimuth / elevation bin: counting (within one of the truth,
exercise given), recognition (named right, and named right at the code's confidence threshold, none given) and
form verdicts (a clip is bad when a rule's true 3-D value is breached in some repetition; the coach's verdict is
bad when some repetition has an issue, not judged when every repetition is not checked). Generated clips are
never used to tune anything here, so every figure is "held out" from the generator's point of view; the rules'
bounds and the recogniser were fitted on real development clips (docs/evaluation-protocol.md), not on these.

--compare-real then puts the generator beside the real development clips (../shared/data and the cached
video tracks): per exercise, the primary angle's range per repetition and the repetition's duration as the coach
measures them, real against generated. Real clips check the generator here, not the rules.

    scripts/evaluate-generated.py [--bin .build/debug/ptcoach] [--set DIR | --count 6 --seed 1]
        [--exercises all] [--jobs 2] [--compare-real] [--tracks /tmp/pt] [--json OUT]
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

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from feedback_calibration import code_threshold, named_with_confidence  # noqa: E402
from generate_motion import definition, generate_one  # noqa: E402
from motion.templates import TEMPLATES  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
AZIMUTH_BINS = [(0, 30, "front 0-30"), (30, 60, "oblique 30-60"), (60, 120, "side 60-120"),
                (120, 150, "back-oblique 120-150"), (150, 181, "back 150-180")]
ELEVATION_BINS = [(-90, -5, "below <-5"), (-5, 10, "level -5..10"), (10, 25, "above 10..25"), (25, 90, "high >25")]


def parse():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--bin", default=os.path.join(REPO, ".build", "debug", "ptcoach"))
    p.add_argument("--set", help="a folder generated before (else one is generated in a temporary folder)")
    p.add_argument("--count", type=int, default=6)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--exercises", default="all")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--compare-real", action="store_true")
    p.add_argument("--data", default=os.path.join(REPO, "..", "shared", "data"))
    p.add_argument("--tracks", default="/tmp/pt", help="cached pose-tracks of the real videos (<name>.jsonl)")
    p.add_argument("--json", help="write every clip's outcome here")
    return p.parse_args()


def analyze(binary, path, exercise=None):
    done = subprocess.run([binary, "analyze", path, "--json"] + (["--exercise", exercise] if exercise else []),
                          capture_output=True, text=True)
    return json.loads(done.stdout) if done.returncode == 0 else {"error": done.stderr.strip()}


def header(path):
    with open(path) as f:
        return json.loads(f.readline())


def azimuth_bin(azimuth):
    folded = azimuth % 360
    folded = min(folded, 360 - folded)
    return next(name for lo, hi, name in AZIMUTH_BINS if lo <= folded < hi)


def elevation_bin(elevation):
    return next(name for lo, hi, name in ELEVATION_BINS if lo <= elevation < hi)


def outcome(binary, path, threshold):
    labels = header(path)["labels"]
    exercise = labels["exercise"]
    given = analyze(binary, path, exercise)
    free = analyze(binary, path)
    named, confidence = named_with_confidence(free if "error" not in free else None)
    result = {"file": os.path.basename(path), "exercise": exercise, "fault": labels["fault"],
              "truthForm": labels["form"], "breached": labels["breached"], "reps": labels["reps"],
              "camera": labels["camera"], "named": named, "confidence": confidence,
              "confidentRight": bool(named == exercise and confidence >= threshold),
              "confident": bool(named and confidence >= threshold)}
    if "error" in given:
        result.update(counted=None, verdict="error", flagged=[], error=given["error"])
        return result
    reps = given["repetitions"]
    checked = [r for r in reps if r["verdict"] != "not-checked"]
    flagged = sorted({i.get("rule") for r in reps for i in r.get("issues", []) if i.get("rule")})
    verdict = "unjudged" if not checked else ("bad" if any(r["verdict"] != "good" for r in checked) else "good")
    result.update(counted=given["reps"], verdict=verdict, flagged=flagged)
    return result


def share(hits, total):
    return f"{hits}/{total} = {hits / total:.2f}" if total else "–"


def table(results, key_of, title):
    groups = collections.defaultdict(list)
    for r in results:
        groups[key_of(r)].append(r)
    print(f"\n### {title}\n")
    print("| group | clips | count ±1 (given) | count exact | named right (none given) | confident right / "
          "confident (coverage) | form right / judged (judged share) | wrong 'good' |")
    print("|---|---|---|---|---|---|---|---|")
    for name in sorted(groups):
        rows = groups[name]
        counted = [r for r in rows if r["reps"] and r["counted"] is not None]
        within = sum(1 for r in counted if abs(r["counted"] - r["reps"]) <= 1)
        exact = sum(1 for r in counted if r["counted"] == r["reps"])
        named = sum(1 for r in rows if r["named"] == r["exercise"])
        sure = [r for r in rows if r["confident"]]
        sure_right = sum(1 for r in sure if r["confidentRight"])
        judged = [r for r in rows if r["verdict"] in ("good", "bad")]
        right = sum(1 for r in judged if r["verdict"] == r["truthForm"])
        wrong_good = sum(1 for r in judged if r["verdict"] == "good" and r["truthForm"] == "bad")
        coverage = f" ({len(sure) / len(rows):.2f})" if rows else ""
        print(f"| {name} | {len(rows)} | {share(within, len(counted))} | {share(exact, len(counted))} | "
              f"{share(named, len(rows))} | {share(sure_right, len(sure))}{coverage} | "
              f"{share(right, len(judged))} ({len(judged) / len(rows):.2f}) | {wrong_good} |")


def generated_set(args):
    if args.set:
        return sorted(glob.glob(os.path.join(args.set, "*.jsonl")))
    folder = tempfile.mkdtemp(prefix="ptcoach-generated-")
    exercises = sorted(TEMPLATES) if args.exercises == "all" else args.exercises.split(",")
    jobs = [(e, i) for e in exercises for i in range(args.count)]
    with concurrent.futures.ProcessPoolExecutor(args.jobs) as pool:
        paths = list(pool.map(_generate, [(e, i, args.seed, folder) for e, i in jobs]))
    print(f"generated {len(paths)} clips in {folder} (seed {args.seed}, {args.count} per exercise)")
    return paths


def _generate(job):
    exercise, index, seed, folder = job
    return generate_one(exercise, index, seed, folder)[0]


# MARK: - the generator against the real clips

KIMORE = {"kimore-es5": "squat", "kimore-es2": "lateral-trunk-tilt"}
VIDEO_PREFIX = {"push-up": "push-up", "squat_correct": "squat", "squat": "squat", "pull-up": "pull-up"}


def real_clips(args):
    clips = []
    for folder in ("pose-trainer", "kaiakol", "ui-prmd", "kimore"):
        for path in sorted(glob.glob(os.path.join(args.data, "pose-tracks", folder, "*.jsonl"))):
            labels = header(path).get("labels", {})
            exercise = KIMORE.get(labels.get("exercise"), labels.get("exercise"))
            if exercise in TEMPLATES and "corrupted" not in str(labels.get("note", "")):
                clips.append((folder, exercise, path))
    for path in sorted(glob.glob(os.path.join(args.tracks, "*.jsonl"))):
        name = os.path.basename(path).rsplit("_", 1)[0]
        if name in VIDEO_PREFIX:
            clips.append(("videos", VIDEO_PREFIX[name], path))
    return clips


def rep_measures(summary, primary):
    out = []
    for rep in (summary or {}).get("repetitions", []):
        values = [a for a in rep["angles"] if a["angle"] == primary and (not rep.get("side") or not a.get("side")
                                                                          or a["side"] == rep["side"])]
        if values:
            out.append((values[0]["max"] - values[0]["min"], rep["endSeconds"] - rep["startSeconds"]))
    return out


def in_prescribed_view(exercise, azimuth):
    view = definition(exercise)["view"]
    folded = min(azimuth % 360, 360 - azimuth % 360)
    return view == "any" or (60 <= folded <= 120 if view == "side" else (folded <= 30 or folded >= 150))


def quantiles(values):
    if len(values) < 2:
        return "–"
    q = statistics.quantiles(values, n=10)
    digits = 2 if max(abs(v) for v in values) < 3 else 0
    return f"{statistics.median(values):.{digits}f} [{q[0]:.{digits}f}–{q[-1]:.{digits}f}]"


def inside(values, reference):
    if len(reference) < 2 or not values:
        return "–"
    q = statistics.quantiles(reference, n=10)
    return f"{sum(1 for v in values if q[0] <= v <= q[-1]) / len(values):.2f}"


def compare_real(args, generated):
    real = real_clips(args)
    def measure(item):
        source, exercise, path = item
        primary = definition(exercise)["primary"]
        return source, exercise, rep_measures(analyze(args.bin, path, exercise), primary)
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        real_rows = list(pool.map(measure, real))
        gen_rows = list(pool.map(measure, [("generated", header(p)["labels"]["exercise"], p) for p in generated]))
    by = collections.defaultdict(lambda: collections.defaultdict(list))
    for source, exercise, reps in real_rows:
        by[exercise][source].extend(reps)
    gen = collections.defaultdict(list)
    for (_, exercise, reps), path in zip(gen_rows, generated):
        if in_prescribed_view(exercise, header(path)["labels"]["camera"]["azimuth"]):
            gen[exercise].extend(reps)
    print("\n### The generator against the real clips (primary angle's range per repetition, and the repetition's "
          "duration, as `ptcoach analyze --exercise` measures them; median [10th–90th percentile]; generated clips "
          "seen in the exercise's prescribed view only, as the real clips mostly are: side = azimuth 60–120°, "
          "front = 0–30° or 150–180° folded)\n")
    print("| exercise | real source | real reps | real range ° | generated reps | generated range ° | generated "
          "within real 10–90 % | real seconds | generated seconds | within |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for exercise in sorted(by):
        for source, reps in sorted(by[exercise].items()):
            r_range, r_time = [a for a, _ in reps], [b for _, b in reps]
            g_range, g_time = [a for a, _ in gen[exercise]], [b for _, b in gen[exercise]]
            print(f"| {exercise} | {source} | {len(reps)} | {quantiles(r_range)} | {len(g_range)} | "
                  f"{quantiles(g_range)} | {inside(g_range, r_range)} | {quantiles(r_time)} | {quantiles(g_time)} | "
                  f"{inside(g_time, r_time)} |")


def main():
    args = parse()
    if not os.path.exists(args.bin):
        sys.exit(f"evaluate-generated.py: no ptcoach at {args.bin}; build it (swift build --product ptcoach) or "
                 f"pass --bin")
    paths = generated_set(args)
    threshold = code_threshold() or 0.71
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda p: outcome(args.bin, p, threshold), paths))
    print(f"\n{len(results)} generated clips; `{args.bin}`; recognition confidence threshold {threshold} (the "
          "code's). Held out: nothing in the coach was fitted on generated motion.")
    table(results, lambda r: r["exercise"], "Per exercise")
    table(results, lambda r: azimuth_bin(r["camera"]["azimuth"]), "Per camera azimuth (folded: 0 = in front)")
    table(results, lambda r: elevation_bin(r["camera"]["elevation"]), "Per camera elevation (degrees, + = above)")
    table(results, lambda r: "all", "All")
    faults = collections.Counter()
    caught = collections.Counter()
    for r in results:
        if r["fault"] != "none" and r["verdict"] in ("good", "bad"):
            faults[(r["exercise"], r["fault"])] += 1
            caught[(r["exercise"], r["fault"])] += r["fault"] in r["flagged"]
    print("\n### Faults made on purpose: the rule named in the coach's issues (judged clips)\n")
    print(", ".join(f"{e} {f} {caught[(e, f)]}/{n}" for (e, f), n in sorted(faults.items())) or "none")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    if args.compare_real:
        compare_real(args, paths)


if __name__ == "__main__":
    main()
