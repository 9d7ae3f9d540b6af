#!/usr/bin/env python3
"""Builds MediaPipe's hand landmarker bundle (`hand_landmarker.task`) from the mediapipe==0.10.21 wheel.

The wheel's hand models already carry TFLite metadata with the right input normalisation
(`../shared/docs/hand-runtime.md`), so they are stored as they are, under the names the hand landmarker
task expects:

    hand_detector.tflite             mediapipe/modules/palm_detection/palm_detection_full.tflite (192x192, [0, 1])
    hand_landmarks_detector.tflite   mediapipe/modules/hand_landmark/hand_landmark_full.tflite   (224x224, [0, 1])

No metadata is rewritten: the pose detector's [-1, 1] normalisation copied to the palm detector gives no
error and zero hands. The zip is stored (uncompressed), with fixed timestamps (byte-reproducible), and each
member's data starts on a 64-byte boundary (padding in an extra field, as Android's zipalign does), so
TFLite maps the models in place instead of logging "unaligned buffer ... copying".

Standard library only. Usage (see scripts/setup.sh):

    python3 -S make_hand_task.py --wheel mediapipe-0.10.21-....whl --output OUT.task
"""

import argparse
import os
import struct
import sys
import zipfile

# The tflite files inside the 0.10.21 wheel, and the names they get inside the bundle.
_MEMBERS = (
    ("mediapipe/modules/palm_detection/palm_detection_full.tflite", "hand_detector.tflite"),
    ("mediapipe/modules/hand_landmark/hand_landmark_full.tflite", "hand_landmarks_detector.tflite"),
)
_ALIGNMENT = 64
# The extra-field id Android's zipalign uses for its padding.
_PADDING_ID = 0xD935


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wheel", required=True, help="the mediapipe==0.10.21 wheel")
    parser.add_argument("--output", required=True, help="path of the .task bundle to write")
    args = parser.parse_args()

    with zipfile.ZipFile(args.wheel) as wheel:
        names = set(wheel.namelist())
        missing = [source for source, _ in _MEMBERS if source not in names]
        if missing:
            print(f"make_hand_task: {args.wheel} has no {', '.join(missing)}", file=sys.stderr)
            return 1
        models = [(name, wheel.read(source)) for source, name in _MEMBERS]

    # Written under a temporary name and renamed: an interrupted run leaves no half-written bundle behind.
    temporary = args.output + ".partial"
    with zipfile.ZipFile(temporary, "w", compression=zipfile.ZIP_STORED) as bundle:
        for name, content in models:
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_STORED
            # Local header: 30 bytes, the name, the extra field (4 bytes of id and size, then the padding).
            offset = bundle.fp.tell() + 30 + len(name.encode()) + 4
            padding = (-offset) % _ALIGNMENT
            info.extra = struct.pack("<HH", _PADDING_ID, padding) + bytes(padding)
            bundle.writestr(info, content)
    os.replace(temporary, args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
