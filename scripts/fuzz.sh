#!/usr/bin/env bash
# Runs each cargo-fuzz target for a bounded time (default 60 s each; FUZZ_SECONDS to change)
# and prints one line per target: runs, seconds, findings (files in fuzz/artifacts/<target>/).
# Usage: scripts/fuzz.sh [TARGET...]   (default: every target of fuzz/Cargo.toml)
# Works on the stable toolchain: cargo-fuzz's nightly flags are allowed with RUSTC_BOOTSTRAP=1,
# and cargo-fuzz is installed (`cargo install cargo-fuzz`) when missing. FUZZ_SANITIZER picks
# the sanitizer (default none: the code is safe Rust, and runs are twice as fast; `address`
# works too). Each input may take 10 s and 2 GB (libFuzzer's -timeout and -rss_limit_mb), so
# hangs and memory blow-ups are findings like crashes. FUZZ_JOBS runs that many targets at once.
# Crashes land in fuzz/artifacts/<target>/; add each as a regression test named after its class.
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
export RUSTC_BOOTSTRAP=1
seconds="${FUZZ_SECONDS:-60}"
sanitizer="${FUZZ_SANITIZER:-none}"
if ! cargo fuzz --version >/dev/null 2>&1; then
  cargo install cargo-fuzz --locked
fi
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  mapfile -t targets < <(sed -n 's/^name = "\(.*\)"$/\1/p' Cargo.toml | grep -v '^juggler-fuzz$')
fi

# Seeds the corpus with real inputs so the fuzzer starts from meaningful ones.
seed() {
  local target=$1 dir=corpus/$1 i=0
  mkdir -p "$dir"
  [ -n "$(ls -A "$dir")" ] && return
  case "$target" in
    toml_loader) cp ../patterns/*.toml ../tests/data/*.toml "$dir/" ;;
    jml_loader) cp ../tests/data/*.jml ../tests/data/jml_events/*.jml "$dir/" ;;
    text_list) cp ../tests/data/*.txt "$dir/" ;;
    jif) cp ../tests/data/jif/*.jif "$dir/" ;;
    jml_symmetry)
      # Byte 0: jugglers - 1, byte 1: paths - 1, then what is inside <pattern> after <setup>.
      for f in ../tests/data/jml_events/*.jml; do
        { printf '\000\002'; sed -e '1,/<setup/d' -e '/<\/pattern>/,$d' "$f"; } > "$dir/seed_$i"
        i=$((i + 1))
      done ;;
    settings_keys)
      # Byte 0 picks the key (and a second one), then its value; \001 starts the second value.
      local values=('4' '0.5' '(10)(20).' '(10)(32.5).(10)(32.5).' '<(0,0,0)|(100,0,0,180)>' \
        'mixed' '{red}{#00ff00}' '1e400' 'abc' '"3"' '[1.5, 2]' '{ forearm = 0.3 }' \
        "531$(printf '\001')(10)(20)." '((0,1)(0,2))^9.' '2' 'club' '-90' 'nan')
      for k in $(seq 0 40); do
        for v in "${values[@]}"; do
          { printf "\\$(printf '%03o' "$k")"; printf '%s' "$v"; } > "$dir/seed_$i"
          i=$((i + 1))
        done
      done ;;
    gen_trans)
      # Bytes: props, max throw, period, period range, flags, flags, multiplex, jugglers,
      # delay, leader; then an -x/-i expression, a line break and `trans` A and B.
      local lines=('\003\005\003\000\000\040\001\001\000\001\n531 3' \
        '\004\007\004\001\001\000\001\001\000\001(2)\n441 7531' \
        '\003\004\002\000\100\000\001\001\000\001\n(4,2x)* (4,4)' \
        '\004\006\002\000\000\000\002\001\000\001\n[43]1 5' \
        '\006\006\003\000\000\010\001\002\002\002\n<3p|3p> <4p 3|3 4p>' \
        '\003\000\004\377\006\000\001\001\000\001\n5B 3' \
        '\003\011\005\002\022\000\001\001\000\001.*1.*\n3 4H2')
      for l in "${lines[@]}"; do printf "$l" > "$dir/seed_$i"; i=$((i + 1)); done ;;
  esac
  if [ -z "$(ls -A "$dir")" ]; then
    while IFS=$'\t' read -r pattern _; do
      [ "$pattern" = "pattern" ] && continue
      printf '%s' "$pattern" > "$dir/seed_$i"; i=$((i + 1))
    done < ../tests/data/siteswaps.tsv
  fi
}

run_one() {
  local target=$1 max_len=4096 log
  case "$target" in toml_loader | jml_loader | text_list | jif | jml_symmetry) max_len=16384 ;; esac
  log="$(mktemp)"
  local before after
  mkdir -p "artifacts/$target"
  before=$(find "artifacts/$target" -type f | wc -l)
  cargo fuzz run -s "$sanitizer" "$target" "corpus/$target" -- -max_total_time="$seconds" \
    -max_len="$max_len" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 >"$log" 2>&1 || true
  after=$(find "artifacts/$target" -type f | wc -l)
  local runs
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  local time
  time=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -n 1)
  echo "| $target | ${runs:-?} | ${time:-$seconds} s | $((after - before)) |"
  if [ "$after" -gt "$before" ]; then
    grep -a -E "^==[0-9]+== ERROR|panicked|Test unit written" "$log" | head -n 5 | sed 's/^/    /' || true
  fi
  rm -f "$log"
}

cargo fuzz build -s "$sanitizer" >/dev/null
for target in "${targets[@]}"; do seed "$target"; done
echo "| target | runs | time | findings |"
echo "|---|---|---|---|"
jobs="${FUZZ_JOBS:-1}"
for target in "${targets[@]}"; do
  run_one "$target" &
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
done
wait
