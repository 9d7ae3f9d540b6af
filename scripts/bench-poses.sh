#!/bin/bash
# Speed, parity and memory of `ptcoach poses` against the Python reference (issue 2).
# A measurement, not a test: run by hand on an idle machine.
#
#   scripts/bench-poses.sh [VIDEO_SECONDS=60] [LONG_SECONDS=180]
#
# 1. Builds the release binary.
# 2. Makes a VIDEO_SECONDS clip by looping a calimiro pull-up clip (1280x720) under $WORK.
# 3. In one run on that clip: the Python reference (mediapipe 0.10.21 solutions.pose, venv from
#    scripts/parity/setup-venv.sh), ptcoach poses --segments 1 and --segments 2; ms/frame of each,
#    bare inference ms/frame (ptcoach's summary, time inside MediaPipe per stream), parity of both
#    against the reference (scripts/parity/compare.py).
# 4. Peak RSS (/usr/bin/time -v) on a 5 s 1080p clip and on a LONG_SECONDS 1080p loop of it.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SECONDS_SHORT=${1:-60}
SECONDS_LONG=${2:-180}
WORK=${WORK:-/tmp/ptcoach-bench}
SCRATCH=${SCRATCH:-.build-bench}
VIDEOS=$ROOT/../shared/data/videos/calimiro
PY=$ROOT/runtime/cache/parity-venv/bin/python
mkdir -p "$WORK"

[ -d "$VIDEOS" ] || { echo "missing $VIDEOS (the shared data must sit next to the repository)" >&2; exit 1; }
[ -x "$PY" ] || scripts/parity/setup-venv.sh

if [ -z "${BIN:-}" ]; then  # BIN=path/to/ptcoach skips the build
    echo "== release build" >&2
    swift build -c release --scratch-path "$SCRATCH" --product ptcoach >&2
    BIN=$(swift build -c release --scratch-path "$SCRATCH" --show-bin-path)/ptcoach
fi

echo "== test clips" >&2
CLIP=$WORK/clip-${SECONDS_SHORT}s.mp4
# A 1280x720 pull-up clip looped (stream copy: no re-encoding, so it takes a second).
[ -s "$CLIP" ] || ffmpeg -hide_banner -loglevel error -y -stream_loop -1 -i "$VIDEOS/pull-up_5.mp4" \
    -map 0:v:0 -t "$SECONDS_SHORT" -c copy "$CLIP"
SHORT1080=$VIDEOS/push-up_1.mp4
LONG1080=$WORK/push-up-${SECONDS_LONG}s.mp4
[ -s "$LONG1080" ] || ffmpeg -hide_banner -loglevel error -y -stream_loop -1 -i "$SHORT1080" -map 0:v:0 -t "$SECONDS_LONG" -c copy "$LONG1080"

echo "== speed on $CLIP ($(ffprobe -v error -select_streams v:0 -count_packets -show_entries stream=nb_read_packets -of csv=p=0 "$CLIP") frames)" >&2
"$PY" scripts/parity/reference_poses.py "$CLIP" -o "$WORK/reference.jsonl" 2>&1 | grep '^reference:'
for n in 1 2; do
    "$BIN" poses "$CLIP" --segments "$n" -o "$WORK/ours-$n.jsonl" 2>&1 | grep '^poses:' | sed "s/^/segments $n: /"
done

echo "== parity" >&2
for n in 1 2; do
    echo "-- segments $n"
    python3 scripts/parity/compare.py "$WORK/reference.jsonl" "$WORK/ours-$n.jsonl" || true
done

echo "== peak RSS" >&2
for video in "$SHORT1080" "$LONG1080"; do
    duration=$(ffprobe -v error -show_entries format=duration -of csv=p=0 "$video")
    rss=$( { /usr/bin/time -v "$BIN" poses "$video" -o "$WORK/rss.jsonl" --quiet; } 2>&1 \
        | awk '/Maximum resident set size/ {print $6}')
    echo "peak RSS $(basename "$video") (${duration} s, 1920x1080): $((rss / 1024)) MB"
done
