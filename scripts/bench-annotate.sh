#!/bin/bash
# Speed of `ptcoach analyze --annotate` against `ptcoach poses` on the same video (issue 4: at most 1.4×,
# and faster than real time for 720p at 30 fps). A measurement, not a test: run by hand, ideally on an
# idle machine; on a shared one, read every round.
#
#   scripts/bench-annotate.sh [SECONDS=24]      (ROUNDS=2, BIN=path/to/ptcoach skips the build)
#
# 1. Builds the release binary.
# 2. Makes a SECONDS clip by looping the calimiro squat_11 clip (1280x720, 23.976 fps; stream copy).
# 3. Runs `ptcoach poses` and `ptcoach analyze --annotate` alternately, ROUNDS times each, in this one run;
#    prints each wall time, the ratio of the means, and the real-time factor (clip seconds / wall seconds).
# 4. Checks the annotated video has the clip's frame count, size and frame rate.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
CLIP_SECONDS=${1:-24}
ROUNDS=${ROUNDS:-2}
WORK=${WORK:-/tmp/ptcoach-bench-annotate}
SCRATCH=${SCRATCH:-.build-bench}
SOURCE=$ROOT/../shared/data/videos/calimiro/squat_11.mp4
mkdir -p "$WORK"

[ -f "$SOURCE" ] || { echo "missing $SOURCE (the shared data must sit next to the repository)" >&2; exit 1; }

if [ -z "${BIN:-}" ]; then
    echo "== release build" >&2
    swift build -c release --scratch-path "$SCRATCH" --product ptcoach >&2
    BIN=$(swift build -c release --scratch-path "$SCRATCH" --show-bin-path)/ptcoach
fi

CLIP=$WORK/squat-${CLIP_SECONDS}s.mp4
[ -s "$CLIP" ] || ffmpeg -hide_banner -loglevel error -y -stream_loop -1 -i "$SOURCE" -map 0:v:0 \
    -t "$CLIP_SECONDS" -c copy "$CLIP"
probe() {
    ffprobe -v error -select_streams v:0 -count_frames \
        -show_entries stream=nb_read_frames,width,height,r_frame_rate -of csv=p=0 "$1"
}
duration=$(ffprobe -v error -show_entries format=duration -of csv=p=0 "$CLIP")
echo "clip: $CLIP, $duration s, frames/width/height/rate: $(probe "$CLIP"), $(nproc) cores"

now() { date +%s.%N; }
poses_times=()
annotate_times=()
for round in $(seq 1 "$ROUNDS"); do
    t0=$(now)
    "$BIN" poses "$CLIP" -o "$WORK/poses.jsonl" --quiet
    t1=$(now)
    "$BIN" analyze "$CLIP" --annotate "$WORK/annotated.mp4" --overwrite > /dev/null 2> "$WORK/analyze.err" \
        || { cat "$WORK/analyze.err" >&2; exit 1; }
    t2=$(now)
    p=$(echo "$t1 - $t0" | bc -l)
    a=$(echo "$t2 - $t1" | bc -l)
    poses_times+=("$p")
    annotate_times+=("$a")
    printf 'round %d: poses %.2f s, analyze --annotate %.2f s, ratio %.2f, load %s\n' \
        "$round" "$p" "$a" "$(echo "$a / $p" | bc -l)" "$(cut -d' ' -f1 /proc/loadavg)"
done

mean() { printf '%s\n' "$@" | awk '{ s += $1 } END { printf "%.3f", s / NR }'; }
mp=$(mean "${poses_times[@]}")
ma=$(mean "${annotate_times[@]}")
printf 'mean: poses %.2f s, analyze --annotate %.2f s, ratio %.2f (target <= 1.4), real-time factor %.2f (target >= 1)\n' \
    "$mp" "$ma" "$(echo "$ma / $mp" | bc -l)" "$(echo "$duration / $ma" | bc -l)"

in=$(probe "$CLIP")
out=$(probe "$WORK/annotated.mp4")
echo "annotated: $out"
[ "$in" = "$out" ] || { echo "the annotated video differs from the clip: $out vs $in" >&2; exit 1; }
