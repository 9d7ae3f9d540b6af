#!/usr/bin/env python3
"""How good is an exercise learned from one demonstration (`ptcoach learn`) against the library's own definition?

For every library exercise with labelled real recordings in ../shared/data, each recording in turn is the
demonstration: a definition is learned from it alone, and every recording of the OTHER people is counted with it
(`ptcoach analyze --exercises-directory DIR --exercise ID`) and with the hand-written definition
(`--exercise LIBRARY-ID`), side by side. Metrics against the labels: off-by-one accuracy (share of recordings with
|counted - labelled| <= 1), mean absolute count error, and the share of counted repetitions judged good (every
UI-PRMD repetition is a correct one, so a lower share there is a false alarm).

Held out:
  ui-prmd   demonstration: subject sN in the view the library names for the movement (side, or front);
            tested on the other four subjects, all three views (12 recordings), 10 repetitions each (exact).
  squat     calimiro squat clips (labels +-1) + kaiakol squat clips (1 repetition, counted by eye); persons are not
            labelled, so each clip is its own person; tested on every other clip.
  pull-up   calimiro pull-up clips, as squat.
  push-up   demonstration: a kaiakol push-up clip (a different source); tested on the calimiro push-up clips with at
            least one labelled repetition (they are cuts of one stock video: one person).

Usage: scripts/evaluate-learn.py [--ptcoach .build/debug/ptcoach] [--data ../shared/data] [--poses /tmp/pt]
`--poses` holds the calimiro videos' pose-tracks (`ptcoach poses VIDEO -o DIR/NAME.jsonl`); made there if absent.
"""

import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
import tempfile


def run(args, check=True):
    result = subprocess.run(args, capture_output=True, text=True)
    if check and result.returncode != 0:
        raise RuntimeError(f"{' '.join(args)}: {result.stderr.strip()}")
    return result


def count(ptcoach, track, exercise, directory=None):
    args = [ptcoach, "analyze", track, "--exercise", exercise, "--json"]
    if directory:
        args += ["--exercises-directory", directory]
    result = run(args, check=False)
    if result.returncode != 0:
        return 0, 0, 0  # nobody seen: nothing counted
    summary = json.loads(result.stdout)
    reps = summary["repetitions"]
    return summary["reps"], sum(1 for r in reps if r["verdict"] == "good"), len(reps)


def learn(ptcoach, track, name, directory, primary=None):
    out = os.path.join(directory, "learned.json")
    args = [ptcoach, "learn", track, "--name", name, "--id", "learned", "-o", out, "--overwrite"]
    result = run(args + (["--primary", primary] if primary else []), check=False)
    if result.returncode != 0:
        return None
    with open(out) as f:
        return json.load(f)


def metrics(rows):
    """rows: (counted, truth, good, counted reps)."""
    if not rows:
        return None
    errors = [abs(c - t) for c, t, _, _ in rows]
    counted = sum(n for _, _, _, n in rows)
    return {
        "obo": sum(e <= 1 for e in errors) / len(rows),
        "mae": statistics.mean(errors),
        "good": sum(g for _, _, g, _ in rows) / counted if counted else None,
        "n": len(rows),
    }


def pct(x):
    return "–" if x is None else f"{100 * x:.0f} %"


def evaluate(ptcoach, name, library_id, demos, tests, same_person, primary=None):
    """demos: [(label, track)], tests: [(track, truth, person)]; same_person(demo label, person) excludes a test."""
    hand = {track: count(ptcoach, track, library_id) for track, _, _ in tests}
    folds = []
    with tempfile.TemporaryDirectory() as directory:
        for label, track in demos:
            definition = learn(ptcoach, track, name, directory, primary)
            held = [(t, truth) for t, truth, person in tests if not same_person(label, person) and t != track]
            if definition is None:
                folds.append({"demo": label, "refused": True})
                continue
            learned = [count(ptcoach, t, "learned", directory) + (truth,) for t, truth in held]
            folds.append({
                "demo": label,
                "refused": False,
                "primary": definition["primary"],
                "band": (definition["target"]["min"], definition["target"]["max"]),
                "rules": [r["id"] for r in definition.get("formRules", [])],
                "learned": metrics([(c, truth, g, n) for c, g, n, truth in learned]),
                "hand": metrics([hand[t] [:1] + (truth,) + hand[t][1:] for t, truth in held]),
            })
    return folds


def row(exercise, library_primary, folds, headline):
    used = [f for f in folds if not f["refused"]]
    refused = len(folds) - len(used)
    if not used:
        return f"| {exercise} | {library_primary} | – | – | all {refused} demonstrations refused | | | | |"
    first = next((f for f in used if f["demo"] == headline), used[0])
    primaries = {}
    for f in used:
        primaries[f["primary"]] = primaries.get(f["primary"], 0) + 1
    share = ", ".join(f"{p} {n}" for p, n in sorted(primaries.items(), key=lambda x: -x[1]))
    lo = [f["learned"]["obo"] for f in used]
    ho = [f["hand"]["obo"] for f in used]
    lm = [f["learned"]["mae"] for f in used]
    hm = [f["hand"]["mae"] for f in used]
    lg = [f["learned"]["good"] for f in used if f["learned"]["good"] is not None]
    hg = [f["hand"]["good"] for f in used if f["hand"]["good"] is not None]
    return (
        f"| {exercise} | {library_primary} | {first['demo']}: {first['primary']} {first['band'][0]:g}–{first['band'][1]:g}°"
        f"{' (' + ', '.join(first['rules']) + ')' if first['rules'] else ''} "
        f"| {first['learned']['n']} | {pct(first['learned']['obo'])} / {first['learned']['mae']:.2f} "
        f"| {pct(first['hand']['obo'])} / {first['hand']['mae']:.2f} "
        f"| {len(used)} ({refused} refused): {pct(statistics.mean(lo))} ({pct(min(lo))}–{pct(max(lo))}) / "
        f"{statistics.mean(lm):.2f} | {pct(statistics.mean(ho))} / {statistics.mean(hm):.2f} "
        f"| {pct(statistics.mean(lg)) if lg else '–'} / {pct(statistics.mean(hg)) if hg else '–'} | {share} |"
    )


def header_labels(path):
    with open(path) as f:
        return json.loads(f.readline()).get("labels", {})


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ptcoach", default=".build/debug/ptcoach")
    parser.add_argument("--data", default="../shared/data")
    parser.add_argument("--poses", default="/tmp/pt")
    parser.add_argument("--only", help="comma-separated exercise ids")
    options = parser.parse_args()
    ptcoach, data = options.ptcoach, options.data
    if not os.path.exists(ptcoach):
        sys.exit(f"error: {ptcoach} not found; build it with `swift build` or pass --ptcoach")
    if not os.path.isdir(os.path.join(data, "pose-tracks")):
        sys.exit(f"error: no pose-tracks under {data}; pass --data (the shared data folder)")
    library = {e["id"]: e for e in json.loads(run([ptcoach, "exercises", "--json"]).stdout)}
    only = set(options.only.split(",")) if options.only else None
    lines = [
        "| exercise | library primary | learned from (headline demo): primary, band (rules) | test recordings "
        "| learned: off-by-one / MAE | hand-written: off-by-one / MAE "
        "| every demo: learned off-by-one mean (min–max) / MAE | hand-written, same folds | good reps: learned / hand "
        "| primary learned, over all demos |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]

    # UI-PRMD: subjects and views from the header labels.
    uiprmd = os.path.join(data, "pose-tracks", "ui-prmd")
    by_exercise = {}
    for name in sorted(os.listdir(uiprmd)):
        if name.endswith(".jsonl"):
            path = os.path.join(uiprmd, name)
            labels = header_labels(path)
            by_exercise.setdefault(labels["exercise"], []).append(
                (path, int(labels["reps"]), labels["subject"], labels["view"])
            )
    for exercise, files in sorted(by_exercise.items()):
        if only and exercise not in only:
            continue
        view = library[exercise]["view"] if library[exercise]["view"] != "any" else "front"
        demos = [(subject, path) for path, _, subject, v in files if v == view]
        tests = [(path, reps, subject) for path, reps, subject, _ in files]
        folds = evaluate(ptcoach, "Learned", exercise, sorted(demos), tests, lambda d, p: d == p)
        lines.append(row(f"{exercise} (UI-PRMD, {view} demo)", library[exercise]["primary"], folds, "s01"))
        print(lines[-1], file=sys.stderr)

    # Real videos: calimiro labels, and the kaiakol squat clips (1 repetition each, counted by eye).
    labels = {}
    with open(os.path.join(data, "videos", "labels.csv")) as f:
        for r in csv.DictReader(f):
            labels[r["file"]] = (r["exercise"], int(r["reps_labelled"]))
    os.makedirs(options.poses, exist_ok=True)
    tracks = {}
    for file, (exercise, reps) in sorted(labels.items()):
        if exercise not in ("squat", "pull-up", "push-up"):
            continue
        if file.startswith("videos/kaiakol/"):
            track = os.path.join(data, "pose-tracks", "kaiakol", os.path.basename(file)[:-4] + ".jsonl")
        else:
            track = os.path.join(options.poses, os.path.basename(file)[:-4] + ".jsonl")
            if not os.path.exists(track):
                print(f"finding the poses of {file} …", file=sys.stderr)
                run([ptcoach, "poses", os.path.join(data, file), "-o", track, "--quiet"])
        tracks.setdefault(exercise, []).append((track, reps, os.path.basename(track)[:-6]))
    for exercise in ("squat", "pull-up"):
        if only and exercise not in only:
            continue
        tests = tracks[exercise]
        demos = [(person, track) for track, reps, person in tests if reps >= 1]
        folds = evaluate(ptcoach, "Learned", exercise, demos, tests, lambda d, p: d == p)
        headline = max(tests, key=lambda t: (t[1], -len(t[2])))[2]  # the clip with the most labelled repetitions
        lines.append(row(f"{exercise} (real clips)", library[exercise]["primary"], folds, headline))
        print(lines[-1], file=sys.stderr)
        # The therapist names the joint (`--primary`): what is left to learn is the band, view, tempo and rules.
        primary = library[exercise]["primary"]
        folds = evaluate(ptcoach, "Learned", exercise, demos, tests, lambda d, p: d == p, primary)
        lines.append(row(f"{exercise} (real clips, `--primary {primary}`)", primary, folds, headline))
        print(lines[-1], file=sys.stderr)
    if not only or "push-up" in only:
        kaiakol = os.path.join(data, "pose-tracks", "kaiakol")
        demos = [
            (name[:-6], os.path.join(kaiakol, name))
            for name in sorted(os.listdir(kaiakol))
            if name.startswith("pushup_correct_")
        ]
        tests = [t for t in tracks["push-up"] if t[1] >= 1]
        folds = evaluate(ptcoach, "Learned", "push-up", demos, tests, lambda d, p: False)
        lines.append(row("push-up (kaiakol demo, calimiro clips)", library["push-up"]["primary"], folds, demos[0][0]))
        print(lines[-1], file=sys.stderr)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
