#!/usr/bin/env bash
# Installs the system packages juggler's window and its tests need (Debian/Ubuntu, as root or
# with sudo): X11/GL libraries for the macroquad window and Xvfb to run it without a screen.
set -euo pipefail
pkgs="xvfb xauth libgl1 libglx-mesa0 libgl1-mesa-dri libx11-6 libxi6 libxkbcommon0"
# ffmpeg (with ffprobe): MP4/WebM export and its tests.
pkgs="$pkgs ffmpeg"
missing=""
for p in $pkgs; do dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"; done
[ -z "$missing" ] && exit 0
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
