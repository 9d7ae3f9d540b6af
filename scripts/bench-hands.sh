#!/bin/bash
# Parity and speed of `ptcoach poses --hands` (issue 19): a measurement, not a test; run it on an idle machine.
#
#   BIN=.build/release/ptcoach scripts/bench-hands.sh [VIDEO] [ROUNDS=5]
#
# VIDEO defaults to ../shared/data/videos/hands/fist_hetavshah1_reference.mp4.
# 1. The Python reference (mediapipe 0.10.21 solutions.hands, model_complexity=1; venv from
#    scripts/parity/setup-venv.sh, or PY=path/to/python) with two hands and with one, and solutions.pose.
# 2. ROUNDS interleaved runs of `ptcoach poses --segments 1`: the body, hands (--num-hands 2), hands
#    (--num-hands 1); each prints ptcoach's summary (whole run ms/frame, inference ms/frame per stream).
# 3. Parity of the last hand runs against the reference (scripts/parity/compare_hands.py).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
VIDEO=${1:-$ROOT/../shared/data/videos/hands/fist_hetavshah1_reference.mp4}
ROUNDS=${2:-5}
WORK=${WORK:-/tmp/ptcoach-bench-hands}
PY=${PY:-$ROOT/runtime/cache/parity-venv/bin/python}
mkdir -p "$WORK"

[ -f "$VIDEO" ] || { echo "bench-hands: no video at $VIDEO" >&2; exit 1; }
[ -x "$PY" ] || scripts/parity/setup-venv.sh
if [ -z "${BIN:-}" ]; then
    echo "== release build" >&2
    swift build -c release --product ptcoach >&2
    BIN=$ROOT/.build/release/ptcoach
fi

echo "== reference on $(basename "$VIDEO")" >&2
"$PY" scripts/parity/reference_hands.py "$VIDEO" -o "$WORK/reference-2.jsonl" 2>&1 | grep '^reference:' | sed 's/^/hands x2 /'
"$PY" scripts/parity/reference_hands.py "$VIDEO" -o "$WORK/reference-1.jsonl" --max-hands 1 2>&1 | grep '^reference:' | sed 's/^/hands x1 /'
"$PY" scripts/parity/reference_poses.py "$VIDEO" -o "$WORK/reference-body.jsonl" 2>&1 | grep '^reference:' | sed 's/^/body /'

echo "== ptcoach poses, $ROUNDS rounds" >&2
for round in $(seq "$ROUNDS"); do
    "$BIN" poses "$VIDEO" --segments 1 -o "$WORK/body.jsonl" --overwrite --verbose 2>&1 | grep '^poses:' | sed "s/^/$round body: /"
    for n in 2 1; do
        "$BIN" poses "$VIDEO" --hands --num-hands "$n" --segments 1 -o "$WORK/hands-$n.jsonl" --overwrite --verbose 2>&1 \
            | grep '^poses:' | sed "s/^/$round hands x$n: /"
    done
done

echo "== parity" >&2
for n in 2 1; do
    echo -n "hands x$n: "
    python3 scripts/parity/compare_hands.py "$WORK/reference-$n.jsonl" "$WORK/hands-$n.jsonl" || true
done
