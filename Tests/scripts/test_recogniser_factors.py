"""Tests of `ptcoach analyze --recogniser-factors` (the recogniser's factors set without recompiling, as
scripts/fit-recogniser.py sets them).

    PTCOACH_BIN=/path/to/ptcoach python3 -m pytest Tests/scripts/test_recogniser_factors.py
"""

import json
import os
import subprocess
import sys

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "scripts"))

from generate_motion import generate_one  # noqa: E402


def ptcoach():
    path = os.environ.get("PTCOACH_BIN") or os.path.join(REPO, ".build", "debug", "ptcoach")
    if not os.path.exists(path):
        pytest.fail(f"no ptcoach binary at {path}: build it (swift build --product ptcoach) or set PTCOACH_BIN")
    return path


def analyze(path, factors=None, tmp_path=None):
    options = []
    if factors is not None:
        file = tmp_path / "factors.json"
        file.write_text(json.dumps(factors) if not isinstance(factors, str) else factors)
        options = ["--recogniser-factors", str(file)]
    return subprocess.run([ptcoach(), "analyze", path, "--json"] + options, capture_output=True, text=True)


def named(done):
    summary = json.loads(done.stdout)
    confidences = [g["confidence"] for g in summary["segments"] if g.get("exercise") == summary.get("exercise")]
    return summary.get("exercise"), max(confidences, default=0.0)


def test_the_factors_change_the_recognition_and_the_built_in_values_do_not(tmp_path):
    path = generate_one("squat", 0, 21, str(tmp_path), azimuth=60.0)[0]
    built_in = named(analyze(path))
    assert built_in[0] is not None
    # The built-in background (0.05) given explicitly changes nothing; a background of 5 ("none of these" scores
    # above any exercise) lowers every confidence below the naming threshold.
    assert named(analyze(path, {"background": 0.05}, tmp_path)) == built_in
    lowered = named(analyze(path, {"background": 5}, tmp_path))
    assert lowered[1] < built_in[1]


@pytest.mark.parametrize("factors,message", [({"noSuchFactor": 1}, "no recogniser factor 'noSuchFactor'"),
                                             ('{"holdPrior": "high"}', "not a JSON object of names and numbers"),
                                             ("[1, 2]", "not a JSON object of names and numbers")])
def test_a_bad_factors_file_is_one_clear_error(tmp_path, factors, message):
    path = generate_one("squat", 0, 21, str(tmp_path))[0]
    done = analyze(path, factors, tmp_path)
    assert done.returncode == 64
    assert message in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert done.stdout == ""
