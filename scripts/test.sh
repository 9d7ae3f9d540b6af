#!/usr/bin/env bash
# Runs every test: sets up what the tests need (system packages, pose runtime and model), then `swift test`.
# Idempotent; quiet when there is nothing to set up. Extra arguments go to `swift test` (e.g. --filter).
set -euo pipefail
cd "$(dirname "$0")/.."
PTCOACH_SKIP_BUILD=1 bash scripts/setup.sh
swift build --build-tests -q
exec swift test --skip-build "$@"
