#!/usr/bin/env bash
# Runs every test: sets up what they need first (system packages, pose runtime and model, Chromium, ChromeDriver
# and Selenium for the browser test), then `swift test`, then the live coach in a real browser
# (Tests/browser/test_live_page.py: Chromium whose camera is a real video, against `ptcoach serve`), a hand exercise
# live (Tests/browser/test_hand_page.py: the count and the pinch on real hand videos), the clinic
# in a real browser (Tests/browser/test_clinic.py: therapist, patient, programme, a set, the dashboard, FHIR
# validated), the durability of live sets (Tests/browser/test_durability.py: concurrent sets, kill -9) and two
# instances on one PostgreSQL database (Tests/browser/test_two_instances.py), a therapist watching a patient's set live
# from another instance (Tests/browser/test_live_watch.py), and the server's promises probed from
# outside (Tests/browser/test_hardening.py: timeouts, malformed HTTP, limits, headers). A throw-away PostgreSQL server
# (scripts/test-postgres.sh) runs for the length of the command.
# Idempotent; quiet when there is nothing to set up. Extra arguments go to `swift test` (e.g. --filter) and
# skip the browser test.
set -euo pipefail
cd "$(dirname "$0")/.."
PTCOACH_SKIP_BUILD=1 PTCOACH_TEST_TOOLS=1 bash scripts/setup.sh
# A throw-away PostgreSQL server: the store tests run on it as well as on SQLite, and two instances share it.
pg_dir="${TMPDIR:-/tmp}/ptcoach-test-postgres-$$"
trap 'bash scripts/test-postgres.sh stop "$pg_dir"' EXIT
PTCOACH_TEST_POSTGRES_URL=$(bash scripts/test-postgres.sh start "$pg_dir")
export PTCOACH_TEST_POSTGRES_URL
swift build --build-tests -q
swift test --skip-build "$@"
if [ $# -eq 0 ]; then
    bin="$(swift build --show-bin-path)/ptcoach"
    echo "== the motion generator: known angles through the body, the camera and ptcoach analyze"
    PTCOACH_BIN="$bin" python3 -m pytest -q -p no:cacheprovider Tests/scripts
    echo "== browser test: the live coach in Chromium with squat_17.mp4 as the camera"
    python3 Tests/browser/test_live_page.py --server-binary "$bin" --screenshot "${TMPDIR:-/tmp}/ptcoach-live.png"
    echo "== browser test: a hand exercise live (finger-flexion on a fist video; the pinch on the Kapandji video)"
    python3 Tests/browser/test_hand_page.py --server-binary "$bin" --screenshot "${TMPDIR:-/tmp}/ptcoach-hands.png"
    echo "== browser test: the clinic (therapist, patient, programme, a set, the dashboard, FHIR export)"
    python3 Tests/browser/test_clinic.py --server-binary "$bin" --screenshots "${TMPDIR:-/tmp}/ptcoach-clinic"
    echo "== durability: three live sets at once, then kill -9 mid-set and a restart"
    python3 Tests/browser/test_durability.py --server-binary "$bin"
    echo "== two instances on one PostgreSQL database"
    python3 Tests/browser/test_two_instances.py --server-binary "$bin" --postgres "$PTCOACH_TEST_POSTGRES_URL"
    echo "== a therapist watches a patient's live set (pull-up_14 as the camera), on another instance (PostgreSQL)"
    python3 Tests/browser/test_live_watch.py --server-binary "$bin" --postgres "$PTCOACH_TEST_POSTGRES_URL" \
        --screenshot "${TMPDIR:-/tmp}/ptcoach-watch.png"
    echo "== hardening: timeouts, malformed HTTP, limits, headers and file permissions, probed from outside"
    python3 Tests/browser/test_hardening.py --server-binary "$bin"
fi
