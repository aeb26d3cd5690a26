#!/usr/bin/env bash
# Runs every test of juggler: unit, property, integration and window tests.
# Window tests need an X display; when none is set and xvfb-run exists, they run under Xvfb.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${DISPLAY:-}" ] && command -v xvfb-run >/dev/null 2>&1; then
  exec xvfb-run -a -s "-screen 0 1280x720x24" cargo test --all-targets "$@"
fi
exec cargo test --all-targets "$@"
