#!/bin/bash
# The throw-away Python environment of the parity reference: mediapipe 0.10.21 (legacy
# solutions.pose, model_complexity=1) in runtime/cache/parity-venv. Python <= 3.12.
set -euo pipefail
cd "$(dirname "$0")/../.."
VENV=runtime/cache/parity-venv
[ -x "$VENV/bin/python" ] && "$VENV/bin/python" -c "import mediapipe" 2>/dev/null && exit 0
python3 -m venv "$VENV"
# --no-deps: mediapipe's own requirements pull jax, sentencepiece and sounddevice, which
# solutions.pose does not need; its drawing helpers do import OpenCV and matplotlib.
"$VENV/bin/pip" install -q --no-deps mediapipe==0.10.21
"$VENV/bin/pip" install -q "numpy<2" "protobuf>=4.25.3,<5" absl-py attrs flatbuffers \
    opencv-python-headless==4.10.0.84 matplotlib
"$VENV/bin/python" -c "import mediapipe; print('parity venv ready:', mediapipe.__version__)"
