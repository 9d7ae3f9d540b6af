#!/usr/bin/env python3
"""What a patient hears, measured on the development data without letting a figure see its own data.

One table: the built-in form verdicts, the trained form models, the built-in recogniser and the counts
(no exercise given, and given), on ../shared/data. Every row says how it was held out:

- Built-in form verdicts (`analyze --exercise`; nothing is trained): a clip is called bad when any of its
  repetitions "needs work", good when at least one was judged good and none needs work, and "unjudged"
  when no repetition was counted or none could be checked (always wrong). Weighted F1 over good/bad as
  scikit-learn computes it. The rules' thresholds come from the clinical sources; where one was read off
  these clips the row says so.
- Trained form models (`ptcoach evaluate-classifier`): leave-one-source-recording-out. The clips of these
  sets are cut from a few long recordings (one camera set-up, one person, mostly one label), so folds by
  clip let a model recognise the recording instead of the form (push-ups: 0.988 by clip, 0.64 on other
  clips). The recordings are not labelled: clips are grouped here by camera set-up, that is where the
  body is in the picture (the median position of the ankles for push-ups, of the neck for Pose Trainer),
  which way the person faces and how big they are; the groups are printed.
- Recogniser: the labelled real videos (their pose-tracks, found once with `ptcoach poses` and cached)
  and the clips of the form sets, whole and cut to their first 1.5, 2, 3 and 4 s; "named" means the
  summary's exercise is the labelled one. Nothing in the recogniser is trained.
- Counts with no exercise given: the real videos against their labels and the careful hand counts
  (scripts/hand-counts.csv, per `use` column: tune = clips the counting was tuned on); UI-PRMD per
  subject (s04 and s05 were never used to tune).
- Counts with the exercise given: UI-PRMD, within ±1 of 10, per movement and per subject.

    scripts/evaluate-feedback.py [--data ../shared/data] [--bin .build/release/ptcoach] [--cache DIR] [--jobs 2]
"""

import argparse
import collections
import concurrent.futures
import csv
import json
import os
import statistics
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def parse():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--data", default=os.path.join(REPO, "..", "shared", "data"))
    p.add_argument("--bin", default=os.path.join(REPO, ".build", "release", "ptcoach"))
    p.add_argument("--cache", default=os.path.join(tempfile.gettempdir(), "ptcoach-poses-cache"),
                   help="folder for the real videos' pose-tracks (found once)")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--only", default="form,trained,recognition,counts",
                   help="comma-separated sections")
    p.add_argument("--verbose", action="store_true", help="print each clip's outcome")
    return p.parse_args()


ARGS = None


def run(args, check=True):
    done = subprocess.run([ARGS.bin] + args, capture_output=True, text=True)
    if check and done.returncode != 0:
        raise RuntimeError(f"ptcoach {' '.join(args)}: {done.stderr.strip()}")
    return done


def analyze(path, exercise=None):
    options = [path, "--json"] + (["--exercise", exercise] if exercise else [])
    done = run(["analyze"] + options, check=False)
    if done.returncode != 0:
        return None
    return json.loads(done.stdout)


def parallel(function, items):
    with concurrent.futures.ThreadPoolExecutor(ARGS.jobs) as pool:
        return list(pool.map(function, items))


def read_manifest(name):
    path = os.path.join(ARGS.data, "manifests", name)
    folder = os.path.dirname(path)
    with open(path) as f:
        return [(os.path.normpath(os.path.join(folder, r["path"])), r[list(r.keys())[1]]) for r in csv.DictReader(f)]


def header(path):
    with open(path) as f:
        return json.loads(f.readline())


def weighted_f1(truth, predicted, classes):
    total = 0.0
    for c in classes:
        tp = sum(1 for t, p in zip(truth, predicted) if t == c and p == c)
        fp = sum(1 for t, p in zip(truth, predicted) if t != c and p == c)
        fn = sum(1 for t, p in zip(truth, predicted) if t == c and p != c)
        precision = tp / (tp + fp) if tp + fp else 0.0
        recall = tp / (tp + fn) if tp + fn else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        total += f1 * sum(1 for t in truth if t == c)
    return total / len(truth)


ROWS = []


def row(section, what, figure, held_out, note=""):
    ROWS.append((section, what, figure, held_out, note))
    print(f"  {what}: {figure}  [{held_out}]{'  ' + note if note else ''}", flush=True)


# ---------------------------------------------------------------------------------------------------------
# Form

FORM_SETS = [
    ("bicep curl", "form-pose-trainer-bicep-curl-train.csv", "bicep-curl"),
    ("front raise", "form-pose-trainer-front-raise-train.csv", "front-raise"),
    ("shoulder press", "form-pose-trainer-shoulder-press-train.csv", "shoulder-press"),
    ("shoulder shrug", "form-pose-trainer-shoulder-shrug-train.csv", "shoulder-shrug"),
    ("push-up", "form-pushup-train.csv", "push-up"),
]
GOOD = {"good": "good", "correct": "good", "bad": "bad", "incorrect": "bad"}
TUNED_ON = {"bicep curl": "the elbow-still bound (18°) was read off these 9 clips"}


def clip_verdict(summary):
    if summary is None or not summary["repetitions"]:
        return "unjudged", []
    verdicts = [r["verdict"] for r in summary["repetitions"]]
    rules = sorted({i["rule"] for r in summary["repetitions"] for i in r.get("issues", [])})
    if "needs-work" in verdicts:
        return "bad", rules
    if "good" in verdicts:
        return "good", rules
    return "unjudged", rules


def section_form():
    print("Built-in form verdicts (analyze --exercise; clip bad if any repetition needs work)")
    for name, manifest, exercise in FORM_SETS:
        entries = read_manifest(manifest)
        summaries = parallel(lambda e: analyze(e[0], exercise), entries)
        truth, predicted = [], []
        fired = collections.Counter()
        reps = collections.Counter()
        for (path, label), summary in zip(entries, summaries):
            verdict, rules = clip_verdict(summary)
            truth.append(GOOD[label])
            predicted.append(verdict)
            for r in (summary or {}).get("repetitions", []):
                reps[(GOOD[label], r["verdict"])] += 1
            for rule in rules:
                fired[(GOOD[label], rule)] += 1
            if ARGS.verbose:
                print(f"    {os.path.basename(path)} {GOOD[label]} -> {verdict} {rules}")
        f1 = weighted_f1(truth, predicted, ["good", "bad"])
        wrong = collections.Counter((t, p) for t, p in zip(truth, predicted) if t != p)
        detail = ", ".join(f"{t}→{p} {n}" for (t, p), n in sorted(wrong.items())) or "all right"
        rules = "; ".join(f"{rule} on {n} {t}" for (t, rule), n in sorted(fired.items()))
        row("form, built-in", f"{name} ({len(entries)} clips)", f"weighted F1 {f1:.2f} ({detail})",
            TUNED_ON.get(name, "bounds from clinical sources, chosen with these clips in view"),
            f"rules fired: {rules or 'none'}")
        held_out_bounds(name, exercise, entries, summaries, truth)


def rule_breached(rule, bound, rep):
    """Whether a repetition breaks `rule` with its bound replaced by `bound`, from the angles the JSON gives
    (the repetition's side; for a minimum, the side that went further)."""
    values = []
    for a in rep["angles"]:
        if a["angle"] != rule["angle"] or (rep.get("side") and a.get("side") and a["side"] != rep["side"]):
            continue
        if rule["at"] == "peak":
            value = a.get("atPeak")
        elif rule["at"] == "range":
            value = a["max"] - a["min"]
        else:
            value = a["max"] if "max" in rule else a["min"]
        if value is not None:
            values.append(value)
    if not values:
        return False
    if "max" in rule:
        return max(values) > bound
    return max(values) < bound


def recomputed_verdict(summary, rules, bounds):
    if summary is None or not summary["repetitions"]:
        return "unjudged"
    judged = [r for r in summary["repetitions"] if r["verdict"] != "not-checked"]
    if not judged:
        return "unjudged"
    for rep in judged:
        unchecked = {u.get("rule") if isinstance(u, dict) else u for u in rep.get("uncheckedRules", [])}
        for rule, bound in zip(rules, bounds):
            if bound is not None and rule["id"] not in unchecked and rule_breached(rule, bound, rep):
                return "bad"
    return "good"


def held_out_bounds(name, exercise, entries, summaries, truth):
    """The same verdicts with each rule's bound chosen on the other recordings (from a grid around the
    library's bound, or the rule left out) and scored on the held-out recording's clips."""
    with open(os.path.join(REPO, "Sources", "CoachKit", "Resources", "Exercises", f"{exercise}.json")) as f:
        rules = [r for r in json.load(f).get("formRules", []) if "max" in r or "min" in r]
    library = [r.get("max", r.get("min")) for r in rules]
    agree = sum(1 for s, (p, _) in zip(summaries, entries)
                if recomputed_verdict(s, rules, library) == clip_verdict(s)[0])
    grids = [[None] + [b * k for k in (0.6, 0.8, 1.0, 1.25, 1.6)] for b in library]
    groups = recording_groups([p for p, _ in entries])
    import itertools
    combos = list(itertools.product(*grids))
    verdicts = {c: [recomputed_verdict(s, rules, c) for s in summaries] for c in combos}
    predicted = [None] * len(entries)
    chosen = collections.Counter()
    for g in set(groups):
        train = [i for i, gg in enumerate(groups) if gg != g]
        best = max(combos, key=lambda c: (sum(verdicts[c][i] == truth[i] for i in train), c == tuple(library)))
        chosen[tuple("off" if b is None else f"{b:g}" for b in best)] += 1
        for i, gg in enumerate(groups):
            if gg == g:
                predicted[i] = verdicts[best][i]
    f1 = weighted_f1(truth, predicted, ["good", "bad"])
    picks = "; ".join(f"{'/'.join(c)} ×{n}" for c, n in chosen.most_common(3))
    row("form, built-in", f"{name}, bounds fitted on the other recordings",
        f"weighted F1 {f1:.2f} ({len(set(groups))} recordings; rules {'/'.join(r['id'] for r in rules)}: {picks})",
        "leave one source recording out",
        f"recomputed verdicts agree with the coach's on {agree}/{len(entries)} clips")


def recording_groups(paths):
    """Clips of one camera set-up: where the body is in the picture, which way it faces, how big it is."""
    keys = []
    for path in paths:
        with open(path) as f:
            h = json.loads(f.readline())
            frames = [json.loads(line) for line in f if line.strip()]
        names = h["keypoints"]

        def median(name, axis):
            if name not in names:
                return None
            i = names.index(name)
            values = [fr["poses"][0][3 * i + axis] for fr in frames
                      if fr["poses"] and fr["poses"][0][3 * i + 2] > 0.1]
            return statistics.median(values) if values else None

        anchor = "leftAnkle" if median("leftAnkle", 0) is not None and "kaiakol" in path else "neck"
        if anchor == "neck" and median("neck", 0) is None:
            anchor = "leftShoulder"
        x, y = median(anchor, 0), median(anchor, 1)
        nose = median("nose", 0)
        facing = 0 if nose is None else (1 if nose > (x or 0) + 10 else -1 if nose < (x or 0) - 10 else 0)
        keys.append((x or 0, y or 0, facing, h.get("width", 640), h.get("fps", 30)))
    # Single-linkage: two clips share a recording when their anchors lie within 3 % of the frame width,
    # they face the same way and have the same frame rate.
    parent = list(range(len(keys)))

    def find(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, a in enumerate(keys):
        for j in range(i):
            b = keys[j]
            near = abs(a[0] - b[0]) <= 0.03 * a[3] and abs(a[1] - b[1]) <= 0.03 * a[3]
            if near and a[2] == b[2] and a[4] == b[4]:
                parent[find(i)] = find(j)
    roots = {}
    return [f"r{roots.setdefault(find(i), len(roots) + 1)}" for i in range(len(keys))]


def grouped_copy(entries, folder):
    """Copies of the clips with a `recording` header label, and a manifest naming them."""
    groups = recording_groups([p for p, _ in entries])
    lines = ["path,label"]
    for (path, label), group in zip(entries, groups):
        with open(path) as f:
            h = json.loads(f.readline())
            rest = f.read()
        h.setdefault("labels", {})["recording"] = group
        target = os.path.join(folder, os.path.basename(path))
        with open(target, "w") as f:
            f.write(json.dumps(h) + "\n" + rest)
        lines.append(f"{os.path.basename(path)},{label}")
    manifest = os.path.join(folder, "manifest.csv")
    with open(manifest, "w") as f:
        f.write("\n".join(lines) + "\n")
    return manifest, groups


def classifier_f1(output):
    for line in output.splitlines():
        if "weighted F1" in line:
            for part in line.replace(",", " ").split():
                try:
                    value = float(part)
                    if 0 <= value <= 1:
                        return value, line.strip()
                except ValueError:
                    pass
    return None, output.strip().splitlines()[-1] if output.strip() else ""


def section_trained():
    print("Trained form models (ptcoach evaluate-classifier, leave one source recording out)")
    for name, manifest, _ in FORM_SETS:
        entries = read_manifest(manifest)
        with tempfile.TemporaryDirectory() as folder:
            grouped, groups = grouped_copy(entries, folder)
            by_group = collections.defaultdict(list)
            for (path, label), g in zip(entries, groups):
                by_group[g].append(f"{os.path.basename(path).removesuffix('.jsonl')}")
            mixed = sum(1 for g in by_group if len({GOOD[l] for (p, l), gg in zip(entries, groups) if gg == g}) > 1)
            done = run(["evaluate-classifier", "--manifest", grouped, "--group-by", "recording"], check=False)
            f1, line = classifier_f1(done.stdout)
            byclip = run(["evaluate-classifier", "--manifest", os.path.join(ARGS.data, "manifests", manifest),
                          "--folds", "5", "--repeats", "3", "--quiet"], check=False)
            clip_f1, _ = classifier_f1(byclip.stdout)
        figure = f"weighted F1 {f1:.2f}" if f1 is not None else f"failed: {done.stderr.strip()[:200]}"
        row("form, trained", f"{name} ({len(entries)} clips, {len(by_group)} recordings, {mixed} with both labels)",
            figure + (f" (by clip, stratified 5-fold: {clip_f1:.2f})" if clip_f1 is not None else ""),
            "leave one source recording out")
        if ARGS.verbose:
            for g, members in sorted(by_group.items()):
                print(f"    {g}: {' '.join(members)}")


# ---------------------------------------------------------------------------------------------------------
# Recognition and counts on the real videos

def video_tracks():
    labels = os.path.join(ARGS.data, "videos", "labels.csv")
    os.makedirs(ARGS.cache, exist_ok=True)
    rows = []
    with open(labels) as f:
        for r in csv.DictReader(f):
            rows.append(r)

    def track(r):
        target = os.path.join(ARGS.cache, r["file"].replace("/", "__").rsplit(".", 1)[0] + ".jsonl")
        if not os.path.exists(target) or os.path.getsize(target) == 0:
            run(["poses", os.path.join(ARGS.data, r["file"]), "-o", target, "--quiet", "--overwrite"], check=False)
        return target if os.path.exists(target) else None

    tracks = parallel(track, rows)
    return [(r, t) for r, t in zip(rows, tracks) if t]


def cut(path, seconds, folder):
    target = os.path.join(folder, f"{os.path.basename(path).removesuffix('.jsonl')}-{seconds}s.jsonl")
    with open(path) as f, open(target, "w") as out:
        out.write(f.readline())
        for line in f:
            if line.strip() and json.loads(line)["t"] > seconds:
                break
            out.write(line)
    return target


def section_recognition(videos):
    print("Built-in recogniser (analyze with no exercise; nothing trained)")
    clips = [(r["exercise"], t, "real video") for r, t in videos]
    for _, manifest, exercise in FORM_SETS:
        clips += [(exercise, p, "form clip") for p, _ in read_manifest(manifest)]
    with tempfile.TemporaryDirectory() as folder:
        for seconds in [1.5, 2, 3, 4, None]:
            inputs = [(e, cut(p, seconds, folder) if seconds else p, kind) for e, p, kind in clips]
            named = parallel(lambda c: (analyze(c[1]) or {}).get("exercise") or "none", inputs)
            per = collections.defaultdict(lambda: [0, 0])
            confusions = collections.Counter()
            for (exercise, _, _), n in zip(inputs, named):
                per[exercise][1] += 1
                per[exercise][0] += n == exercise
                if n != exercise:
                    confusions[(exercise, n)] += 1
            right = sum(v[0] for v in per.values())
            detail = ", ".join(f"{e} {v[0]}/{v[1]}" for e, v in sorted(per.items()))
            wrong = "; ".join(f"{e}→{n} {k}" for (e, n), k in confusions.most_common(6))
            label = f"first {seconds} s" if seconds else "whole clip"
            row("recognition", f"{label}, {len(inputs)} clips", f"{right}/{len(inputs)} = {right / len(inputs):.2f} ({detail})",
                "no training; recogniser thresholds partly read off the real videos", f"most confused: {wrong}")


def hand_counts():
    counts = {}
    with open(os.path.join(REPO, "scripts", "hand-counts.csv")) as f:
        for r in csv.reader(f):
            if r and r[0] != "file" and len(r) >= 4:
                counts[r[0]] = (int(r[2]), r[3])
    return counts


def section_counts(videos):
    print("Counts")
    hands = hand_counts()
    for given in [False, True]:
        summaries = parallel(lambda v: analyze(v[1], v[0]["exercise"] if given else None), videos)
        within = sum(1 for (r, _), s in zip(videos, summaries) if s and abs(s["reps"] - int(r["reps_labelled"])) <= 1)
        by_use = collections.defaultdict(lambda: [0, 0])
        for (r, _), s in zip(videos, summaries):
            if r["file"] in hands:
                truth, use = hands[r["file"]]
                by_use[use][1] += 1
                by_use[use][0] += bool(s) and abs(s["reps"] - truth) <= 1
        mode = "exercise given" if given else "no exercise given"
        row("counts, real video", f"{mode}, {len(videos)} videos against labels (±1; labels noisy)",
            f"{within}/{len(videos)} = {within / len(videos):.3f}", "counting tuned partly on these videos")
        detail = ", ".join(f"{u} {v[0]}/{v[1]}" for u, v in sorted(by_use.items()))
        row("counts, real video", f"{mode}, careful hand counts (±1)", detail,
            "holdout/holdout2 clips were not used to tune")
    entries = read_manifest("reps-uiprmd-dev.csv")
    for given in [True, False]:
        def one(e):
            h = header(e[0])["labels"]
            s = analyze(e[0], h["exercise"] if given else None)
            return h, (s or {}).get("reps", 0), int(e[1])

        results = parallel(one, entries)
        per_movement = collections.defaultdict(lambda: [0, 0])
        per_subject = collections.defaultdict(lambda: [0, 0])
        for h, got, truth in results:
            ok = abs(got - truth) <= 1
            per_movement[h["exercise"]][0] += ok
            per_movement[h["exercise"]][1] += 1
            per_subject[h["subject"]][0] += ok
            per_subject[h["subject"]][1] += 1
        total = sum(v[0] for v in per_movement.values())
        mode = "exercise given" if given else "no exercise given"
        row("counts, UI-PRMD", f"{mode}, {len(results)} recordings (±1)",
            f"{total}/{len(results)} = {total / len(results):.3f}; "
            + ", ".join(f"{m} {v[0]}/{v[1]}" for m, v in sorted(per_movement.items())),
            "per subject: " + ", ".join(f"{s} {v[0]}/{v[1]}" for s, v in sorted(per_subject.items()))
            + " (s04, s05 never used to tune)")


def main():
    global ARGS
    ARGS = parse()
    if not os.access(ARGS.bin, os.X_OK):
        sys.exit(f"error: no ptcoach binary at {ARGS.bin}; build it with `swift build -c release --product ptcoach`")
    sections = set(ARGS.only.split(","))
    if "form" in sections:
        section_form()
    if "trained" in sections:
        section_trained()
    videos = video_tracks() if sections & {"recognition", "counts"} else []
    if "recognition" in sections:
        section_recognition(videos)
    if "counts" in sections:
        section_counts(videos)
    print("\n| section | what | figure | held out |\n|---|---|---|---|")
    for section, what, figure, held_out, _ in ROWS:
        print(f"| {section} | {what} | {figure} | {held_out} |")


if __name__ == "__main__":
    main()
