#!/usr/bin/env bash
# Writes JIF with `juggler convert --format jif` for solo, sync, multiplex, passing, Prechac
# and JIF-file patterns and has passist's completer read each file: it must print no warning
# and find the same jugglers and props as juggler.
# Needs node, npm (to install passist's one dependency, heap-js) and a passist repository (a
# bare copy is fine); not run in CI. Usage: scripts/jif_verify.sh PASSIST_REPO
set -euo pipefail
cd "$(dirname "$0")/.."
PASSIST=${1:?usage: scripts/jif_verify.sh PASSIST_REPO}
cargo build --quiet
JUGGLER=$PWD/target/debug/juggler
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/src/lib" "$dir/bin"
git --git-dir="$PASSIST/.git" show HEAD:src/lib/jif.mjs >"$dir/src/lib/jif.mjs" 2>/dev/null ||
  git --git-dir="$PASSIST" show HEAD:src/lib/jif.mjs >"$dir/src/lib/jif.mjs"
echo '{"type":"module"}' >"$dir/package.json"
(cd "$dir" && npm install --silent --no-audit --no-fund heap-js@2 >/dev/null)
cat >"$dir/bin/count.mjs" <<'JS'
import Jif from '../src/lib/jif.mjs';
import * as fs from 'fs';
const { jif, warnings } = Jif.complete(JSON.parse(fs.readFileSync(process.argv[2], 'utf8')));
console.log(`${jif.jugglers.length} ${jif.props.length} ${warnings.length}`);
for (const w of warnings) console.log(w);
JS
# (No bounces: JIF has no way to write them, and `juggler convert` refuses them.)
patterns=(
  "3" "531" "db97531" "(4,2x)*" "[43]23" "<3p|3p>" "<3p33|3p33>" "<3p|3p|3p>"
  "<3.5p|3.5px>" "<3.3p3|3.3p3|4.3p3>" "{0,0.5}<4.5px2.5px3.5p|3.5px4.5p2.5p>"
  "{0,0,0,0,0}<4pxC3353|33534pxD|3534pxE3|534pxA33|34pxB335>"
)
for f in tests/data/jif/*.jif; do
  patterns+=("$f")
done
failed=0
for i in "${!patterns[@]}"; do
  p=${patterns[$i]}
  f="$dir/p$i.jif"
  "$JUGGLER" convert "$p" --out "$f"
  ours=$("$JUGGLER" check --json "$f" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const r=JSON.parse(s);console.log(`${r.jugglers} ${r.props}`)})')
  theirs=$(node "$dir/bin/count.mjs" "$f")
  if [ "$(head -1 <<<"$theirs")" = "$ours 0" ]; then
    echo "ok    $p ($ours)"
  else
    echo "FAIL  $p: juggler $ours, passist $theirs"
    failed=$((failed + 1))
  fi
done
echo "${#patterns[@]} patterns, $failed failed"
[ "$failed" -eq 0 ]
