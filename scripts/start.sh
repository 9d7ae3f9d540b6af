#!/usr/bin/env bash
# Sets everything up (scripts/setup.sh: system packages, pose runtime and model, release build), then starts
# the live coach with its embedded SQLite database (data/ptcoach.sqlite) and prints the address to open.
# Open it, pick an exercise, and "Start camera" or "Try it with a sample video" (the videos of ../shared).
# Ctrl-C finishes and saves any set in progress.
#
#   scripts/start.sh                              # the live coach on http://127.0.0.1:8080/
#   scripts/start.sh --port 9000 --host 0.0.0.0   # options go to `ptcoach serve` (see --help; HTTPS in the README)
#   scripts/start.sh VIDEO [--exercise ID] ...    # analyse a video offline instead: out/NAME-annotated.mp4 and a report
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh

if [ $# -gt 0 ] && [ -f "$1" ]; then
    mkdir -p out
    name=$(basename "${1%.*}")
    exec .build/release/ptcoach analyze "$@" --annotate "out/$name-annotated.mp4" --report "out/$name-report.html" --overwrite
fi
exec .build/release/ptcoach serve --data-directory data "$@"
