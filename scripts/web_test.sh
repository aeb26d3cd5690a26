#!/usr/bin/env bash
# Builds the web page (scripts/web.sh) and runs its browser tests (tests/web/page_test.py) in
# headless Chromium; prints a cargo-style "test result:" line. Extra arguments go to the test
# script (--bench measures first-frame time and frames per second instead).
# Needs what scripts/setup.sh installs (wasm toolchain, chromium, the Playwright venv).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/web.sh
desktop=()
[ -x target/debug/juggler ] && desktop=(--desktop target/debug/juggler)
exec target/pyvenv/web/bin/python tests/web/page_test.py "${desktop[@]}" "$@"
