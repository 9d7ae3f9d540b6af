"""Tests of the motion generator (scripts/generate_motion.py, scripts/motion/): known angles round-trip through
the body, the camera and `ptcoach analyze`; the same seed gives the same files; faults breach their rules.

    python3 -m pytest Tests/scripts/test_generate_motion.py
    PTCOACH_BIN=/path/to/ptcoach python3 -m pytest Tests/scripts   # the analyze round-trip needs the binary

The round-trip uses `PTCOACH_BIN`, else `.build/debug/ptcoach`, and fails saying so when neither exists.
"""

import filecmp
import json
import os
import subprocess
import sys

import numpy as np
import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "scripts"))

from generate_motion import definition, generate_one  # noqa: E402
from motion.body import INDEX, Body, pose_landmarks  # noqa: E402
from motion.camera import Artefacts, Camera, observe  # noqa: E402
from motion.clip import make_clip  # noqa: E402
from motion.templates import TEMPLATES  # noqa: E402
from motion.truth import measure  # noqa: E402


def ptcoach():
    path = os.environ.get("PTCOACH_BIN") or os.path.join(REPO, ".build", "debug", "ptcoach")
    if not os.path.exists(path):
        pytest.fail(f"no ptcoach binary at {path}: build it (swift build --product ptcoach) or set PTCOACH_BIN")
    return path


@pytest.mark.parametrize("knee,elbow,hip", [(0, 0, 0), (35, 120, 20), (90, 60, 80), (130, 150, 110)])
def test_forward_kinematics_gives_the_angles_it_was_asked_for(knee, elbow, hip):
    body = Body(np.random.default_rng(knee + elbow))
    points = pose_landmarks(body, {"knee_l": knee, "elbow_r": elbow, "hipFlex_l": hip, "shElev_r": 30,
                                   "shPlane_r": 40, "bendPlane_r": 20})
    assert measure(points, "kneeFlexion", "left") == pytest.approx(knee, abs=1e-6)
    assert measure(points, "elbowFlexion", "right") == pytest.approx(elbow, abs=1e-6)
    assert measure(points, "kneeFlexion", "right") == pytest.approx(0, abs=1e-6)
    # Hip flexion is measured from the shoulder, which sits wider than the hip (in 3-D, standing reads about 9°);
    # seen from the side (the lateral axis dropped) it is the thigh's flexion.
    sagittal = points * np.array([0.0, 1.0, 1.0])
    assert measure(sagittal, "hipFlexion", "left") == pytest.approx(hip, abs=1e-6)


def test_bodies_differ_in_proportions_but_keep_the_landmark_set():
    a, b = Body(np.random.default_rng(1)), Body(np.random.default_rng(2))
    assert a.height != b.height
    assert pose_landmarks(a, {}).shape == (33, 3)
    standing = pose_landmarks(a, {})
    assert standing[INDEX["nose"]][1] > standing[INDEX["leftShoulder"]][1] > standing[INDEX["leftKnee"]][1]


def test_the_same_seed_writes_the_same_file_and_another_seed_another(tmp_path):
    first, second, third = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    for folder in (first, second, third):
        folder.mkdir()
    path_a = generate_one("squat", 0, 7, str(first))[0]
    path_b = generate_one("squat", 0, 7, str(second))[0]
    path_c = generate_one("squat", 0, 8, str(third))[0]
    assert filecmp.cmp(path_a, path_b, shallow=False)
    assert not filecmp.cmp(path_a, path_c, shallow=False)


@pytest.mark.parametrize("exercise,fault", [("squat", "depth"), ("squat", "chest-up"), ("push-up", "body-line"),
                                            ("bicep-curl", "full-curl"), ("shoulder-abduction", "elbow-straight")])
def test_a_fault_breaches_its_rule_and_a_good_clip_none(exercise, fault):
    rng = np.random.default_rng(3)
    bad = make_clip(exercise, definition(exercise), rng, fault=fault, reps=2, depth=1.0, tempo=2.0, side="l")
    good = make_clip(exercise, definition(exercise), rng, fault="none", reps=2, depth=1.0, tempo=2.0, side="l")
    assert fault in bad.breached
    assert good.breached == []


def test_keypoints_out_of_the_picture_are_dropped_or_folded():
    clip = make_clip("squat", definition("squat"), np.random.default_rng(4), reps=1, depth=1.0, tempo=2.0)
    close = Camera(0.0, 0.0, 1.2, 1.4, 60.0, 720, 1280, np.array([0.0, 1.4, 0.0]))
    dropped = observe(clip, close, Artefacts(noise=0, drift=0, out_of_picture="drop", far_arm=False,
                                             missed_frames=0), np.random.default_rng(5))
    folded = observe(clip, close, Artefacts(noise=0, drift=0, out_of_picture="fold", far_arm=False,
                                            missed_frames=0), np.random.default_rng(5))
    ankle = INDEX["leftAnkle"]
    assert all(f[ankle, 3] == 0 for f in dropped if f is not None)  # the feet are below a picture of the chest
    assert all(0 <= f[ankle, 1] <= 1279 and f[ankle, 3] < 0.5 for f in folded if f is not None)


@pytest.mark.parametrize("exercise,angle", [("squat", "kneeFlexion"), ("push-up", "elbowFlexion"),
                                            ("hurdle-step", "hipFlexion")])
def test_a_known_peak_seen_from_the_side_comes_back_from_analyze_within_3_degrees(tmp_path, exercise, angle):
    path, labels, clip = generate_one(exercise, 0, 11, str(tmp_path), fault_share=0, clean=True, depth="none",
                                      azimuth=90.0, elevation=0.0, side="l")
    done = subprocess.run([ptcoach(), "analyze", path, "--json", "--exercise", exercise], capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    key = f"{angle}.left"
    truth = [rep["peak"] for rep in labels["truth"][key]]
    assert summary["reps"] == len(truth)
    reported = [rep["peakAngle"] for rep in summary["repetitions"]]
    assert np.max(np.abs(np.array(reported) - np.array(truth))) < 3, (reported, truth)


def test_every_template_names_only_its_definitions_rules():
    for exercise, spec in TEMPLATES.items():
        d = definition(exercise)
        rules = {r["id"] for r in d.get("formRules", [])} | {c["angle"] for c in d.get("hold", {}).get("conditions",
                                                                                                          [])}
        assert set(spec.get("faults", {})) <= rules, exercise
