#!/usr/bin/env bash
# Runs every test of juggler: unit, property, integration and window tests (and each benchmark
# once, as a smoke test). Window tests need an X display; when none is set and xvfb-run
# exists, everything runs under Xvfb. Ends with one summary line: "N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/.."
runner=()
if [ -z "${DISPLAY:-}" ] && command -v xvfb-run >/dev/null 2>&1; then
  runner=(xvfb-run -a -s "-screen 0 1280x720x24")
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
set +e
"${runner[@]}" cargo test --all-targets "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
awk '/^test result:/ { for (i = 1; i <= NF; i++) { if ($(i+1) ~ /^passed/) p += $i; if ($(i+1) ~ /^failed/) f += $i } }
     END { printf "\ntests: %d passed, %d failed\n", p, f }' "$log"
exit "$status"
