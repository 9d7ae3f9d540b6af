#!/bin/bash
# The hand classifiers (`ptcoach train --kind hand-pose|hand-action`) on the real hand videos
# (../shared/data/videos/hands, phases by eye in labels.csv), always scored on data no model was trained on:
#
#   1. generated hands -> real videos: models trained on generated hands only (SyntheticHandShape open / fist /
#      pinch; SyntheticHandMovement fist-open / opposition / wrist-flexion) score the real videos' phases
#      (Tests/ptcoachTests/HandClassifierRealVideoTests.swift, run here with the tracks made below);
#   2. real -> real, leave one video out: open hand against thumb opposition, per frame, on the two thumb-opposition
#      videos (the only shapes that more than one video shows), with `ptcoach evaluate-classifier --group-by file`.
#
#   BIN=.build/debug/ptcoach scripts/evaluate-hand-classifier.sh      (after swift build --build-tests)
#
# A measurement, not a test; the videos and the tracks made of them are for local testing only.
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${DATA:-$PWD/../shared/data/videos/hands}
BIN=${BIN:-$PWD/.build/debug/ptcoach}
TRACKS=${TRACKS:-${TMPDIR:-/tmp}/ptcoach-hand-tracks}
[ -f "$DATA/labels.csv" ] || { echo "evaluate-hand-classifier: no $DATA/labels.csv (../shared/data)" >&2; exit 1; }
[ -x "$BIN" ] || { echo "evaluate-hand-classifier: no $BIN; run swift build --build-tests" >&2; exit 1; }
mkdir -p "$TRACKS"
for video in fist_hetavshah1_reference thumb-opposition_wakeexer_kapandji thumb-opposition_myrajourney \
    wrist-flexion-extension_wakeexer; do
    [ -s "$TRACKS/$video.hands.jsonl" ] ||
        "$BIN" poses "$DATA/$video.mp4" --hands --num-hands 1 --quiet -o "$TRACKS/$video.hands.jsonl"
done

echo "== 1. trained on generated hands, scored on the real videos' phases"
PTCOACH_HAND_TRACKS="$TRACKS" swift test --skip-build --filter HandClassifierRealVideoTests 2>&1 |
    sed -n '/^RESULT/,$p' | grep -v '^[✔◇↳]'

echo "== 2. real videos, leave one video out: open hand / thumb opposition (per frame and per phase)"
K=thumb-opposition_wakeexer_kapandji.hands.jsonl
M=thumb-opposition_myrajourney.hands.jsonl
{
    echo "path,label,start,end"
    echo "$K,open,0,1.8"
    echo "$K,open,16.0,17.5"
    for range in 2.0,2.8 3.8,4.5 5.8,6.5 7.8,8.8 9.3,10.0 11.0,13.3 13.5,15.8; do echo "$K,pinch,$range"; done
    echo "$M,open,0,5.5"
    for range in 6.5,7.0 7.5,8.0 8.3,8.7 9.0,11.5 12.0,15.5; do echo "$M,pinch,$range"; done
} > "$TRACKS/open-pinch.csv"
"$BIN" evaluate-classifier --manifest "$TRACKS/open-pinch.csv" --kind hand-pose --group-by file
