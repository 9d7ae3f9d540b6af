#!/usr/bin/env bash
# Sets everything up (scripts/setup.sh: system packages, pose runtime and model, release build), then runs
# the main job: analyses a real exercise video into repetitions, joint angles and form feedback, with an
# annotated video and a report in out/.
#
#   scripts/start.sh                              # a side-view squat video from ../shared/data (calimiro squat_17)
#   scripts/start.sh VIDEO [--exercise ID] ...    # your own video; extra options go to `ptcoach analyze`
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh

if [ $# -eq 0 ]; then
    video=../shared/data/videos/calimiro/squat_17.mp4
    [ -f "$video" ] || { echo "start: $video is missing; put ../shared beside the repository or pass a video: scripts/start.sh VIDEO" >&2; exit 1; }
    set -- "$video" --exercise squat
fi
mkdir -p out
name=$(basename "${1%.*}")
exec .build/release/ptcoach analyze "$@" --annotate "out/$name-annotated.mp4" --report "out/$name-report.html" --overwrite
