#!/usr/bin/env python3
"""Generated motion: library exercises done by many bodies, seen by many cameras, as a pose model sees people.

Each exercise of the library with a template (scripts/motion/templates.py) is posed on a 33-landmark body of
varied proportions (scripts/motion/body.py), with varied depth, tempo, side and the faults its form rules name
(scripts/motion/clip.py), rendered through a camera at a drawn azimuth, elevation, distance, height, lens and
orientation, with a pose model's artefacts (scripts/motion/camera.py), and written as pose-track files that
`ptcoach analyze` reads. The header's `labels` hold the truth: exercise, reps, form and fault, the rules the true
3-D angles breach, the camera, the body, each repetition's window and its true angles. Same seed, same files.

    scripts/generate_motion.py --out DIR [--exercises squat,push-up] [--count 8] [--fault-share 0.4] [--seed 1]
        [--clean] [--depth guessed|none|true] [--azimuth DEG] [--elevation DEG]
        [--layout mediapipe-33|openpose-18|kinect-25|mixed]

--layout writes the keypoints as a real source's skeleton (scripts/motion/layouts.py): MediaPipe's 33 with depth
guessed (the default, the phone videos), OpenPose's 18 in 2-D (Pose Trainer), Kinect v2's 25 with true depth
(KIMORE, UI-PRMD); `mixed` draws one per clip (half MediaPipe, a quarter each of the others).
"""

import argparse
import csv
import json
import os
import sys
import zlib

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from motion.camera import Artefacts, draw_camera, observe, write_posetrack  # noqa: E402
from motion.clip import make_clip  # noqa: E402
from motion import layouts  # noqa: E402
from motion.templates import TEMPLATES, WITH_REAL_DATA  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIBRARY = os.path.join(REPO, "Sources", "CoachKit", "Resources", "Exercises")


CANDIDATES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "motion", "candidates")


def definition(exercise):
    """The library's definition, else a candidate's (scripts/motion/candidates: not in the library yet)."""
    path = os.path.join(LIBRARY, exercise + ".json")
    if not os.path.exists(path):
        path = os.path.join(CANDIDATES, exercise + ".json")
    with open(path) as f:
        return json.load(f)


def clip_seed(seed, exercise, index):
    return zlib.crc32(f"{seed}/{exercise}/{index}".encode())


def generate_one(exercise, index, seed, out_dir, fault_share=0.4, clean=False, depth=None, azimuth=None,
                 elevation=None, fps=None, layout=layouts.DEFAULT, **clip_options):
    """Writes one clip; returns (path, labels, clip): the clip holds the true world landmarks of every frame.
    `clip_options` go to make_clip (`severity` grades the fault).
    `layout`: one of layouts.LAYOUTS, or "mixed" (drawn per clip from its own generator, so that the motion,
    body and camera of a clip are the same whatever its layout)."""
    s = clip_seed(seed, exercise, index)
    rng = np.random.default_rng(s)
    layout_rng = np.random.default_rng([s, 28])
    if layout == "mixed":
        layout = layouts.draw(layout_rng)
    spec = TEMPLATES[exercise]
    faults = list(spec.get("faults", {}))
    fault = "none"
    if faults and rng.random() < fault_share:
        fault = str(rng.choice(faults))
    fps = fps or float(rng.choice([24.0, 25.0, 30.0, 30.0]))
    clip = make_clip(exercise, definition(exercise), rng, fault=fault, fps=fps, **clip_options)
    camera = draw_camera(rng, clip, azimuth=azimuth, elevation=elevation, cut_at_waist=False if clean else None)
    artefacts = Artefacts.none() if clean else Artefacts.draw(rng)
    if layout != layouts.DEFAULT:
        artefacts = layouts.adjust_artefacts(layout, artefacts, layout_rng, clean)
    if depth:
        artefacts.depth = depth
    observed = observe(clip, camera, artefacts, rng)
    names, observed = layouts.convert(layout, observed, layout_rng)
    path = os.path.join(out_dir, f"{exercise}_{index:03d}.jsonl")
    write_posetrack(path, clip, camera, observed, artefacts, fps, s, extra={"layout": layout}, keypoints=names)
    with open(path) as f:
        labels = json.loads(f.readline())["labels"]
    return path, labels, clip


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out", required=True)
    p.add_argument("--exercises", default=",".join(WITH_REAL_DATA), help="comma-separated ids, or 'all'")
    p.add_argument("--count", type=int, default=8, help="clips per exercise")
    p.add_argument("--fault-share", type=float, default=0.4)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--clean", action="store_true", help="no noise, no artefacts, 2-D, whole body in the picture")
    p.add_argument("--depth", choices=["guessed", "none", "true"])
    p.add_argument("--azimuth", type=float)
    p.add_argument("--elevation", type=float)
    p.add_argument("--layout", default=layouts.DEFAULT, choices=layouts.LAYOUTS + ["mixed"],
                   help="the keypoint layout of a real source's skeleton, or mixed")
    args = p.parse_args()
    exercises = sorted(TEMPLATES) if args.exercises == "all" else args.exercises.split(",")
    unknown = [e for e in exercises if e not in TEMPLATES]
    if unknown:
        sys.exit(f"generate_motion.py: no template for {', '.join(unknown)}; known: {', '.join(sorted(TEMPLATES))}")
    os.makedirs(args.out, exist_ok=True)
    rows = []
    for exercise in exercises:
        for i in range(args.count):
            path, labels, _ = generate_one(exercise, i, args.seed, args.out, args.fault_share, args.clean, args.depth,
                                        args.azimuth, args.elevation, layout=args.layout)
            rows.append((os.path.basename(path), exercise, labels["form"], labels["fault"], labels["reps"],
                         labels["layout"]))
    with open(os.path.join(args.out, "manifest.csv"), "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["path", "label", "form", "fault", "reps", "layout"])
        writer.writerows(rows)
    print(f"{len(rows)} clips in {args.out}")


if __name__ == "__main__":
    main()
