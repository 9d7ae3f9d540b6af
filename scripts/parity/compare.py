#!/usr/bin/env python3
"""Compares two pose-track files of the same video frame by frame (pose-track.md).

For every frame where both files have a person, and every keypoint both see with confidence
(visibility) > 0.5, the distance between the two positions as % of the image diagonal; prints the
median (target <= 1 %), the 90th percentile and the frames with a person in each file.
Needs only the standard library.

Usage: python3 compare.py reference.jsonl ours.jsonl [--threshold 0.5]
Exit status 0 when the median is within --max-median (default 1.0 %) and ours finds a person in at
least as many frames as the reference, 1 otherwise.
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


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("reference")
    parser.add_argument("ours")
    parser.add_argument("--threshold", type=float, default=0.5)
    parser.add_argument("--max-median", type=float, default=1.0)
    args = parser.parse_args()

    ref_header, ref = read(args.reference)
    our_header, ours = read(args.ours)
    if (ref_header["width"], ref_header["height"]) != (our_header["width"], our_header["height"]):
        sys.exit(f"frame sizes differ: {ref_header['width']}x{ref_header['height']} vs "
                 f"{our_header['width']}x{our_header['height']}")
    names = our_header["keypoints"]
    ref_index = {name: i for i, name in enumerate(ref_header["keypoints"])}
    per_ref = 1 + ref_header.get("dimensions", 2)
    per_ours = 1 + our_header.get("dimensions", 2)
    diagonal = math.hypot(our_header["width"], our_header["height"])

    if len(ref) != len(ours):
        print(f"warning: {len(ref)} reference frames vs {len(ours)} of ours; comparing the first "
              f"{min(len(ref), len(ours))}", file=sys.stderr)
    time_mismatch = sum(1 for a, b in zip(ref, ours) if abs(a["t"] - b["t"]) > 0.002)
    distances = []
    for a, b in zip(ref, ours):
        if not a["poses"] or not b["poses"]:
            continue
        p, q = a["poses"][0], b["poses"][0]
        for k, name in enumerate(names):
            if name not in ref_index:
                continue
            r = ref_index[name]
            ax, ay, ac = p[r * per_ref], p[r * per_ref + 1], p[r * per_ref + per_ref - 1]
            bx, by, bc = q[k * per_ours], q[k * per_ours + 1], q[k * per_ours + per_ours - 1]
            if ac > args.threshold and bc > args.threshold:
                distances.append(math.hypot(ax - bx, ay - by) / diagonal * 100)
    ref_people = sum(1 for f in ref if f["poses"])
    our_people = sum(1 for f in ours if f["poses"])
    distances.sort()

    def quantile(q):
        return distances[min(len(distances) - 1, int(q * len(distances)))] if distances else float("nan")

    median = quantile(0.5)
    print(f"frames: reference {len(ref)}, ours {len(ours)}, timestamps differing > 2 ms: {time_mismatch}")
    print(f"frames with a person: reference {ref_people}, ours {our_people}")
    print(f"keypoint pairs compared (both confidence > {args.threshold}): {len(distances)}")
    print(f"distance, % of the diagonal ({diagonal:.0f} px): median {median:.3f}, "
          f"p90 {quantile(0.9):.3f}, p99 {quantile(0.99):.3f}")
    ok = distances and median <= args.max_median and our_people >= ref_people
    print("PASS" if ok else "FAIL", f"(median <= {args.max_median}% and ours finds a person in at least as many frames)")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
