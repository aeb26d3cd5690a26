#!/usr/bin/env bash
# Builds juggler's web page into target/web/: index.html, juggler.js (page glue), gl.js
# (miniquad's loader, from the miniquad crate in use), juggler.wasm, and the web app's
# manifest, icons and service worker (sw.js, stamped with this build's id). Serve that directory
# from any static host, e.g. `python3 -m http.server 8000 -d target/web`.
#
# Uses rustup's wasm32-unknown-unknown target when it is installed; otherwise Debian's
# toolchain for browser builds (rustc-web, rust-web-src, lld-22; installed here when
# missing) with -Zbuild-std, as in ../shared/WEB.md. The first build compiles std for wasm
# (about 5 minutes on 2 cores).
set -euo pipefail
cd "$(dirname "$0")/.."
target=wasm32-unknown-unknown
out=target/web
# A smaller download: the whole program optimised at once, no symbol names (BENCHMARKS.md).
export CARGO_PROFILE_RELEASE_LTO=true CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1 CARGO_PROFILE_RELEASE_OPT_LEVEL=z \
  CARGO_PROFILE_RELEASE_STRIP=true

if command -v rustup >/dev/null 2>&1 &&
  rustup target list --installed 2>/dev/null | grep -qx "$target"; then
  cargo build --release --bin juggler --target "$target"
else
  if [ ! -x /usr/bin/rustc ] || [ ! -d /usr/lib/rustlib/src/rust/library ] ||
    ! command -v rust-lld >/dev/null 2>&1; then
    echo "web.sh: installing Debian's wasm toolchain (rustc-web rust-web-src lld-22)" >&2
    sudo=()
    [ "$(id -u)" -eq 0 ] || sudo=(sudo)
    "${sudo[@]}" apt-get update -qq
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq rustc-web rust-web-src lld-22
  fi
  RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 \
    cargo build --release --bin juggler --target "$target" -Zbuild-std=std,panic_abort
fi

# miniquad's gl.js must match the miniquad crate the wasm was built with.
version=$(awk '/^name = "miniquad"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock)
gl_js=""
for dir in "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/miniquad-"$version"; do
  [ -f "$dir/js/gl.js" ] && gl_js=$dir/js/gl.js
done
if [ -z "$gl_js" ]; then
  echo "web.sh: gl.js of miniquad $version not found in the cargo registry" >&2
  exit 2
fi

rm -rf "$out"
mkdir -p "$out"
cp web/index.html web/juggler.js web/manifest.webmanifest web/icon.svg web/icon-192.png \
  web/icon-512.png "$out/"
cp "$gl_js" "$out/gl.js"
cp "$(dirname "$gl_js")/../LICENSE-MIT" "$out/gl.js.LICENSE-MIT.txt"
# binaryen's optimiser takes another 9 % off the download (1.214 -> 1.192 MB gzip, BENCHMARKS.md).
if ! command -v wasm-opt >/dev/null 2>&1; then
  echo "web.sh: installing binaryen (wasm-opt)" >&2
  sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq binaryen
fi
wasm-opt -Oz --enable-bulk-memory --enable-sign-ext --enable-mutable-globals \
  --enable-nontrapping-float-to-int "target/$target/release/juggler.wasm" -o "$out/juggler.wasm"
# The service worker keeps this build for offline use; its id (a hash of the files) makes a
# new build a new worker, which replaces the kept copy.
build_id=$(cat "$out"/index.html "$out"/juggler.js "$out"/gl.js "$out"/juggler.wasm \
  "$out"/manifest.webmanifest | sha256sum | cut -c1-16)
sed "s/BUILD_ID/$build_id/" web/sw.js >"$out/sw.js"
echo "web.sh: built $out ($(du -h "$out/juggler.wasm" | cut -f1) of wasm); serve it with" \
  "python3 -m http.server 8000 --bind 127.0.0.1 -d $out" >&2
