#!/bin/bash
# Speed kept: the coaching benchmark (Benchmarks/, a synthetic squat session) of two revisions, built in release
# in separate folders, run alternately A B A B … with the exercise given and with none; prints each run's CPU time
# (user + system), the ratio NEW/BASE per round and its median, allocations per frame, and the reps and events each
# build counted (they should be equal: the same frames give the same answer).
#
#   scripts/bench-compare.sh BASE_REV NEW_REV
#       ROUNDS=4        rounds of A/B per mode (at least 4 is the point: one pair is noise on a loaded machine)
#       MINUTES=560     minutes of 30 fps frames per run (after the benchmark's own warm-up minute; 560 is the
#                       benchmark's own default, 1,008,000 frames, so that start-up is a small share of the CPU time)
#       WORK=/tmp/ptcoach-bench   where the sources and builds are kept (reused by the next call: a revision
#                                 already built is not built again)
#
# CPU time, not wall time, and alternated side by side, so that other work on the machine weighs on both alike;
# still, the ratios are only as steady as the machine: run it again when they spread by more than a few percent.
# Two builds of the same coaching sources (d7184e0 and 6a5161e, which differ outside CoachKit and PoseKit) measured
# 0.98 given and 0.97 none here: differences of 2-3 % are within what code layout alone does.
# Exit status 0; it measures, it does not judge.
set -euo pipefail
cd "$(dirname "$0")/.."
BASE=${1:?usage: bench-compare.sh BASE_REV NEW_REV}
NEW=${2:?usage: bench-compare.sh BASE_REV NEW_REV}
ROUNDS=${ROUNDS:-4}
MINUTES=${MINUTES:-560}
WORK=${WORK:-/tmp/ptcoach-bench}
mkdir -p "$WORK"
started=$SECONDS

# The benchmark binary of `rev`, built from `git archive` of it in $WORK/<commit>.
build() {
    local sha dir
    sha=$(git rev-parse --verify "$1^{commit}")
    dir="$WORK/${sha:0:12}"
    if [ ! -x "$dir/bin/CoachBenchmark" ]; then
        rm -rf "$dir" && mkdir -p "$dir/src" "$dir/bin"
        git archive --format=tar "$sha" | tar -x -C "$dir/src"
        # The root's resolved versions, so both builds use the same dependencies (the root package's own pins).
        cp "$dir/src/Package.resolved" "$dir/src/Benchmarks/Package.resolved" 2>/dev/null || true
        local t0=$SECONDS
        if ! swift build -c release --package-path "$dir/src/Benchmarks" --product CoachBenchmark >"$dir/build.log" 2>&1
        then
            tail -n 30 "$dir/build.log" >&2
            echo "the build of $1 failed (log: $dir/build.log)" >&2
            exit 1
        fi
        cp "$dir/src/Benchmarks/.build/release/CoachBenchmark" "$dir/bin/"
        echo "built $1 (${sha:0:12}) in $((SECONDS - t0)) s" >&2
    fi
    echo "$dir/bin/CoachBenchmark"
}

# Runs `binary mode`; prints "cpu_seconds allocations_per_frame reps events".
measure() {
    local out cpu
    out=$(mktemp)
    cpu=$( { TIMEFORMAT='%U %S'; time "$1" "$2" "minutes=$MINUTES" >"$out"; } 2>&1 | awk '{print $1 + $2}')
    python3 - "$out" "$cpu" <<'EOF'
import re, sys
text = open(sys.argv[1]).read()
m = re.search(r"\(([0-9.]+) per frame\); reps (\d+); events (\d+)", text)
if not m:
    sys.exit("benchmark output not understood: " + text.strip())
print(sys.argv[2], m.group(1), m.group(2), m.group(3))
EOF
    rm -f "$out"
}

A=$(build "$BASE")
B=$(build "$NEW")
echo "base $BASE: $A"
echo "new  $NEW: $B"
echo "$ROUNDS rounds per mode, $MINUTES minutes of frames per run ($((MINUTES * 1800)) frames), CPU seconds (user+system)"
for mode in given none; do
    ratios=()
    for round in $(seq 1 "$ROUNDS"); do
        # A B in odd rounds, B A in even ones: neither side always runs first.
        if ((round % 2)); then
            read -r ca aa ra ea < <(measure "$A" "$mode")
            read -r cb ab rb eb < <(measure "$B" "$mode")
        else
            read -r cb ab rb eb < <(measure "$B" "$mode")
            read -r ca aa ra ea < <(measure "$A" "$mode")
        fi
        ratio=$(python3 -c "print(f'{$cb / $ca:.3f}')")
        ratios+=("$ratio")
        same=$([ "$ra $ea" = "$rb $eb" ] && echo "same reps and events" || echo "DIFFERENT: base reps $ra events $ea, new reps $rb events $eb")
        echo "$mode round $round: base ${ca} s, new ${cb} s, new/base $ratio; allocations/frame base $aa new $ab; $same"
    done
    python3 -c "import statistics,sys; r=[float(x) for x in sys.argv[1:]]; print(f'$mode: new/base CPU time median {statistics.median(r):.3f} (min {min(r):.3f}, max {max(r):.3f}) over {len(r)} rounds')" "${ratios[@]}"
done
echo "took $((SECONDS - started)) s"
