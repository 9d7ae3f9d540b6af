#!/usr/bin/env bash
# Counts repetitions in the labelled real videos of ../shared/data/videos (labels.csv) with `ptcoach analyze
# --exercise` and compares with the labels (calimiro labels are noisy, ±1). Prints one line per video, then
# off-by-one accuracy (share with |pred − label| ≤ 1) and mean absolute error.
#   scripts/evaluate-videos.sh [DATA_DIR] [FILTER_REGEX]
set -euo pipefail
cd "$(dirname "$0")/.."
data=${1:-../shared/data}
filter=${2:-.}
bin=${BIN:-.build/release/ptcoach}
[ -x "$bin" ] || swift build -c release --product ptcoach -q
total=0; within=0; abserr=0
while IFS=, read -r file exercise reps _; do
    [ "$file" = file ] && continue
    echo "$file" | grep -qE "$filter" || continue
    got=$("$bin" analyze "$data/$file" --exercise "$exercise" --json 2>/dev/null \
        | python3 -c 'import json,sys; print(json.load(sys.stdin)["reps"])' 2>/dev/null || echo error)
    shown=$got
    if [ "$got" = error ]; then shown="error (counted as 0)"; got=0; fi
    diff=$(( got > reps ? got - reps : reps - got ))
    total=$((total + 1)); abserr=$((abserr + diff)); [ $diff -le 1 ] && within=$((within + 1))
    echo "$file $exercise label=$reps got=$shown"
done < "$data/videos/labels.csv"
python3 -c "print(f'videos: {$total}, off-by-one accuracy {$within/$total:.3f}, mean absolute error {$abserr/$total:.2f} reps')"
