"""A repetition's form rules recomputed from `ptcoach analyze --json`, with any bounds and close-call margin: the
value each rule checks (on the side the coach judges), and the clip's verdict. Used by
scripts/evaluate-feedback.py (the close-call margin, fitted leave-one-recording-out) and scripts/fit-form-bounds.py
(bounds fitted on generated motion); both check that it agrees with the coach's own verdicts at the code's values."""

import json
import os
import statistics

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIBRARY = os.path.join(REPO, "Sources", "CoachKit", "Resources", "Exercises")
CHECK_SWIFT = os.path.join(REPO, "Sources", "CoachKit", "Library", "FormRule+Check.swift")
RATIO_ANGLES = {"kneeWidthRatio", "headShoulderRatio"}  # AngleKind.isDegrees is false for these


def library_rules(exercise):
    """The exercise's form rules with a bound, as the library defines them."""
    with open(os.path.join(LIBRARY, f"{exercise}.json")) as f:
        return [r for r in json.load(f).get("formRules", []) if "max" in r or "min" in r]


def bound(rule):
    return rule["max"] if "max" in rule else rule["min"]


def with_bound(rule, value):
    """The rule with its bound replaced by `value` (None: the rule left out)."""
    if value is None:
        return None
    copy = dict(rule)
    copy["max" if "max" in rule else "min"] = value
    return copy


def code_margin():
    """CloseCallMargin.degrees in FormRule+Check.swift."""
    with open(CHECK_SWIFT) as f:
        for line in f:
            if "static let degrees = " in line:
                return float(line.split("= ")[1])
    return None


def judged_side(rep):
    """The side the coach judges: the repetition's side, else (a bilateral exercise not seen square-on) the side
    whose primary angle gave the repetition's peak; None when both are judged."""
    if rep.get("side"):
        return rep["side"]
    peak = rep.get("peakAngle")
    sides = {a.get("side") for a in rep["angles"] if a.get("side")}
    for a in rep["angles"]:
        if a.get("side") and peak is not None and abs(a["atPeak"] - peak) < 1e-9:
            # Square-on both sides are judged; the script cannot tell, so it judges the peak's side only where
            # the other side's values differ (they do whenever the coach measured one side).
            return a["side"] if len(sides) > 1 else None
    return None


def rule_values(rule, rep):
    """The values `rule` checks in a repetition (one per side judged)."""
    side = judged_side(rep)
    values = []
    for a in rep["angles"]:
        if a["angle"] != rule["angle"] or (side and a.get("side") and a["side"] != side):
            continue
        if rule["at"] == "peak":
            values.append(a["atPeak"])
        elif rule["at"] == "range":
            values.append(a["max"] - a["min"])
        else:
            values.append(a["max"] if "max" in rule else a["min"])
    return values


def inside(rule, rep):
    """How far inside its bound a repetition keeps `rule` (negative: past it), in degrees, or hundredths of a
    ratio; None where the repetition has no value for it."""
    values = rule_values(rule, rep)
    if not values:
        return None
    scale = 100.0 if rule["angle"] in RATIO_ANGLES else 1.0
    if "max" in rule:
        return (rule["max"] - max(values)) * scale
    return (min(values) - rule["min"]) * scale


def checked_rules(rep, rules):
    """The rules the coach could check in a repetition (not in its uncheckedRules)."""
    unchecked = {u.get("rule") if isinstance(u, dict) else u for u in rep.get("uncheckedRules", [])}
    return [r for r in rules if r is not None and r["id"] not in unchecked]


def rep_call(rep, rules, margin):
    """'bad' (a rule past its bound by more than `margin`), 'close' (none, but one within it), 'good', or None
    when no rule could be checked."""
    distances = [d for r in checked_rules(rep, rules) for d in [inside(r, rep)] if d is not None]
    if not distances:
        return None
    if min(distances) < -margin:
        return "bad"
    return "close" if min(distances) <= margin else "good"


def clip_call(summary, rules, margin):
    """A clip's verdict as evaluate-feedback.py counts it: 'bad' when a repetition is, else 'good' when one is;
    None (not judged) otherwise."""
    calls = [rep_call(rep, rules, margin) for rep in (summary or {}).get("repetitions", [])]
    if "bad" in calls:
        return "bad"
    return "good" if "good" in calls else None


def coach_clip_call(summary):
    """The coach's own clip verdict, from the repetitions' verdicts."""
    verdicts = [r["verdict"] for r in (summary or {}).get("repetitions", [])]
    if "needs-work" in verdicts:
        return "bad"
    return "good" if "good" in verdicts else None


def weighted_f1(truth, predicted, classes=("good", "bad")):
    """Weighted F1; a clip not judged (None) counts as wrong for its class."""
    total = 0.0
    for c in classes:
        tp = sum(1 for t, p in zip(truth, predicted) if t == c and p == c)
        fp = sum(1 for t, p in zip(truth, predicted) if t != c and p == c)
        fn = sum(1 for t, p in zip(truth, predicted) if t == c and p != c)
        precision = tp / (tp + fp) if tp + fp else 0.0
        recall = tp / (tp + fn) if tp + fn else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        total += f1 * sum(1 for t in truth if t == c)
    return total / len(truth) if truth else 0.0


# The labelled form sets of ../shared/data/manifests: (name, manifest, library exercise).
FORM_SETS = [
    ("bicep curl", "form-pose-trainer-bicep-curl-train.csv", "bicep-curl"),
    ("front raise", "form-pose-trainer-front-raise-train.csv", "front-raise"),
    ("shoulder press", "form-pose-trainer-shoulder-press-train.csv", "shoulder-press"),
    ("shoulder shrug", "form-pose-trainer-shoulder-shrug-train.csv", "shoulder-shrug"),
    ("push-up", "form-pushup-train.csv", "push-up"),
]
GOOD = {"good": "good", "correct": "good", "bad": "bad", "incorrect": "bad"}

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
