#!/bin/bash
# Behaviour kept: `ptcoach analyze --json` of two builds over every pose-track in ../shared/data, with the
# file's labelled exercise given and with none, compared (the "file" field aside). A check, not a test: run it
# by hand before and after a change to the coaching core, and list every difference with its reason.
#
#   scripts/compare-analyze.sh BASE_BINARY NEW_BINARY [FOLDER=../shared/data/pose-tracks]
#       WORK=/tmp/ptcoach-compare   where both outputs are kept
#
# Prints one line per file and mode that differs (reps before → after), then a count. Exit status 1 when any
# differs. Video inputs go through `ptcoach poses` first, which this does not change; compare their pose-tracks.
set -euo pipefail
cd "$(dirname "$0")/.."
BASE=${1:?usage: compare-analyze.sh BASE_BINARY NEW_BINARY [FOLDER]}
NEW=${2:?usage: compare-analyze.sh BASE_BINARY NEW_BINARY [FOLDER]}
FOLDER=${3:-../shared/data/pose-tracks}
WORK=${WORK:-/tmp/ptcoach-compare}
rm -rf "$WORK" && mkdir -p "$WORK/base" "$WORK/new"

exercise_of() {
    head -n 1 "$1" | python3 -c 'import json,sys; print(json.loads(sys.stdin.readline()).get("labels",{}).get("exercise",""))'
}
known=$("$NEW" exercises --json | python3 -c 'import json,sys; print(" ".join(e["id"] for e in json.load(sys.stdin)))')

files=0 differ=0
while IFS= read -r -d '' file; do
    files=$((files + 1))
    name=$(echo "${file#"$FOLDER"/}" | tr '/' '_')
    exercise=$(exercise_of "$file")
    modes=(none)
    [[ " $known " == *" $exercise "* ]] && modes+=("$exercise")
    for mode in "${modes[@]}"; do
        args=("$file" --json)
        [ "$mode" != none ] && args+=(--exercise "$mode")
        for side in base new; do
            bin=$BASE; [ $side = new ] && bin=$NEW
            "$bin" analyze "${args[@]}" 2>&1 | python3 -c 'import json,sys
t=sys.stdin.read()
try:
    d=json.loads(t); d.pop("file",None); print(json.dumps(d,sort_keys=True))
except Exception: print(t.strip())' > "$WORK/$side/$name.$mode.json" || true
        done
        if ! cmp -s "$WORK/base/$name.$mode.json" "$WORK/new/$name.$mode.json"; then
            differ=$((differ + 1))
            reps() { python3 -c 'import json,sys
try: print(json.load(open(sys.argv[1]))["reps"])
except Exception: print("error")' "$1"; }
            echo "differs: ${file#"$FOLDER"/} ($mode): reps $(reps "$WORK/base/$name.$mode.json") -> $(reps "$WORK/new/$name.$mode.json")"
        fi
    done
done < <(find "$FOLDER" -name '*.jsonl' -print0 | sort -z)
echo "$files files, both modes where the label names a library exercise: $differ outputs differ (outputs in $WORK)"
[ "$differ" -eq 0 ]
