#!/usr/bin/env bash
# Runs every test of juggler: unit, property, integration and window tests (and each benchmark
# once, as a smoke test), the documentation's examples, then the web page's browser tests (scripts/web_test.sh). Window tests need an X display; when none is set and xvfb-run
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
# The documentation's examples (`--all-targets` leaves doctests out).
cargo test --doc 2>&1 | tee -a "$log"
doc_status=${PIPESTATUS[0]}
[ "$status" -ne 0 ] || status=$doc_status
# The API documentation builds without a warning (broken or private links).
if ! RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --lib -q 2>&1 | tee -a "$log"; then
  echo "test.sh: cargo doc has warnings" >&2
  status=1
fi
# The web page in headless Chromium (JUGGLER_SKIP_WEB=1 skips it): its "test result:" line
# counts below. Under the same runner, for its comparison with the desktop window.
if [ -n "${JUGGLER_SKIP_WEB:-}" ] && [ -n "${JUGGLER_CI:-}" ]; then
  echo "test.sh: JUGGLER_SKIP_WEB is set in CI (JUGGLER_CI): the browser tests must run" >&2
  status=1
elif [ -z "${JUGGLER_SKIP_WEB:-}" ]; then
  "${runner[@]}" ./scripts/web_test.sh 2>&1 | tee -a "$log"
  web_status=${PIPESTATUS[0]}
  [ "$status" -ne 0 ] || status=$web_status
fi
set -e
awk '/^test result:/ { for (i = 1; i <= NF; i++) { if ($(i+1) ~ /^passed/) p += $i; if ($(i+1) ~ /^failed/) f += $i } }
     END { printf "\ntests: %d passed, %d failed\n", p, f }' "$log"
exit "$status"
