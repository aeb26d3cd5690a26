#!/usr/bin/env python3
"""Contact sheet of one pattern: N frames over one loop, one row per view (`juggler export
--view front|side|top|mirror`), tiled in a PNG.

usage: scripts/contact_sheet.py JUGGLER_BINARY PATTERN OUT.png [--prop club] [--frames 7]
       [--views front,side,top] [--size 200x240]
Needs Pillow (pip install pillow). Exports with `juggler export` into a temporary directory.
"""
import argparse
import pathlib
import subprocess
import tempfile

from PIL import Image, ImageDraw

ap = argparse.ArgumentParser()
ap.add_argument("binary")
ap.add_argument("pattern")
ap.add_argument("out")
ap.add_argument("--prop", default=None, help="override the pattern's prop")
ap.add_argument("--views", default="front,side,top")
ap.add_argument("--frames", type=int, default=7)
ap.add_argument("--size", default="200x240")
args = ap.parse_args()

rows = []
with tempfile.TemporaryDirectory() as tmp:
    views = args.views.split(",")
    for view in views:
        out = pathlib.Path(tmp) / view
        prop = ["--prop", args.prop] if args.prop else []
        # Frames spread over one loop: a low fps over the loop, then pick evenly.
        subprocess.run(
            [args.binary, "export", args.pattern, "--out", str(out), *prop,
             "--size", args.size, "--fps", "24", "--view", view, "--quiet"],
            check=True,
        )
        files = sorted(out.glob("*.png"))
        # Evenly over the loop; 7 frames do not alias with the beat of most patterns.
        picks = [files[int(i * len(files) / args.frames)] for i in range(args.frames)]
        rows.append([Image.open(f).convert("RGB") for f in picks])

w, h = rows[0][0].size
sheet = Image.new("RGB", (w * args.frames, h * len(rows) + 18), "white")
title = f"{args.pattern}  {args.prop or ''}  (rows: {', '.join(views)})"
ImageDraw.Draw(sheet).text((4, 3), title, fill="black")
for r, row in enumerate(rows):
    for c, im in enumerate(row):
        sheet.paste(im, (c * w, 18 + r * h))
sheet.save(args.out, optimize=True)
