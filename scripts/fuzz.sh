#!/usr/bin/env bash
# Runs each cargo-fuzz target for a bounded time (default 60 s each; FUZZ_SECONDS to change).
# Usage: scripts/fuzz.sh [TARGET...]   (default: all targets)
# Needs the nightly toolchain and cargo-fuzz (`cargo install cargo-fuzz`).
# Crashes land in fuzz/artifacts/<target>/; add each as a regression test in tests/fuzz_regressions.rs.
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
seconds="${FUZZ_SECONDS:-60}"
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(parse validate pipeline toml_loader jml_loader text_list)
for target in "${targets[@]}"; do
  mkdir -p "corpus/$target"
  # Seed the corpus with real patterns so the fuzzer starts from meaningful inputs.
  if [ -z "$(ls -A "corpus/$target")" ]; then
    # The file loaders start from real files: the library, the test data and the seeds.
    case "$target" in
      toml_loader) cp ../patterns/*.toml ../tests/data/*.toml "corpus/$target/" ;;
      jml_loader) cp ../tests/data/*.jml "corpus/$target/" ;;
      text_list) cp ../tests/data/*.txt "corpus/$target/" ;;
    esac
  fi
  if [ -z "$(ls -A "corpus/$target")" ]; then
    i=0
    while IFS=$'\t' read -r pattern _; do
      [ "$pattern" = "pattern" ] && continue
      printf '%s' "$pattern" > "corpus/$target/seed_$i"; i=$((i + 1))
    done < ../tests/data/siteswaps.tsv
  fi
  max_len=4096
  case "$target" in toml_loader | jml_loader | text_list) max_len=16384 ;; esac
  echo "== fuzzing $target for ${seconds}s"
  cargo +nightly fuzz run "$target" "corpus/$target" -- -max_total_time="$seconds" -max_len="$max_len" -timeout=10 2>&1 | tail -n 5
done
