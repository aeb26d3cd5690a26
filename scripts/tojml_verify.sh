#!/usr/bin/env bash
# Writes JML with `juggler tojml` for vanilla, sync, multiplex, passing, bounce, hss and
# custom-hands/body (standing and moving) patterns and has Juggling Lab 1.6.6 read each file
# (`jl.sh verify`).
# Needs Java and ../shared/jl (not run in CI). Usage: scripts/tojml_verify.sh [JL_SH]
set -euo pipefail
cd "$(dirname "$0")/.."
JL=${1:-../shared/jl/jl.sh}
cargo build --quiet
JUGGLER=target/debug/juggler
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
patterns=(
  "3" "531" "db97531" "(4,2x)*" "(6x,4)(4,6x)" "[43]23" "24[54]" "(4,[44])" "[32]1"
  "<3p|3p>" "<4p 3|3 4p>" "<3p|3p|3p>" "3B" "5BBF" "pattern=(4B,4);gravity=490"
  "pattern=3;hands=(32.5)(10).;colors=orbits"
  "pattern=<3p|3p>;hands=<(10)(32.5).|(32.5)(10).>;body=<(0,-100,0).|(180,100,0).>"
  "pattern=<3p|3p>;body=<(0,-100,0)(20,-80,0).(90,-100,50).-.|(180,100,0).>"
  "pattern=3;prop=ring;colors={red}{0,128,255}"
  "pattern=534;hss=3" "pattern=[43]23;hss=2" "pattern=6;hss=4;handspec=(3,1)(4,2)"
  "pattern=4;hss=3;hold=true" "pattern=5;hss=423"
)
# Patterns that are JML events already (our own test files) are written as their events.
for f in tests/data/jml_events/*.jml; do
  patterns+=("$f")
done
failed=0
for i in "${!patterns[@]}"; do
  p=${patterns[$i]}
  f="$dir/p$i.jml"
  "$JUGGLER" tojml "$p" --out "$f"
  result=$("$JL" verify "$f" 2>&1)
  if grep -q "^ *OK" <<<"$result" && ! grep -q "Error" <<<"$result"; then
    echo "ok    $p"
  else
    echo "FAIL  $p"; echo "$result" | sed 's/^/      /'
    failed=$((failed + 1))
  fi
done
echo "${#patterns[@]} patterns, $failed failed"
[ "$failed" -eq 0 ]
