#!/bin/bash
# Latency, capacity and memory of the live coach server, `ptcoach serve` (docs/live-protocol.md), under the
# load of scripts/live-load.py. A measurement, not a test: run by hand, ideally on an idle machine (the load
# generator shares it: its own CPU is printed with each scenario, with the machine's load).
#
#   scripts/bench-live.sh
#       BIN=path            the ptcoach to measure (default .build/release/ptcoach, built if BIN is not given)
#       SECONDS_RUN=30      seconds of the camera scenarios (a) and (b)
#       FIND_SECONDS=10     seconds of each step of (c)
#       STEPS=25,50,100,150,200,250,300   client counts tried by (c)
#       LONG_SECONDS=120    wall seconds of the long session (d); at LONG_FPS=60 with SPEED=2 (30-fps video
#                           offered at twice real time) 900 s is 30 minutes of session time
#       SCENARIOS="a b c d" which scenarios to run (e: run only when named)
#       CLIPS=file.csv      the clips of (e): video,exercise,truth (default: four development videos, two of them
#                           made portrait here, see (e))
#       CLIP_CLIENTS=4      camera clients of (e)
#       PROCS=1             processes of the load generator
#       WORK=/tmp/ptcoach-bench-live   the server's data directory, its log and each scenario's JSON results
#
# 1. Starts `$BIN serve` on a free port with a fresh data directory and --max-sessions 1000 (it limits camera
#    sessions; keypoint sessions have no limit),
#    and waits for GET /health.
# 2. Runs, printing one summary line each with the machine's load (/proc/loadavg, nproc):
#    (a) one camera client, 15 fps, SECONDS_RUN s of calimiro/squat_17.mp4 (640x480 JPEG): target p95 <= 50 ms
#    (b) four camera clients, 15 fps, SECONDS_RUN s: target p95 <= 120 ms and every client >= 90% answered
#    (c) keypoint clients at 30 fps (a UI-PRMD hurdle-step track): the most with p95 <= 25 ms and >= 95%
#        answered (aim: >= 100), stepping the clients up (STEPS), then bisecting
#    (e) mixed portrait and landscape clips, each client its own video, exercise and true count, played once at
#        15 fps, 640 wide (a portrait clip 640x1138): each client's count against its truth, frames answered,
#        fps coached and p95 latency. The default clips: calimiro push-up_12 (3 push-ups) and pull-up_6 (5
#        pull-ups), landscape, and pull-up_14 (6 pull-ups) and squat_13 (2 squats) cut to portrait (the centre
#        9:16 of the frame, where the athlete is, as a phone held upright films; `transpose` would lay him on his
#        side instead), written to $WORK
#    (d) memory: the server's RSS over one camera session offered at LONG_FPS for LONG_SECONDS (start, max,
#        end, first and last quarter), and the memory of a camera session: RSS with the four sessions of (b)
#        open minus the RSS before they connected, / 4
# 3. Stops the server with SIGTERM and reports how it ended.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SECONDS_RUN=${SECONDS_RUN:-30}
FIND_SECONDS=${FIND_SECONDS:-10}
STEPS=${STEPS:-25,50,100,150,200,250,300}
LONG_SECONDS=${LONG_SECONDS:-120}
LONG_FPS=${LONG_FPS:-60}
SPEED=${SPEED:-2}
SCENARIOS=${SCENARIOS:-a b c d}
PROCS=${PROCS:-1}
MAX_SESSIONS=${MAX_SESSIONS:-1000}
WORK=${WORK:-/tmp/ptcoach-bench-live}
DATA=$ROOT/../shared/data
VIDEO=${VIDEO:-$DATA/videos/calimiro/squat_17.mp4}
VIDEO_EXERCISE=${VIDEO_EXERCISE:-squat}
TRACK=${TRACK:-$DATA/pose-tracks/ui-prmd/m02_s01_front.jsonl}
TRACK_EXERCISE=${TRACK_EXERCISE:-hurdle-step}
VENV=runtime/cache/live-venv
PY=$VENV/bin/python

[ -f "$VIDEO" ] || { echo "missing $VIDEO (the shared data must sit next to the repository)" >&2; exit 1; }
[ -f "$TRACK" ] || { echo "missing $TRACK" >&2; exit 1; }
command -v ffmpeg >/dev/null || { echo "missing ffmpeg (apt-get install ffmpeg)" >&2; exit 1; }
command -v curl >/dev/null || { echo "missing curl" >&2; exit 1; }
if ! { [ -x "$PY" ] && "$PY" -c "import websockets" 2>/dev/null; } &&
    python3 -c "import websockets, sys; sys.exit(websockets.__version__ != '15.0.1')" 2>/dev/null; then
    PY=python3  # websockets 15.0.1 is installed already (the test tools of scripts/setup.sh)
elif ! { [ -x "$PY" ] && "$PY" -c "import websockets" 2>/dev/null; }; then
    echo "== load generator venv ($VENV)" >&2
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install -q websockets==15.0.1
fi

if [ -z "${BIN:-}" ]; then
    echo "== release build" >&2
    swift build -c release --product ptcoach >&2
    BIN=$(swift build -c release --show-bin-path)/ptcoach
fi
[ -x "$BIN" ] || { echo "no ptcoach at $BIN" >&2; exit 1; }

rm -rf "$WORK"
mkdir -p "$WORK/data"
PORT=$("$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
URL=ws://127.0.0.1:$PORT/live
machine() { echo "   machine: loadavg $(cut -d' ' -f1-3 /proc/loadavg), nproc $(nproc)"; }

echo "== $BIN serve --port $PORT --data-directory $WORK/data --max-sessions $MAX_SESSIONS" >&2
"$BIN" serve --port "$PORT" --data-directory "$WORK/data" --max-sessions "$MAX_SESSIONS" >"$WORK/server.log" 2>&1 &
SERVER=$!
stop_server() {
    if kill -0 "$SERVER" 2>/dev/null; then
        kill -TERM "$SERVER"
        for _ in $(seq 100); do kill -0 "$SERVER" 2>/dev/null || break; sleep 0.1; done
        if kill -0 "$SERVER" 2>/dev/null; then
            echo "server still running 10 s after SIGTERM: SIGKILL" >&2
            kill -KILL "$SERVER"
        fi
    fi
}
trap stop_server EXIT
for i in $(seq 120); do
    curl -sf "http://127.0.0.1:$PORT/health" >/dev/null && break
    kill -0 "$SERVER" 2>/dev/null || { echo "the server exited:" >&2; tail -20 "$WORK/server.log" >&2; exit 1; }
    [ "$i" = 120 ] && { echo "no /health in 60 s" >&2; exit 1; }
    sleep 0.5
done
rss() { awk '/^VmRSS/ {printf "%.1f", $2 / 1024}' "/proc/$SERVER/status"; }
echo "server up (pid $SERVER, RSS $(rss) MB, $(curl -s "http://127.0.0.1:$PORT/health"))"
machine

load() {  # load NAME ARGS...: one live-load run, its JSON kept as $WORK/NAME.json
    local name=$1
    shift
    "$PY" scripts/live-load.py --url "$URL" --server-pid "$SERVER" --procs "$PROCS" --json "$@" \
        >"$WORK/$name.json" 2>"$WORK/$name.log" || { echo "   live-load failed:"; sed 's/^/   /' "$WORK/$name.log"; return 0; }
    grep -v '^live-load: \|^machine: ' "$WORK/$name.log" | sed 's/^/   /'
}
field() {  # field NAME PYTHON-EXPRESSION-OF-r
    "$PY" -c "import json, sys; r = json.load(open(sys.argv[1])); print($2)" "$WORK/$1.json"
}

for s in $SCENARIOS; do
    case $s in
    a)
        echo "(a) one camera client, 15 fps, ${SECONDS_RUN} s of $(basename "$VIDEO"): target p95 <= 50 ms"
        load a --mode camera --video "$VIDEO" --exercise "$VIDEO_EXERCISE" --clients 1 --fps 15 \
            --seconds "$SECONDS_RUN" --target-p95 50
        machine
        ;;
    b)
        echo "(b) four camera clients, 15 fps, ${SECONDS_RUN} s: target p95 <= 120 ms, every client >= 90% answered"
        load b --mode camera --video "$VIDEO" --exercise "$VIDEO_EXERCISE" --clients 4 --fps 15 \
            --seconds "$SECONDS_RUN" --target-p95 120 --target-client-answered 90
        machine
        ;;
    c)
        echo "(c) keypoint clients, 30 fps, $(basename "$TRACK"): the most with p95 <= 25 ms and >= 95% answered (aim >= 100)"
        load c --mode keypoints --track "$TRACK" --exercise "$TRACK_EXERCISE" --fps 30 --find-max \
            --seconds "$FIND_SECONDS" --steps "$STEPS" --target-p95 25 --target-answered 95
        machine
        ;;
    d)
        echo "(d) memory: one camera session offered at $LONG_FPS fps (${SPEED}x real time) for $LONG_SECONDS s"
        load d --mode camera --video "$VIDEO" --exercise "$VIDEO_EXERCISE" --clients 1 --fps "$LONG_FPS" \
            --speed "$SPEED" --seconds "$LONG_SECONDS" --quiet
        field d '"   RSS while streaming: first quarter %s MB, last quarter %s MB; series (s, MB) %s" % (r["rss"].get("first_quarter_mb"), r["rss"].get("last_quarter_mb"), r["rss"]["series"][::max(1, len(r["rss"]["series"]) // 12)])'
        field d '"   session time %.0f s (%d frames answered of %d offered)" % (r["seconds"] * r["speed"], r["overall"]["answered"], r["overall"]["sent"])'
        if [ -f "$WORK/b.json" ]; then
            field b '"   memory per camera session (b): (%s MB with 4 open - %s MB before) / 4 = %.1f MB" % (r["rss"]["open_mb"], r["rss"]["start_mb"], (r["rss"]["open_mb"] - r["rss"]["start_mb"]) / 4)'
        fi
        machine
        ;;
    e)
        clips=${CLIPS:-}
        if [ -z "$clips" ]; then
            clips=$WORK/clips.csv
            for v in pull-up_14 squat_13; do
                ffmpeg -nostdin -loglevel error -y -i "$DATA/videos/calimiro/$v.mp4" -an \
                    -vf "crop=trunc(ih*9/32)*2:ih" -c:v libx264 -crf 18 "$WORK/${v}_portrait.mp4"
            done
            printf '%s\n' "video,exercise,truth" "$DATA/videos/calimiro/push-up_12.mp4,push-up,3" \
                "$WORK/pull-up_14_portrait.mp4,pull-up,6" "$DATA/videos/calimiro/pull-up_6.mp4,pull-up,5" \
                "$WORK/squat_13_portrait.mp4,squat,2" >"$clips"
        fi
        echo "(e) ${CLIP_CLIENTS:-4} camera clients, 15 fps, the clips of $clips (each once, whole): count against truth"
        load e --mode camera --clips "$clips" --clients "${CLIP_CLIENTS:-4}" --fps 15
        machine
        ;;
    *) echo "unknown scenario $s" >&2 ;;
    esac
done

echo "sessions saved: $(curl -s "http://127.0.0.1:$PORT/api/sessions" | "$PY" -c 'import json, sys; print(len(json.load(sys.stdin)))' 2>/dev/null || echo '?'), server RSS $(rss) MB"
t0=$(date +%s.%N)
kill -TERM "$SERVER"
for _ in $(seq 150); do kill -0 "$SERVER" 2>/dev/null || break; sleep 0.1; done
kill -0 "$SERVER" 2>/dev/null && { echo "server still running 15 s after SIGTERM: SIGKILL" >&2; kill -KILL "$SERVER"; }
code=0
wait "$SERVER" || code=$?
trap - EXIT
echo "server stopped by SIGTERM: exit code $code after $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN {printf "%.1f", b - a}') s (log: $WORK/server.log)"
