#!/usr/bin/env bash
# Installs the system packages juggler's window and its tests need (Debian/Ubuntu, as root or
# with sudo): X11/GL libraries for the macroquad window and Xvfb to run it without a screen.
set -euo pipefail
pkgs="xvfb xauth libgl1 libglx-mesa0 libgl1-mesa-dri libx11-6 libxi6 libxkbcommon0"
# ALSA: the window's sounds (macroquad's audio links libasound; building needs its -dev).
pkgs="$pkgs libasound2-dev"
# ffmpeg (with ffprobe): MP4/WebM export and its tests.
pkgs="$pkgs ffmpeg"
# The web page (scripts/web.sh) and its browser tests (scripts/web_test.sh): Debian's wasm
# toolchain, Chromium, and python3-venv for Playwright (installed below with pip).
pkgs="$pkgs rustc-web rust-web-src lld-22 chromium python3-venv binaryen"
missing=""
for p in $pkgs; do dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"; done
if [ -n "$missing" ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
fi
# Playwright (browser driver only: it drives /usr/bin/chromium, never downloads a browser)
# and Pillow, in a venv under target/.
venv=target/pyvenv/web
cd "$(dirname "$0")/.."
if ! "$venv/bin/python" -c "import playwright, PIL" >/dev/null 2>&1; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q playwright==1.65.2 pillow==13.0.0
fi
