#!/usr/bin/env python3
"""Compares two hand pose-track files of the same video frame by frame (pose-track.md, hand layout).

Hands are paired by side when both files name it, else by the nearest wrist. For every pair, the distance
between each of the 21 keypoints as % of the image diagonal; prints the median (target <= 1 %), the 90th
percentile, the largest, the frames with a hand in each file and the pairs whose sides disagree.
Needs only the standard library.

Usage: python3 compare_hands.py reference.jsonl ours.jsonl [--max-median 1.0]
Exit status 0 when the median is within --max-median, ours finds a hand in at least as many frames as the
reference and no side disagrees; 1 otherwise.
"""
import argparse
import json
import math
import sys


def read(path):
    with open(path) as f:
        header = json.loads(f.readline())
        frames = [json.loads(line) for line in f if line.strip()]
    return header, frames


def hands(header, frame):
    """[(side, [(x, y), ...])] of a frame."""
    per = 1 + header.get("dimensions", 2)
    sides = frame.get("chirality") or ["unknown"] * len(frame["poses"])
    return [(side, [(p[k * per], p[k * per + 1]) for k in range(21)]) for side, p in zip(sides, frame["poses"])]


def pairs(ref, ours):
    """Pairs each of our hands with a reference hand: the same side, else the nearest wrist."""
    left = list(ref)
    result = []
    for side, points in ours:
        if not left:
            break
        same = [h for h in left if h[0] == side and side != "unknown"]
        candidates = same or left
        best = min(candidates, key=lambda h: math.dist(h[1][0], points[0]))
        left.remove(best)
        result.append((best, (side, points)))
    return result


def percentile(values, q):
    return values[min(len(values) - 1, int(q * len(values)))]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("reference")
    parser.add_argument("ours")
    parser.add_argument("--max-median", type=float, default=1.0)
    args = parser.parse_args()

    ref_header, ref = read(args.reference)
    our_header, ours = read(args.ours)
    if (ref_header["width"], ref_header["height"]) != (our_header["width"], our_header["height"]):
        sys.exit(f"frame sizes differ: {ref_header['width']}x{ref_header['height']} vs "
                 f"{our_header['width']}x{our_header['height']}")
    for header, path in ((ref_header, args.reference), (our_header, args.ours)):
        if header["keypoints"][:2] != ["wrist", "thumbCMC"] or len(header["keypoints"]) != 21:
            sys.exit(f"{path} is not a hand pose-track (21 keypoints from wrist, thumbCMC, ...)")
    diagonal = math.hypot(our_header["width"], our_header["height"])
    if len(ref) != len(ours):
        print(f"warning: {len(ref)} reference frames vs {len(ours)} of ours; comparing the first "
              f"{min(len(ref), len(ours))}", file=sys.stderr)

    distances, disagree, paired = [], 0, 0
    for a, b in zip(ref, ours):
        for (ref_side, p), (our_side, q) in pairs(hands(ref_header, a), hands(our_header, b)):
            paired += 1
            if "unknown" not in (ref_side, our_side) and ref_side != our_side:
                disagree += 1
            distances += [math.dist(u, v) / diagonal * 100 for u, v in zip(p, q)]
    ref_frames = sum(1 for f in ref if f["poses"])
    our_frames = sum(1 for f in ours if f["poses"])
    if not distances:
        sys.exit("no frame has a hand in both files")
    distances.sort()
    median = percentile(distances, 0.5)
    print(f"hands paired in {paired} frame-hands; keypoint distance, % of the diagonal: "
          f"median {median:.3f}, p90 {percentile(distances, 0.9):.3f}, max {distances[-1]:.3f}; "
          f"frames with a hand: reference {ref_frames}, ours {our_frames} of {len(ours)}; "
          f"sides disagree in {disagree}")
    ok = median <= args.max_median and our_frames >= ref_frames and disagree == 0
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
