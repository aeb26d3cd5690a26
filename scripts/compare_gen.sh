#!/usr/bin/env bash
# Compares the SET of patterns `juggler gen` finds with Juggling Lab's generator for the same
# queries (rotations of solo asynchronous patterns canonicalised: each is written as its greatest
# rotation; synchronous, multiplex and passing patterns are compared as printed).
# Needs Java (../shared/jl/jl.sh); not run in CI. Usage:
#   scripts/compare_gen.sh [--save] ["3 5 3" "4 7 5 -f" ...]
#   --save writes Juggling Lab's sets as tests/data/gen/<query>.txt (expected data).
set -euo pipefail
cd "$(dirname "$0")/.."
JL=${JL:-../shared/jl/jl.sh}
BIN=${BIN:-target/release/juggler}
save=0
if [ "${1:-}" = "--save" ]; then save=1; shift; fi
queries=("$@")
if [ ${#queries[@]} -eq 0 ]; then
  queries=("3 5 3" "3 5 5" "3 5 5 -f" "3 5 5 -prime" "3 5 5 -rot" "3 5 5 -f -rot" "3 5 5 -g"
    "3 5 5 -ng" "4 7 5" "4 7 5 -f" "5 7 5" "5 7 1-5 -x 2 3" "3 6 1-6 -prime" "4 - 3 -f -rot"
    "3 5 - -prime" "5 8 4 -lame" "6 9 4 -i 8" "4 6 6 -g" "2 4 1-6 -ng" "7 9 3 -f"
    "4 6 4 -s" "4 6 6 -s -g" "3 4 4 -s -f" "5 7 4 -s -prime" "4 6 4 -s -rot" "6 8 2 -s -ng"
    "4 6 4 -s -x 6x" "3 4 2 -m 2" "3 4 3 -m 2 -mf" "3 4 3 -m 2 -mc" "5 6 4 -m 2 -g -mt"
    "4 5 3 -m 2 -f" "4 4 2 -s -m 2" "4 4 4 -s -m 2 -mt -g" "6 4 2 -j 2"
    "6 4 3 -j 2 -f -se -sym -cp" "6 4 2 -j 2 -g -jp -m 2 -d 1 -l 1" "4 4 3 -j 2 -cp -prime"
    "3 3 2 -j 3" "4 4 2 -j 2 -s" "3 4 2 -m 2 -j 2 -jp" "7 5 4 -j 2 -d 2 -jp" "4 5 - -s -prime"
    "4 5 2 -j 2 -rot -i 4p" "2 3 4 -j 2 -lame")
fi
# Pattern column of a line: the middle of get-in, pattern, get-out; else the only field.
canon() {
  python3 -c '
import sys
for line in sys.stdin:
    f = line.split()
    if not f or f[0].isdigit() and len(f) == 2 and f[1].startswith("pattern"):
        continue
    f = [x for x in f if x != "*"]
    p = f[1] if len(f) == 3 else f[0]
    if any(c in p for c in "([<"):
        print(p)
    else:
        print(max(p[i:] + p[:i] for i in range(len(p))))
' | sort
}
fail=0
for q in "${queries[@]}"; do
  # shellcheck disable=SC2086
  jl=$("$JL" gen $q | grep -v '^Error' | canon)
  # shellcheck disable=SC2086
  me=$("$BIN" gen $q | canon)
  nj=$(printf '%s' "$jl" | grep -c . || true)
  nm=$(printf '%s' "$me" | grep -c . || true)
  if [ "$jl" = "$me" ]; then
    echo "same  $q: $nj patterns"
  else
    echo "DIFF  $q: Juggling Lab $nj, juggler $nm"
    diff <(echo "$jl") <(echo "$me") | head -5
    fail=1
  fi
  if [ $save = 1 ]; then
    printf '# Juggling Lab 1.6.6 `gen %s`: its patterns, each as its greatest rotation, sorted.\n%s\n' \
      "$q" "$jl" > "tests/data/gen/$(echo "$q" | tr ' ' '_').txt"
  fi
done
exit $fail
