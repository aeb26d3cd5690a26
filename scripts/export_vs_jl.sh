#!/usr/bin/env bash
# Compares juggler's GIF export with Juggling Lab 1.6.6's `togif` in one run (not in CI:
# needs ../shared/jl and hyperfine). Usage: scripts/export_vs_jl.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q
J=target/release/juggler
JL=../shared/jl/jl.sh
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
ring="<$(printf '3p|%.0s' $(seq 19))3p>"
hyperfine -N -w 1 -r 8 \
  "$JL togif 3 -out $out/jl3.gif" \
  "$J export 3 --out $out/j3.gif --size 400x450 --force -q"
hyperfine -N -w 1 -r 5 \
  "$JL togif $ring -out $out/jlring.gif" \
  "$J export pattern=$ring;colors=red --out $out/jring.gif --size 400x450 --force -q" \
  "$J export $ring --out $out/jring-colours.gif --size 400x450 --force -q"
for f in "$out"/*.gif; do
  printf '%s: ' "$(basename "$f")"
  ffprobe -v error -count_frames -show_entries stream=width,height,nb_read_frames:format=duration \
    -of compact=p=0:nk=1 "$f" | tr '\n' ' '
  echo
done
