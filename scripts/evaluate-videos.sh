#!/usr/bin/env bash
# Counts repetitions in the labelled real videos of ../shared/data/videos (labels.csv) with `ptcoach analyze
# --exercise` and compares with the labels (calimiro labels are noisy, ±1) and, where present, with the careful
# hand counts of scripts/hand-counts.csv. Prints one line per video, then for each reference the off-by-one
# accuracy (share with |pred − reference| ≤ 1) and the mean absolute error; the hand counts also per `use`
# column (tune = clips the counting was tuned on, holdout = clips it was not, holdout2 = clips counted by hand
# before the code they measure ever ran on them; see each row's note for how it was counted). With NO_EXERCISE=1
# (plain `analyze VIDEO`) it also prints how often the exercise `analyze` names is the labelled one.
#   scripts/evaluate-videos.sh [DATA_DIR] [FILTER_REGEX]
# Environment: BIN (the ptcoach binary, default .build/release/ptcoach); POSES_CACHE (a folder: each video's
# poses are found once with `ptcoach poses` and kept there, then `analyze` reads the pose-track; the counts are
# the same as from the video, only faster to repeat).
set -euo pipefail
cd "$(dirname "$0")/.."
data=${1:-../shared/data}
filter=${2:-.}
bin=${BIN:-.build/release/ptcoach}
hand=scripts/hand-counts.csv
[ -x "$bin" ] || swift build -c release --product ptcoach -q
total=0; within=0; abserr=0
rtotal=0; rright=0
declare -A rnamed=()
htotal=0; hwithin=0; habserr=0
declare -A utotal=() uwithin=() uabserr=()
while IFS=, read -r file exercise reps _; do
    [ "$file" = file ] && continue
    echo "$file" | grep -qE "$filter" || continue
    input="$data/$file"
    if [ -n "${POSES_CACHE:-}" ]; then
        mkdir -p "$POSES_CACHE"
        track="$POSES_CACHE/$(echo "$file" | sed 's|/|__|g; s|\.[^.]*$|.jsonl|')"
        [ -s "$track" ] || "$bin" poses "$input" -o "$track" --quiet 2>/dev/null || rm -f "$track"
        [ -s "$track" ] && input=$track
    fi
    exarg=(--exercise "$exercise"); [ -n "${NO_EXERCISE:-}" ] && exarg=()
    read -r got named < <("$bin" analyze "$input" "${exarg[@]}" --json 2>/dev/null \
        | python3 -c 'import json,sys; d = json.load(sys.stdin); print(d["reps"], d.get("exercise") or "none")' \
            2>/dev/null || echo error none)
    rtotal=$((rtotal + 1)); [ "$named" = "$exercise" ] && rright=$((rright + 1))
    rnamed[$exercise]="${rnamed[$exercise]:-} $named"
    shown=$got
    if [ "$got" = error ]; then shown="error (counted as 0)"; got=0; fi
    diff=$(( got > reps ? got - reps : reps - got ))
    total=$((total + 1)); abserr=$((abserr + diff)); [ $diff -le 1 ] && within=$((within + 1))
    byhand=$(awk -F, -v f="$file" '$1 == f { print $3 }' "$hand" 2>/dev/null)
    use=$(awk -F, -v f="$file" '$1 == f { print $4 }' "$hand" 2>/dev/null)
    extra=""
    if [ -n "$byhand" ]; then
        hdiff=$(( got > byhand ? got - byhand : byhand - got ))
        htotal=$((htotal + 1)); habserr=$((habserr + hdiff)); [ $hdiff -le 1 ] && hwithin=$((hwithin + 1))
        use=${use:-unmarked}
        utotal[$use]=$(( ${utotal[$use]:-0} + 1 )); uabserr[$use]=$(( ${uabserr[$use]:-0} + hdiff ))
        [ $hdiff -le 1 ] && uwithin[$use]=$(( ${uwithin[$use]:-0} + 1 ))
        extra=" hand=$byhand ($use)"
    fi
    echo "$file $exercise label=$reps$extra got=$shown${NO_EXERCISE:+ recognised=$named}"
done < "$data/videos/labels.csv"
python3 -c "print(f'against labels: {$total} videos, off-by-one accuracy {$within/max($total,1):.3f}, mean absolute error {$abserr/max($total,1):.2f} reps')"
if [ -n "${NO_EXERCISE:-}" ]; then
    # The exercise `analyze` names (the summary's `exercise`) against the label: the built-in recogniser.
    python3 -c "print(f'recognised exercise = label: {$rright}/{$rtotal} videos ({$rright/max($rtotal,1):.3f})')"
    for exercise in "${!rnamed[@]}"; do
        echo "  $exercise ->$(printf '%s\n' ${rnamed[$exercise]} | sort | uniq -c | sort -rn | awk '{printf " %s %d,", $2, $1}' | sed 's/,$//')"
    done
fi
if [ $htotal -gt 0 ]; then
    python3 -c "print(f'against hand counts: {$htotal} videos, off-by-one accuracy {$hwithin/$htotal:.3f}, mean absolute error {$habserr/$htotal:.2f} reps')"
    for use in "${!utotal[@]}"; do
        n=${utotal[$use]}; w=${uwithin[$use]:-0}; e=${uabserr[$use]}
        python3 -c "print(f'  hand counts, $use: {$n} videos, off-by-one accuracy {$w/$n:.3f} ({$w}/{$n}), mean absolute error {$e/$n:.2f} reps')"
    done
fi
