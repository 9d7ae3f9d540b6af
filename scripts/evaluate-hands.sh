#!/bin/bash
# Repetition counts of the hand exercises on the real hand videos (../shared/data/videos/hands/labels.csv,
# counted by eye) with the real hand model: `ptcoach analyze VIDEO --exercise EXERCISE --json` on each video,
# the exercise its label names; the Kapandji video also with `kapandji` (the sequence it shows: an open hand
# between touches). The wrist video also gets a body-pose pass (wrist flexion falls back on the body pose where the
# hand model has no hand). A measurement, not a test; the videos are for local testing only.
#
#   BIN=.build/debug/ptcoach scripts/evaluate-hands.sh
#
# Prints one line per run (file, exercise, count by eye, count, within one) and the total within one.
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${DATA:-$PWD/../shared/data/videos/hands}
BIN=${BIN:-$PWD/.build/debug/ptcoach}
[ -f "$DATA/labels.csv" ] || { echo "evaluate-hands: no $DATA/labels.csv (../shared/data)" >&2; exit 1; }
[ -x "$BIN" ] || { echo "evaluate-hands: no $BIN; run swift build" >&2; exit 1; }

runs=()
while IFS=, read -r file exercise reps _; do
    [ "$file" = file ] && continue
    runs+=("$file $exercise $reps")
    case $file in *kapandji*) runs+=("$file kapandji $reps") ;; esac
done < <(python3 -c 'import csv,sys
for row in csv.reader(open(sys.argv[1])): print(",".join(row[:3]))' "$DATA/labels.csv")

within=0
printf '%-42s %-24s %6s %8s %s\n' file exercise by-eye counted within-1
for run in "${runs[@]}"; do
    read -r file exercise reps <<< "$run"
    counted=$("$BIN" analyze "$DATA/$file" --exercise "$exercise" --json 2>/dev/null \
        | python3 -c 'import json,sys; print(json.load(sys.stdin)["reps"])' || echo error)
    ok=no
    if [ "$counted" != error ] && [ $(( counted - reps )) -ge -1 ] && [ $(( counted - reps )) -le 1 ]; then
        ok=yes
        within=$((within + 1))
    fi
    printf '%-42s %-24s %6s %8s %s\n' "$file" "$exercise" "$reps" "$counted" "$ok"
done
echo "within one: $within of ${#runs[@]}"
