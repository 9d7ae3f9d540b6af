#!/usr/bin/env python3
"""Builds MediaPipe's BlazePose "full" pose landmarker bundle (`.task`).

The `mediapipe==0.10.21` wheel ships the legacy BlazePose models
(`pose_detection.tflite`, `pose_landmark_full.tflite`) without TFLite metadata, and the Tasks
graph in `libmediapipe.so` refuses a float32 image input that has no `NormalizationOptions`.
This script adds that metadata with 0.10.21's own metadata writer and zips both models into the
bundle layout the pose landmarker task expects:

    pose_detector.tflite             detector, input normalised to [-1, 1] (mean 127.5, std 127.5)
    pose_landmarks_detector.tflite   landmark model, input normalised to [0, 1] (mean 0, std 255)

Only the metadata-writer modules are imported: the package `__init__` files of `mediapipe`
(which pull in OpenCV, matplotlib, jax, ...) are replaced by empty stub packages, so the script
needs nothing but `flatbuffers` and `numpy<2` beside the 0.10.21 package.

Usage (see scripts/setup.sh):

    python make_pose_task.py --mediapipe-root SITE_PACKAGES_OR_EXTRACTED_WHEEL --output OUT.task [--landmarks lite]

`--landmarks lite` bundles `pose_landmark_lite.tflite` (same input and normalisation) instead of the full model.
The 0.10.21 wheel does not ship it (its legacy solution downloads lite and heavy at run time): the option is for a
root that holds the file, and says so plainly otherwise (docs/capacity.md).
"""

import argparse
import os
import sys
import types
import zipfile

# The tflite files inside the 0.10.21 package, and the names they get inside the bundle.
_DETECTOR = ("mediapipe/modules/pose_detection/pose_detection.tflite", "pose_detector.tflite")
_LANDMARKERS = {
    variant: (f"mediapipe/modules/pose_landmark/pose_landmark_{variant}.tflite", "pose_landmarks_detector.tflite")
    for variant in ("full", "lite")
}

# Packages whose __init__ would import heavy optional dependencies: replaced by empty stubs that
# only know where their sub-modules live.
_STUB_PACKAGES = (
    "mediapipe",
    "mediapipe.tasks",
    "mediapipe.tasks.python",
)


def _install_stub_packages(root: str) -> None:
    for name in _STUB_PACKAGES:
        module = types.ModuleType(name)
        module.__path__ = [os.path.join(root, *name.split("."))]
        sys.modules[name] = module


def _with_metadata(writer_module, model: bytes, name: str, mean: float, std: float) -> bytes:
    """Returns `model` with an RGB image-input metadata block using the given normalisation."""
    writer_utils = sys.modules["mediapipe.tasks.python.metadata.metadata_writers.writer_utils"]
    writer = writer_module.MetadataWriter.create(bytearray(model))
    writer.add_general_info(name, "BlazePose " + name + " (metadata added by PT Coach scripts/make_pose_task.py)")
    writer.add_image_input(norm_mean=[mean], norm_std=[std])
    # One metadata entry per output, each its own object (the writer's default shares one object
    # between all outputs, which gives every output the first output's name).
    for output_name in writer_utils.get_output_tensor_names(bytearray(model)):
        writer.add_feature_output(name=output_name)
    content, _ = writer.populate()
    return bytes(content)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mediapipe-root", required=True,
                        help="folder that contains the mediapipe==0.10.21 package (site-packages or an extracted wheel)")
    parser.add_argument("--output", required=True, help="path of the .task bundle to write")
    parser.add_argument("--landmarks", choices=sorted(_LANDMARKERS), default="full",
                        help="the landmark model: full (default) or lite")
    args = parser.parse_args()

    root = os.path.abspath(args.mediapipe_root)
    if not os.path.isfile(os.path.join(root, _DETECTOR[0])):
        print(f"make_pose_task: no {_DETECTOR[0]} under {root}", file=sys.stderr)
        return 1
    landmarker_path = _LANDMARKERS[args.landmarks][0]
    if not os.path.isfile(os.path.join(root, landmarker_path)):
        print(f"make_pose_task: no {landmarker_path} under {root} (mediapipe 0.10.21 ships only the full landmark "
              "model)", file=sys.stderr)
        return 1

    _install_stub_packages(root)
    sys.path.insert(0, root)
    from mediapipe.tasks.python.metadata.metadata_writers import metadata_writer  # noqa: E402

    with open(os.path.join(root, _DETECTOR[0]), "rb") as f:
        detector = _with_metadata(metadata_writer, f.read(), "pose_detector", 127.5, 127.5)
    with open(os.path.join(root, landmarker_path), "rb") as f:
        landmarker = _with_metadata(metadata_writer, f.read(), "pose_landmarks_detector", 0.0, 255.0)

    # Written next to the destination and renamed, so an interrupted run never leaves a
    # half-written bundle behind. Fixed timestamps keep the zip byte-reproducible.
    temporary = args.output + ".partial"
    with zipfile.ZipFile(temporary, "w", compression=zipfile.ZIP_STORED) as bundle:
        for name, content in ((_DETECTOR[1], detector), (_LANDMARKERS[args.landmarks][1], landmarker)):
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            bundle.writestr(info, content)
    os.replace(temporary, args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
