"""Tests of the generator's keypoint layouts (scripts/motion/layouts.py, `generate_motion.py --layout`): each real
source's skeleton, written as that source's tracks write it, and read back by `ptcoach analyze`.

    python3 -m pytest Tests/scripts/test_generate_layouts.py      # PTCOACH_BIN=… for the analyze round-trip
"""

import glob
import json
import os
import subprocess
import sys

import numpy as np
import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(REPO, "..", "shared", "data", "pose-tracks")
sys.path.insert(0, os.path.join(REPO, "scripts"))

from generate_motion import generate_one  # noqa: E402
from motion import layouts  # noqa: E402
from motion.body import INDEX  # noqa: E402


def ptcoach():
    path = os.environ.get("PTCOACH_BIN") or os.path.join(REPO, ".build", "debug", "ptcoach")
    if not os.path.exists(path):
        pytest.fail(f"no ptcoach binary at {path}: build it (swift build --product ptcoach) or set PTCOACH_BIN")
    return path


def read(path):
    with open(path) as f:
        header = json.loads(f.readline())
        frames = [json.loads(line)["poses"] for line in f if line.strip()]
    return header, frames


def real_keypoints(source):
    paths = sorted(glob.glob(os.path.join(DATA, source, "*.jsonl")))
    if not paths:
        pytest.skip(f"no real {source} tracks in {DATA}")
    return read(paths[0])[0]["keypoints"]


@pytest.mark.parametrize("layout,source", [("openpose-18", "pose-trainer"), ("kinect-25", "kimore")])
def test_a_layout_lists_the_keypoints_of_its_real_source(tmp_path, layout, source):
    path = generate_one("squat", 0, 3, str(tmp_path), layout=layout)[0]
    header, _ = read(path)
    assert header["keypoints"] == real_keypoints(source)
    assert header["labels"]["layout"] == layout


def test_openpose_is_two_dimensional_and_writes_what_it_misses_as_zeros(tmp_path):
    # Cut at the waist in some clips, the far arm behind the trunk in side views: some keypoints are missed.
    missed = seen = 0
    for i in range(6):
        path = generate_one("bicep-curl", i, 4, str(tmp_path), layout="openpose-18", azimuth=90.0)[0]
        header, frames = read(path)
        assert header.get("dimensions", 2) == 2
        for poses in frames:
            for pose in poses:
                assert len(pose) == 18 * 3
                for x, y, c in zip(pose[0::3], pose[1::3], pose[2::3]):
                    assert 0.0 <= c <= 1.0
                    if c == 0:
                        missed += 1
                        assert (x, y) == (0, 0)
                    else:
                        seen += 1
    assert missed > 0 and seen > 10 * missed


def test_kinect_has_true_depth_and_every_joint_tracked_or_inferred(tmp_path):
    path = generate_one("shoulder-abduction", 0, 4, str(tmp_path), layout="kinect-25", azimuth=90.0)[0]
    header, frames = read(path)
    assert header["dimensions"] == 3
    names = header["keypoints"]
    depths = []
    for poses in frames:
        for pose in poses:
            assert len(pose) == 25 * 4
            assert set(pose[3::4]) <= {0.5, 1.0}
            z = pose[2::4]
            depths.append(z[names.index("leftShoulder")] - z[names.index("rightShoulder")])
    # Seen from the person's left (azimuth 90), the left shoulder is nearer (smaller z) by about the shoulder width,
    # as a depth sensor measures it; a guessed depth would be flattened and noisy.
    assert np.median(depths) < -30


def test_a_clean_clip_is_the_same_motion_in_every_layout(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = generate_one("squat", 1, 6, str(tmp_path / "a"), clean=True)
    second = generate_one("squat", 1, 6, str(tmp_path / "b"), clean=True, layout="openpose-18")
    _, mediapipe = read(first[0])
    header, openpose = read(second[0])
    names = header["keypoints"]
    for a, b in zip(mediapipe, openpose):
        if not a or not b:
            continue
        a, b = a[0], b[0]
        for name in ("leftShoulder", "rightKnee", "nose"):
            i, j = INDEX[name], names.index(name)
            assert b[3 * j:3 * j + 2] == pytest.approx(a[3 * i:3 * i + 2], abs=0.11)
        shoulders = [(a[3 * INDEX["leftShoulder"] + k] + a[3 * INDEX["rightShoulder"] + k]) / 2 for k in (0, 1)]
        assert b[3 * names.index("neck"):3 * names.index("neck") + 2] == pytest.approx(shoulders, abs=0.11)


def test_mixed_draws_every_layout_and_the_same_seed_the_same_ones(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    drawn = [generate_one("heel-raise", i, 9, str(tmp_path / "a"), layout="mixed")[1]["layout"] for i in range(16)]
    again = [generate_one("heel-raise", i, 9, str(tmp_path / "b"), layout="mixed")[1]["layout"] for i in range(16)]
    assert drawn == again
    assert set(drawn) == set(layouts.LAYOUTS)


@pytest.mark.parametrize("layout", ["openpose-18", "kinect-25"])
def test_the_coach_counts_a_generated_clip_in_each_layout(tmp_path, layout):
    binary = ptcoach()
    right = 0
    for i in range(3):
        path, labels, _ = generate_one("squat", i, 12, str(tmp_path), layout=layout, azimuth=60.0)
        done = subprocess.run([binary, "analyze", path, "--exercise", "squat", "--json"], capture_output=True,
                              text=True, check=True)
        right += abs(json.loads(done.stdout)["reps"] - labels["reps"]) <= 1
    assert right >= 2
