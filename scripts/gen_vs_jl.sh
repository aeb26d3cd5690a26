#!/usr/bin/env bash
# Times `juggler gen` against Juggling Lab 1.6.6's generator on the same queries, the two
# runs of each round one after the other (so both see the same machine load), and prints
# each side's median wall time and the ratio. Output goes to /dev/null (listing) or is the
# count (-no, checked equal). Not in CI: needs Java and ../shared/jl.
# Usage: scripts/gen_vs_jl.sh [-r RUNS] ["8 6 6 -j 2" "8 6 6 -j 2 -no" ...]
set -euo pipefail
cd "$(dirname "$0")/.."
JL=${JL:-../shared/jl/jl.sh}
BIN=${BIN:-target/release/juggler}
runs=5
if [ "${1:-}" = "-r" ]; then
  runs=$2
  shift 2
fi
queries=("$@")
if [ ${#queries[@]} -eq 0 ]; then
  queries=("8 6 6 -j 2" "8 6 6 -j 2 -no" "8 - 9 -no" "6 9 12 -s -no")
fi
if [ "$BIN" = target/release/juggler ]; then
  cargo build --release -q
fi
now() { date +%s.%N; }
median() { python3 -c 'import sys; v = sorted(map(float, sys.argv[1:])); print(v[len(v) // 2])' "$@"; }
for q in "${queries[@]}"; do
  mine=()
  theirs=()
  for _ in $(seq "$runs"); do
    t0=$(now)
    # shellcheck disable=SC2086
    a=$("$BIN" gen $q | tail -c 200 | tail -n 1)
    t1=$(now)
    # shellcheck disable=SC2086
    b=$("$JL" gen $q | tail -c 200 | tail -n 1)
    t2=$(now)
    mine+=("$(python3 -c "print($t1 - $t0)")")
    theirs+=("$(python3 -c "print($t2 - $t1)")")
    if [[ "$q" == *-no* ]] && [ "${a% patterns}" != "$(echo "${b% patterns}" | tr -d ,)" ]; then
      echo "DIFFERENT COUNTS for gen $q: juggler '$a', Juggling Lab '$b'" >&2
      exit 1
    fi
  done
  m=$(median "${mine[@]}")
  t=$(median "${theirs[@]}")
  printf '%-20s juggler %7.2f s   Juggling Lab %7.2f s   %5.1fx faster   (median of %d; load %s)\n' \
    "gen $q" "$m" "$t" "$(python3 -c "print($t / $m)")" "$runs" "$(cut -d' ' -f1 /proc/loadavg)"
done
