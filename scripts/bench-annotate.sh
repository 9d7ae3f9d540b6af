#!/bin/bash
# Speed of `ptcoach analyze --annotate` against `ptcoach poses` on the same video (issue 4: at most 1.4×,
# and faster than real time for 720p at 30 fps). A measurement, not a test: run by hand, ideally on an
# idle machine; on a shared one, read every round and the CPU seconds (user + system, children included),
# which depend much less on what else runs.
#
#   scripts/bench-annotate.sh [SECONDS=24]
#       ROUNDS=2          rounds (each runs poses, then analyze --annotate)
#       BIN=path          the ptcoach to measure (skips the build)
#       BASE=path         also measure this ptcoach (e.g. a build of an earlier commit), alternated with BIN
#                         in every round, and print both side by side
#
# 1. Builds the release binary.
# 2. Makes a SECONDS clip by looping the calimiro squat_11 clip (1280x720, 23.976 fps; stream copy).
# 3. Runs `ptcoach poses` and `ptcoach analyze --annotate` alternately, ROUNDS times each, in this one run;
#    prints each wall time and CPU time, the ratio of the means, and the real-time factor (clip seconds /
#    wall seconds).
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
[ -x /usr/bin/time ] || { echo "missing /usr/bin/time (apt-get install time)" >&2; exit 1; }

if [ -z "${BIN:-}" ]; then
    echo "== release build" >&2
    swift build -c release --scratch-path "$SCRATCH" --product ptcoach >&2
    BIN=$(swift build -c release --scratch-path "$SCRATCH" --show-bin-path)/ptcoach
fi
binaries=("$BIN")
names=("new")
if [ -n "${BASE:-}" ]; then
    binaries=("$BASE" "$BIN")
    names=("base" "new")
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

# Runs a command; sets WALL and CPU (user + system seconds of it and its children).
measure() {
    local out=$WORK/time.txt
    /usr/bin/time -o "$out" -f "%e %U %S" "$@"
    read -r WALL user system < "$out"
    CPU=$(echo "$user + $system" | bc -l)
}

declare -A wall cpu
for round in $(seq 1 "$ROUNDS"); do
    for k in "${!binaries[@]}"; do
        bin=${binaries[$k]}
        name=${names[$k]}
        measure "$bin" poses "$CLIP" -o "$WORK/poses.jsonl" --quiet
        pw=$WALL pc=$CPU
        measure "$bin" analyze "$CLIP" --annotate "$WORK/annotated-$name.mp4" --overwrite \
            > /dev/null 2> "$WORK/analyze.err" || { cat "$WORK/analyze.err" >&2; exit 1; }
        aw=$WALL ac=$CPU
        wall[$name,poses]+="$pw " wall[$name,annotate]+="$aw "
        cpu[$name,poses]+="$pc " cpu[$name,annotate]+="$ac "
        printf '%s round %d: poses %.2f s (CPU %.2f s), analyze --annotate %.2f s (CPU %.2f s), ratio %.2f (CPU %.2f), load %s\n' \
            "$name" "$round" "$pw" "$pc" "$aw" "$ac" "$(echo "$aw / $pw" | bc -l)" "$(echo "$ac / $pc" | bc -l)" \
            "$(cut -d' ' -f1 /proc/loadavg)"
    done
done

mean() { printf '%s\n' $1 | awk '{ s += $1 } END { printf "%.3f", s / NR }'; }
for name in "${names[@]}"; do
    mp=$(mean "${wall[$name,poses]}")
    ma=$(mean "${wall[$name,annotate]}")
    cp=$(mean "${cpu[$name,poses]}")
    ca=$(mean "${cpu[$name,annotate]}")
    printf '%s mean: poses %.2f s (CPU %.2f s), analyze --annotate %.2f s (CPU %.2f s), ratio %.2f (target <= 1.4; CPU ratio %.2f), real-time factor %.2f (target >= 1)\n' \
        "$name" "$mp" "$cp" "$ma" "$ca" "$(echo "$ma / $mp" | bc -l)" "$(echo "$ca / $cp" | bc -l)" \
        "$(echo "$duration / $ma" | bc -l)"
done

in=$(probe "$CLIP")
for name in "${names[@]}"; do
    out=$(probe "$WORK/annotated-$name.mp4")
    echo "annotated ($name): $out"
    [ "$in" = "$out" ] || { echo "the annotated video differs from the clip: $out vs $in" >&2; exit 1; }
done
