"""The calibration helpers of scripts/evaluate-feedback.py: how sure a recognised name is, and the threshold fitted
on some groups (docs/evaluation-protocol.md). A form verdict's close calls are in form_bounds.py."""

import os

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET_PRECISION = 0.95


def named_with_confidence(summary):
    """The exercise the coach recognised and the confidence it was named with (the highest of its segments', as
    SessionSummary.recognitionConfidence); (None, 0) when it named none."""
    if not summary or summary.get("exerciseSource") != "recognized" or not summary.get("exercise"):
        return None, 0.0
    confidences = [g["confidence"] for g in summary.get("segments", []) if g.get("exercise") == summary["exercise"]]
    return summary["exercise"], max(confidences) if confidences else 0.0


def confident(results, threshold):
    """(right, confident, clips): the clips named at or above `threshold`, the right ones among them, all clips."""
    sure = [(label, named) for label, named, c in results if named and c >= threshold]
    return sum(1 for label, named in sure if label == named), len(sure), len(results)


def fit_threshold(results):
    """The smallest threshold (0.01 steps) whose confident names are at least TARGET_PRECISION right; where none
    is, the one with the best precision."""
    grid = [k / 100 for k in range(101)]
    for t in grid:
        right, sure, _ = confident(results, t)
        if sure and right / sure >= TARGET_PRECISION:
            return t
    return max(grid, key=lambda t: (confident(results, t)[0] / max(1, confident(results, t)[1]), -t))


def code_threshold():
    path = os.path.join(REPO, "Sources", "CoachKit", "Recognition", "RecognitionConfidence.swift")
    with open(path) as f:
        for line in f:
            if "init(namedAtLeast: Double = " in line:
                return float(line.split("= ")[1].split(")")[0])
    return None
