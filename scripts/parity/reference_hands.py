#!/usr/bin/env python3
"""The hand parity reference: MediaPipe's legacy Python `solutions.hands` (mediapipe==0.10.21,
model_complexity=1: palm_detection_full + hand_landmark_full, the models of `ptcoach poses --hands`) on
the frames of a video, written as a hand pose-track (pose-track.md) with Vision's hand joint names.

Frames are decoded exactly as `ptcoach poses` decodes them (reference_poses.py's decoder). The legacy
solution labels handedness for a mirrored (selfie) image; the Tasks graph `ptcoach` runs labels the
person's own hand in the image as given. So the reference's label is swapped here, and both files say
the person's own side; compare_hands.py checks that they agree.

Usage (inside runtime/cache/parity-venv, see scripts/parity/README.md):
    python reference_hands.py VIDEO -o reference.jsonl [--max-hands 2]
Prints one line on stderr: frames, frames with a hand, ms/frame (wall) and ms/frame inside hands.process().
"""
import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reference_poses import fmt, frames, probe  # noqa: E402

NAMES = [
    "wrist", "thumbCMC", "thumbMP", "thumbIP", "thumbTip",
    "indexMCP", "indexPIP", "indexDIP", "indexTip",
    "middleMCP", "middlePIP", "middleDIP", "middleTip",
    "ringMCP", "ringPIP", "ringDIP", "ringTip",
    "littleMCP", "littlePIP", "littleDIP", "littleTip",
]
# The legacy label is the side as seen in a mirror.
OWN_SIDE = {"Left": "right", "Right": "left"}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("video")
    parser.add_argument("-o", "--output", required=True)
    parser.add_argument("--max-hands", type=int, default=2)
    args = parser.parse_args()

    import numpy as np
    import mediapipe as mp

    width, height, fps, start_time = probe(args.video)
    started = time.perf_counter()
    hands = mp.solutions.hands.Hands(
        static_image_mode=False, max_num_hands=args.max_hands, model_complexity=1,
        min_detection_confidence=0.5, min_tracking_confidence=0.5)
    count = with_hand = 0
    inference = 0.0
    with open(args.output, "w") as out:
        header = {"format": "pose-track", "version": 1, "keypoints": NAMES, "fps": fps,
                  "width": width, "height": height, "dimensions": 3,
                  "source": os.path.basename(args.video) + " (mediapipe 0.10.21 solutions.hands)"}
        out.write(json.dumps(header, separators=(",", ":")) + "\n")
        for t, data in frames(args.video, width, height):
            image = np.frombuffer(data, np.uint8).reshape(height, width, 3)
            before = time.perf_counter()
            result = hands.process(image)
            inference += time.perf_counter() - before
            count += 1
            poses, sides = [], []
            if result.multi_hand_landmarks:
                with_hand += 1
                for landmarks, handedness in zip(result.multi_hand_landmarks, result.multi_handedness):
                    values = []
                    for lm in landmarks.landmark:
                        values += [fmt(lm.x * width, 2), fmt(lm.y * height, 2), fmt(lm.z * width, 2), "1"]
                    poses.append("[" + ",".join(values) + "]")
                    sides.append('"%s"' % OWN_SIDE.get(handedness.classification[0].label, "unknown"))
            out.write('{"t":%s,"poses":[%s],"chirality":[%s]}\n'
                      % (fmt(t - start_time, 4), ",".join(poses), ",".join(sides)))
    wall = time.perf_counter() - started
    print(f"reference: {count} frames, {with_hand} with a hand, "
          f"{wall * 1000 / max(count, 1):.1f} ms/frame (wall), "
          f"{inference * 1000 / max(count, 1):.1f} ms/frame in hands.process()", file=sys.stderr)


if __name__ == "__main__":
    main()
