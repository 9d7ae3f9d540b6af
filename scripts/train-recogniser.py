#!/usr/bin/env python3
"""A learned exercise recogniser trained on generated motion only, measured against the rule recogniser on every
real clip the recognition section of evaluate-feedback.py uses (issue 28, item 3).

Training sees only clips of scripts/generate_motion.py (`--train`, a folder with its manifest.csv), so every real
clip is held out. The learned model is `ptcoach train --method logistic --exercise none` on the exercise label.
Its confidence threshold is fitted two ways: on a second generated set (`--calibrate`, another seed; no real clip)
and leave-one-source-out on the real sources (as evaluate-feedback.py fits the rule recogniser's). The rule
recogniser's figures are `ptcoach analyze` with no exercise given, exactly as evaluate-feedback.py computes them.

    # the table of docs/recogniser.md: one folder per exercise (run in parallel), then one manifest.csv over them
    for e in EXERCISES; do scripts/generate_motion.py --out /tmp/s28l/train/$e --exercises $e --count 15 --seed 11; done
    (echo path,label,form,fault,reps; for e in EXERCISES; do tail -n +2 /tmp/s28l/train/$e/manifest.csv |
        sed "s|^|$e/|"; done) > /tmp/s28l/train/manifest.csv
    scripts/generate_motion.py --out /tmp/s28l/test --exercises all --count 6 --seed 77
    scripts/train-recogniser.py --train /tmp/s28l/train --calibrate /tmp/s28l/test [--bin .build/debug/ptcoach]
        [--learner-bin .build/release/ptcoach]
"""

import argparse
import collections
import importlib.util
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from feedback_calibration import TARGET_PRECISION, confident, fit_threshold, named_with_confidence  # noqa: E402


def load_evaluator():
    spec = importlib.util.spec_from_file_location("evaluate_feedback", os.path.join(HERE, "evaluate-feedback.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def parse():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--train", required=True, help="generated clips folder (with manifest.csv) to train on")
    p.add_argument("--calibrate", required=True, help="another generated folder: the threshold fitted on it")
    p.add_argument("--model", default="/tmp/s28l/recogniser.json")
    p.add_argument("--bin", default=os.path.join(os.path.dirname(HERE), ".build", "debug", "ptcoach"))
    p.add_argument("--learner-bin", help="ptcoach for train/predict (e.g. a release build: much faster); default --bin")
    p.add_argument("--data", default=os.path.join(os.path.dirname(HERE), "..", "shared", "data"))
    p.add_argument("--tracks", default="/tmp/pt,/tmp/pt-s28")
    p.add_argument("--rules-cache", default="/tmp/s28l/rules.json", help="the rule recogniser's outcomes per clip")
    p.add_argument("--jobs", type=int, default=2)
    return p.parse_args()


def exercise_manifest(folder):
    """The generator's manifest with the exercise as the label, paths absolute."""
    target = os.path.join(folder, "exercise-manifest.csv")
    with open(os.path.join(folder, "manifest.csv")) as f, open(target, "w") as out:
        out.write("path,label\n")
        for line in f.readlines()[1:]:
            path, label = line.strip().split(",")[:2]
            out.write(f"{os.path.join(folder, path)},{label}\n")
    return target


def predict(args, paths):
    """label, confidence per path (in order), by the learned model."""
    outcomes = {}
    for start in range(0, len(paths), 200):
        command = [args.learner_bin or args.bin, "predict", "--model", args.model, "--json"]
        done = subprocess.run(command + paths[start:start + 200], capture_output=True, text=True, check=True)
        for line in done.stdout.splitlines():
            if line.startswith("{") and "\"file\"" in line:
                r = json.loads(line)
                outcomes[r["file"]] = (r.get("label"), r.get("confidence", 0.0))  # no label: unreadable
    return [outcomes.get(p, outcomes.get(os.path.basename(p), (None, 0.0))) for p in paths]


def loso(results, sources):
    """Pooled (right, confident, clips) with each source's threshold fitted on the other sources."""
    pooled = [0, 0, 0]
    per = {}
    for source in sources:
        threshold = fit_threshold([r for s in sources if s != source for r in results[s]])
        right, sure, n = confident(results[source], threshold)
        per[source] = (threshold, right, sure, n)
        pooled = [pooled[0] + right, pooled[1] + sure, pooled[2] + n]
    return per, pooled


def figure(right, sure, n):
    return f"P {right / sure:.3f} ({right}/{sure}) cov {sure / n:.3f}" if sure else f"P - (0/0) cov 0/{n}"


def main():
    args = parse()
    ev = load_evaluator()
    ev.ARGS = argparse.Namespace(data=args.data, bin=args.bin, tracks=args.tracks, jobs=args.jobs,
                                 cache="/tmp/ptcoach-poses-cache", cuts="", verbose=False)
    clips = ev.recognition_clips(ev.video_tracks())
    sources = sorted({s for _, _, s in clips})

    if not os.path.exists(args.model):
        manifest = exercise_manifest(args.train)
        subprocess.run([args.learner_bin or args.bin, "train", "--manifest", manifest, "--out", args.model,
                        "--method", "logistic", "--exercise", "none", "--folds", "0"], check=True)
    size = os.path.getsize(args.model)

    rules = {}
    if os.path.exists(args.rules_cache):
        with open(args.rules_cache) as f:
            rules = json.load(f)
    missing = [p for _, p, _ in clips if p not in rules]
    for path, outcome in zip(missing, ev.parallel(lambda p: named_with_confidence(ev.analyze(p)), missing)):
        rules[path] = list(outcome)
    with open(args.rules_cache, "w") as f:
        json.dump(rules, f)

    learned = dict(zip([p for _, p, _ in clips], predict(args, [p for _, p, _ in clips])))
    calib_manifest = exercise_manifest(args.calibrate)
    with open(calib_manifest) as f:
        calib = [line.strip().split(",") for line in f.readlines()[1:]]
    calib_results = [(label, named, c) for (_, label), (named, c) in
                     zip(calib, predict(args, [p for p, _ in calib]))]
    generated_threshold = fit_threshold(calib_results)
    right, sure, n = confident(calib_results, 0)

    by = {"rules": {s: [] for s in sources}, "learned": {s: [] for s in sources}}
    for exercise, path, source in clips:
        by["rules"][source].append((exercise, *rules[path]))
        by["learned"][source].append((exercise, *learned[path]))

    print(f"learned model: {args.model}, {size / 1024:.0f} KiB; trained on generated clips only")
    print(f"generated calibration set ({n} clips, another seed): named right {right}/{n} = {right / n:.3f}; "
          f"threshold fitted there for precision >= {TARGET_PRECISION}: {generated_threshold:.2f}")
    print("| source (clips) | rule: named right | learned: named right | rule, LOSO threshold | "
          "learned, generated threshold | learned, LOSO threshold |")
    print("|---|---|---|---|---|---|")
    rule_loso, rule_pool = loso(by["rules"], sources)
    learned_loso, learned_pool = loso(by["learned"], sources)
    totals = collections.defaultdict(lambda: [0, 0, 0])
    for source in sources:
        cells = [f"{source} ({len(by['rules'][source])})"]
        for kind in ["rules", "learned"]:
            r, _, k = confident(by[kind][source], 0)
            cells.append(f"{r}/{k} = {r / k:.2f}")
            totals[kind] = [totals[kind][0] + r, 0, totals[kind][2] + k]
        t, r, s, k = rule_loso[source]
        cells.append(f"t {t:.2f}: {figure(r, s, k)}")
        r, s, k = confident(by["learned"][source], generated_threshold)
        totals["gen"] = [totals["gen"][0] + r, totals["gen"][1] + s, totals["gen"][2] + k]
        cells.append(f"t {generated_threshold:.2f}: {figure(r, s, k)}")
        t, r, s, k = learned_loso[source]
        cells.append(f"t {t:.2f}: {figure(r, s, k)}")
        print("| " + " | ".join(cells) + " |")
    cells = [f"pooled ({totals['rules'][2]})"]
    for kind in ["rules", "learned"]:
        cells.append(f"{totals[kind][0]}/{totals[kind][2]} = {totals[kind][0] / totals[kind][2]:.3f}")
    cells += [figure(*rule_pool), figure(*totals["gen"]), figure(*learned_pool)]
    print("| " + " | ".join(cells) + " |")
    mixed = [(e, r[1] or l[1]) for s in sources for e, r, l in
             zip([x[0] for x in by["rules"][s]], by["rules"][s], by["learned"][s])]
    right = sum(1 for e, n in mixed if e == n)
    print(f"mix, the rule's name or the learned one's where the rules name none: named right {right}/{len(mixed)} "
          f"= {right / len(mixed):.3f}")
    confusions = collections.Counter((e, n) for s in sources for e, n, _ in by["learned"][s] if n != e)
    print("learned, most confused: " + "; ".join(f"{e}→{n} {k}" for (e, n), k in confusions.most_common(8)))


if __name__ == "__main__":
    main()
