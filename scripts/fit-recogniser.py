#!/usr/bin/env python3
"""Fits the rule recogniser's factors (`ExerciseRecognizer.Scoring.Configuration`) on generated motion only, then
measures them on every real clip (issue 28 items 2–3; docs/recogniser.md, "Factors fitted on generated motion").

1. Generated sets (scripts/generate_motion.py, every library exercise with a template, every keypoint layout drawn
   per clip): a fitting set (`--seed`, `--count` clips per exercise) and a check set (`--check-seed`).
2. Coordinate descent from the built-in factors: for each factor of FACTORS in turn, each step of STEPS times its
   current value is tried (`ptcoach analyze --recogniser-factors`, no exercise given, on every fitting clip); the
   best is kept when it raises the objective by at least one clip's worth. Objective: the share named right plus
   the coverage at a confidence threshold giving precision >= 0.95, that threshold fitted on the same clips.
   `--passes` rounds over FACTORS.
3. The fitted factors are written to `--out` (a JSON object of names and numbers) and measured, against the
   built-in ones, on the check set and on the real clips of evaluate-feedback.py's recognition section (313:
   calimiro, kaiakol, KIMORE, Pose Trainer, UI-PRMD). No real clip is used to fit a factor, so every real figure is
   held out from the fit; the confidence threshold on real clips is fitted leave-one-source-out as there.

    scripts/fit-recogniser.py [--bin .build/debug/ptcoach] [--work /tmp/fit-recogniser] [--count 5] [--seed 41]
        [--check-seed 42] [--passes 1] [--jobs 2] [--out /tmp/fit-recogniser/factors.json] [--no-real]
        [--factors a,b] [--steps 0.5,2] [--exercises-directory DIR (a library with candidates added)]
    scripts/fit-recogniser.py --measure FACTORS.json     # only step 3, for factors fitted before

Evaluations are cached in --work (by the factors' values), so a run that stops resumes where it was.
"""

import argparse
import collections
import concurrent.futures
import csv
import hashlib
import importlib.util
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from feedback_calibration import TARGET_PRECISION, confident, fit_threshold, named_with_confidence  # noqa: E402

# The factors searched (of the 57 in ExerciseRecognizer+ScoringConfiguration.swift): those every exercise's score
# or the confidence goes through (activity, direction, reach, posture, excursion, rules, background). Two steps
# each (0.6×, 1.6×): a run over 155 clips is about 70 s on this project's loaded 2-core machine, 30 min in all.
# Shares and floors stay within 0–1.
FACTORS = [
    "background", "othersShare", "othersTolerance", "directionFloor", "headingTolerance", "minimumSwing", "fullSwing",
    "wrongPosture", "anyPosture", "hiddenAxisWeight", "reachTolerance", "excursionWeight", "rulesWeight",
]
AT_MOST_ONE = {"otherKindRunnerUp", "holdPrior", "wrongPosture", "anyPosture", "othersShare", "directionFloor",
               "hiddenAxisWeight", "reachFloor", "excursionWeight", "rulesWeight"}
STEPS = [0.6, 1.6]


def parse():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--bin", default=os.path.join(REPO, ".build", "debug", "ptcoach"))
    p.add_argument("--work", default="/tmp/fit-recogniser")
    p.add_argument("--count", type=int, default=5, help="fitting clips per exercise")
    p.add_argument("--check-count", type=int, default=3, help="check clips per exercise")
    p.add_argument("--seed", type=int, default=41)
    p.add_argument("--check-seed", type=int, default=42)
    p.add_argument("--passes", type=int, default=1)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--out", help="the fitted factors (default WORK/factors.json)")
    p.add_argument("--measure", help="measure these factors (JSON) against the built-in ones; fit nothing")
    p.add_argument("--exercises-directory", help="a library directory for analyze (e.g. with candidates added)")
    p.add_argument("--factors", default=",".join(FACTORS), help="comma-separated factors to search, in order")
    p.add_argument("--steps", default=",".join(str(x) for x in STEPS), help="multipliers tried per factor")
    p.add_argument("--no-real", action="store_true", help="skip the real clips")
    p.add_argument("--data", default=os.path.join(REPO, "..", "shared", "data"))
    p.add_argument("--tracks", default="/tmp/pt,/tmp/pt-s28")
    return p.parse_args()


ARGS = None


def library_ids():
    folder = ARGS.exercises_directory or os.path.join(REPO, "Sources", "CoachKit", "Resources", "Exercises")
    return sorted(f[:-5] for f in os.listdir(folder) if f.endswith(".json"))


def generated_set(name, seed, count):
    """[(exercise, path, layout)] of a generated set in WORK/name, made once (every layout, drawn per clip)."""
    from motion.templates import TEMPLATES

    exercises = [e for e in sorted(TEMPLATES) if e in library_ids()]
    # The library's exercises name the set too: a run with another --exercises-directory makes its own.
    folder = os.path.join(ARGS.work, f"{name}-{hashlib.sha1(','.join(exercises).encode()).hexdigest()[:8]}")
    manifest = os.path.join(folder, "manifest.csv")
    if not os.path.exists(manifest):
        os.makedirs(folder, exist_ok=True)
        jobs = [(folder, seed, e, i) for e in exercises for i in range(count)]
        with concurrent.futures.ProcessPoolExecutor(ARGS.jobs) as pool:
            rows = list(pool.map(_generate, jobs))
        with open(manifest, "w", newline="") as f:
            writer = csv.writer(f)
            writer.writerow(["path", "label", "layout"])
            writer.writerows(rows)
    with open(manifest) as f:
        return [(r["label"], os.path.join(folder, r["path"]), r["layout"]) for r in csv.DictReader(f)]


def _generate(job):
    from generate_motion import generate_one

    folder, seed, exercise, index = job
    path, labels, _ = generate_one(exercise, index, seed, folder, layout="mixed")
    return os.path.basename(path), exercise, labels["layout"]


def factors_file(values):
    """The factors as a file in WORK/factors (named by their hash); None for the built-in ones."""
    if not values:
        return None
    text = json.dumps(values, sort_keys=True)
    folder = os.path.join(ARGS.work, "factors")
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, hashlib.sha1(text.encode()).hexdigest()[:16] + ".json")
    if not os.path.exists(path):
        with open(path, "w") as f:
            f.write(text)
    return path


CACHE = {}


def outcomes(clips, values):
    """[(exercise, named, confidence)] of `clips` analysed with the factors `values` (the others built in)."""
    path = factors_file(values)
    key = (path or "built-in") + "|" + hashlib.sha1("|".join(p for _, p, _ in clips).encode()).hexdigest()[:12]
    if key in CACHE:
        return CACHE[key]
    options = ["--recogniser-factors", path] if path else []
    if ARGS.exercises_directory:
        options += ["--exercises-directory", ARGS.exercises_directory]

    def one(clip):
        done = subprocess.run([ARGS.bin, "analyze", clip[1], "--json"] + options, capture_output=True, text=True)
        summary = json.loads(done.stdout) if done.returncode == 0 else None
        return named_with_confidence(summary)

    with concurrent.futures.ThreadPoolExecutor(ARGS.jobs) as pool:
        result = [(e, *o) for (e, _, _), o in zip(clips, pool.map(one, clips))]
    CACHE[key] = result
    with open(os.path.join(ARGS.work, "cache.json"), "w") as f:
        json.dump(CACHE, f)
    return result


def objective(results):
    """Named right share + coverage at precision >= 0.95 (threshold fitted on these results)."""
    right, _, n = confident(results, 0)
    threshold = fit_threshold(results)
    sure_right, sure, _ = confident(results, threshold)
    coverage = sure / n if sure and sure_right / sure >= TARGET_PRECISION else 0.0
    return right / n + coverage, right, threshold, sure_right, sure


def fit(clips, start):
    values = dict(start)
    best = objective(outcomes(clips, values))
    print(f"start: objective {best[0]:.3f}, named right {best[1]}/{len(clips)}, threshold {best[2]:.2f}: "
          f"{best[3]}/{best[4]} confident", flush=True)
    builtin = builtin_values()
    for round_ in range(ARGS.passes):
        for name in ARGS.factors.split(","):
            current = values.get(name, builtin[name])
            tried = []
            for step in [float(x) for x in ARGS.steps.split(",")]:
                value = round(current * step, 4)
                if name in AT_MOST_ONE:
                    value = min(value, 1.0)
                if value == current:
                    continue
                trial = dict(values, **{name: value})
                score = objective(outcomes(clips, trial))
                tried.append((score[0], value, score))
            if not tried:
                continue
            top, value, score = max(tried)
            moved = top >= best[0] + 1 / len(clips)
            print(f"pass {round_ + 1} {name} {current:g}: " + ", ".join(f"{v:g}→{s:.3f}" for s, v, _ in tried)
                  + (f"  KEEP {value:g} (named right {score[1]}, {score[3]}/{score[4]} at {score[2]:.2f})"
                     if moved else "  (kept)"), flush=True)
            if moved:
                values[name], best = value, score
    return values, best


def builtin_values():
    """The built-in factors, read from the Swift source."""
    path = os.path.join(REPO, "Sources", "CoachKit", "Recognition", "ExerciseRecognizer+ScoringConfiguration.swift")
    values = {}
    with open(path) as f:
        for line in f:
            parts = line.strip().split()
            if len(parts) == 5 and parts[:2] == ["public", "var"] and parts[3] == "=":
                values[parts[2]] = float(parts[4])
    return values


def describe(results):
    right, _, n = confident(results, 0)
    score = objective(results)
    return (f"named right {right}/{n} = {right / n:.3f}; threshold fitted on these clips {score[2]:.2f}: "
            f"precision {score[3] / max(1, score[4]):.3f} at coverage {score[4] / n:.3f}")


def per_layout(clips, results):
    by = collections.defaultdict(lambda: [0, 0])
    for (_, _, layout), (e, named, _) in zip(clips, results):
        by[layout][0] += e == named
        by[layout][1] += 1
    return ", ".join(f"{k} {r}/{n}" for k, (r, n) in sorted(by.items()))


def real_clips():
    spec = importlib.util.spec_from_file_location("evaluate_feedback", os.path.join(HERE, "evaluate-feedback.py"))
    ev = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ev)
    ev.ARGS = argparse.Namespace(data=ARGS.data, bin=ARGS.bin, tracks=ARGS.tracks, jobs=ARGS.jobs,
                                 cache="/tmp/ptcoach-poses-cache", cuts="", verbose=False)
    return [(e, p, s) for e, p, s in ev.recognition_clips(ev.video_tracks())]


def loso(results, sources):
    """Per source (threshold fitted on the other sources, right, confident, clips) and the pooled sums."""
    per, pooled = {}, [0, 0, 0]
    for source in sources:
        threshold = fit_threshold([r for s in sources if s != source for r in results[s]])
        right, sure, n = confident(results[source], threshold)
        per[source] = (threshold, right, sure, n)
        pooled = [pooled[0] + right, pooled[1] + sure, pooled[2] + n]
    return per, pooled


def measure_real(fitted):
    clips = real_clips()
    sources = sorted({s for _, _, s in clips})
    print(f"\nReal clips ({len(clips)}; no real clip was used to fit the factors: every figure is held out from the "
          "fit; the confidence threshold is fitted leave-one-source-out on the real sources)")
    print("| source (clips) | built-in: named right | fitted: named right | built-in, LOSO threshold | "
          "fitted, LOSO threshold |")
    print("|---|---|---|---|---|")
    tables = {}
    for kind, values in (("built-in", {}), ("fitted", fitted)):
        results = outcomes([(e, p, s) for e, p, s in clips], values)
        tables[kind] = {s: [r for (_, _, src), r in zip(clips, results) if src == s] for s in sources}
    loso_of = {k: loso(t, sources) for k, t in tables.items()}
    totals = {k: [0, 0] for k in tables}
    for source in sources:
        cells = [f"{source} ({len(tables['built-in'][source])})"]
        for kind in tables:
            right, _, n = confident(tables[kind][source], 0)
            totals[kind] = [totals[kind][0] + right, totals[kind][1] + n]
            cells.append(f"{right}/{n} = {right / n:.2f}")
        for kind in tables:
            t, right, sure, n = loso_of[kind][0][source]
            cells.append(f"t {t:.2f}: P {right / sure:.3f} ({right}/{sure}) cov {sure / n:.3f}" if sure
                         else f"t {t:.2f}: P - (0/0) cov 0")
        print("| " + " | ".join(cells) + " |")
    cells = [f"pooled ({totals['built-in'][1]})"]
    cells += [f"{r}/{n} = {r / n:.3f}" for r, n in totals.values()]
    for kind in tables:
        right, sure, n = loso_of[kind][1]
        cells.append(f"P {right / max(1, sure):.3f} ({right}/{sure}) cov {sure / n:.3f}")
    print("| " + " | ".join(cells) + " |")
    for kind in tables:
        everything = [r for s in sources for r in tables[kind][s]]
        confusions = collections.Counter((e, n or "none") for e, n, _ in everything if n != e)
        print(f"{kind}, most confused: " + "; ".join(f"{e}→{n} {k}" for (e, n), k in confusions.most_common(8)))


def main():
    global ARGS
    ARGS = parse()
    os.makedirs(ARGS.work, exist_ok=True)
    cache = os.path.join(ARGS.work, "cache.json")
    if os.path.exists(cache):
        with open(cache) as f:
            CACHE.update({k: [tuple(r) for r in v] for k, v in json.load(f).items()})
    unknown = set(ARGS.factors.split(",")) - set(builtin_values())
    if unknown:
        sys.exit(f"fit-recogniser.py: FACTORS names no factor of the Swift source: {', '.join(sorted(unknown))}")
    if ARGS.measure:
        with open(ARGS.measure) as f:
            fitted = json.load(f)
    else:
        fitting = generated_set(f"fit-{ARGS.seed}-{ARGS.count}", ARGS.seed, ARGS.count)
        layouts = collections.Counter(layout for _, _, layout in fitting)
        print(f"fitting set: {len(fitting)} generated clips ({dict(sorted(layouts.items()))})")
        fitted, _ = fit(fitting, {})
        out = ARGS.out or os.path.join(ARGS.work, "factors.json")
        with open(out, "w") as f:
            json.dump(fitted, f, indent=1, sort_keys=True)
        print(f"fitted factors ({len(fitted)} changed) in {out}: {json.dumps(fitted, sort_keys=True)}")
    check = generated_set(f"check-{ARGS.check_seed}-{ARGS.check_count}", ARGS.check_seed, ARGS.check_count)
    print(f"\nCheck set: {len(check)} generated clips of another seed (not fitted on)")
    for kind, values in (("built-in", {}), ("fitted", fitted)):
        results = outcomes(check, values)
        print(f"  {kind}: {describe(results)}; named right per layout: {per_layout(check, results)}")
    if not ARGS.no_real:
        measure_real(fitted)


if __name__ == "__main__":
    main()
