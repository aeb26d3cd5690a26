#!/usr/bin/env bash
# Compares jugglers and props of every hss pattern of Juggling Lab pattern lists (JML files
# given as arguments, e.g. Juggling Lab's own hss_*.jml, which are GPL and not in this repo)
# between `juggler list --json` and Juggling Lab's layout (`jl.sh tojml`: <setup>).
# Needs Java and ../shared/jl (not run in CI). Usage: scripts/hss_compare.sh FILE.jml...
set -euo pipefail
cd "$(dirname "$0")/.."
JL=${JL:-../shared/jl/jl.sh}
cargo build --quiet
same=0; differ=0
for f in "$@"; do
  while IFS=$'\t' read -r settings ours; do
    setup=$("$JL" tojml "$settings" | grep -o '<setup jugglers="[0-9]*" paths="[0-9]*"' || true)
    theirs=$(sed -E 's/<setup jugglers="([0-9]+)" paths="([0-9]+)"/\1 \2/' <<<"$setup")
    if [ "$ours" = "$theirs" ]; then same=$((same + 1)); else
      differ=$((differ + 1)); echo "DIFFER $settings: juggler $ours, Juggling Lab ${theirs:-error}"; fi
  done < <(python3 - "$f" <<'PY'
import json, subprocess, sys, xml.etree.ElementTree as ET
path = sys.argv[1]
rows = [json.loads(l) for l in subprocess.run(
    ["target/debug/juggler", "list", path, "--json"], capture_output=True, text=True).stdout.splitlines()]
# The JSON objects are the file's pattern lines in order (imported or not).
lines = [l for l in ET.fromstring(open(path, encoding="utf-8").read()).iter("line") if l.get("notation")]
for line, d in zip(lines, rows):
    settings = " ".join((line.text or "").split())
    if "hss=" not in settings:
        continue
    ours = f"{d.get('jugglers')} {d.get('props')}" if d.get("valid") else "error"
    print(settings.replace(" ", ""), ours, sep="\t")
PY
)
done
echo "$same same, $differ differ"
[ "$differ" -eq 0 ]
