#!/usr/bin/env python3
"""Browser tests of juggler's web page, in headless Chromium driven by Playwright.

Serves the built site (target/web, made by scripts/web.sh) on 127.0.0.1 from this process,
opens it in Debian's Chromium with software WebGL (SwiftShader) and checks what a user sees:
the drawing (pixels of page screenshots), the address bar, the title, and the state the app
publishes for the page (window.jugglerState: pattern, error, time, jugglers, ...).

Run by scripts/test.sh (scripts/web_test.sh); prints one cargo-style "test result:" line so
the tests count in the final "N passed, N failed". With --bench it measures instead (first
frame time and frames per second, for BENCHMARKS.md).
"""

import argparse
import functools
import http.server
import io
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import urllib.parse

from PIL import Image, ImageChops
from playwright.sync_api import sync_playwright

CHROMIUM = os.environ.get("JUGGLER_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--no-sandbox"]
# Ten jugglers, each running a 10-ball fountain: 100 props (as benches/window_fps.rs).
TEN_JUGGLERS = "<a|a|a|a|a|a|a|a|a|a>"


class Site:
    """The site directory served on 127.0.0.1 (a free port) by a thread of this process."""

    def __init__(self, root):
        handler = functools.partial(QuietHandler, directory=root)
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        self.base = "http://127.0.0.1:%d/" % self.server.server_address[1]

    def url(self, query=""):
        return self.base + "index.html" + query

    def close(self):
        self.server.shutdown()
        self.server.server_close()


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".wasm": "application/wasm", ".js": "text/javascript"}

    def log_message(self, *args):
        pass


def link(pattern, **extra):
    """The page's query for a pattern, encoded as a browser would."""
    pairs = [("pattern", pattern)] + list(extra.items())
    return "?" + urllib.parse.urlencode(pairs, quote_via=urllib.parse.quote)


class Browser:
    def __init__(self, playwright, site):
        self.site = site
        self.browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        self.console_errors = []

    def open(self, query="", size=(800, 600)):
        page = self.browser.new_page(viewport={"width": size[0], "height": size[1]})
        where = "%s at %dx%d: " % (query or "(no query)", size[0], size[1])
        page.on("console", lambda m: m.type == "error" and self.console_errors.append(
            where + m.text + " " + str(m.location)))
        page.on("pageerror", lambda e: self.console_errors.append(where + str(e)))
        page.goto(self.site.url(query))
        wait_for(page, "s.frames >= 3")
        return page

    def close(self):
        self.browser.close()


def state(page):
    return page.evaluate("window.jugglerState")


def wait_for(page, condition, timeout=20000):
    """Waits until `condition` (JavaScript, `s` being window.jugglerState) holds."""
    page.wait_for_function(
        "() => { const s = window.jugglerState; return s !== undefined && (%s); }" % condition,
        timeout=timeout)
    return state(page)


def shot(page):
    return Image.open(io.BytesIO(page.screenshot())).convert("RGB")


def coloured_pixels(image, box):
    """Pixels in `box` of clearly coloured things (props, shirts, skin), not the grey floor,
    sky, panels or text."""
    region = image.crop(box)
    return sum(1 for r, g, b in region.get_flattened_data() if max(r, g, b) - min(r, g, b) > 60)


def changed_pixels(a, b, box, threshold=40):
    diff = ImageChops.difference(a.crop(box), b.crop(box)).convert("L")
    return sum(1 for v in diff.get_flattened_data() if v > threshold)


def scene_box(image):
    """The juggling area between the pattern field and the bottom bar (approximately)."""
    w, h = image.size
    return (0, 60, w, h - 80)


# ---------------------------------------------------------------------------------------------
# The tests: each takes the Browser and raises AssertionError on failure.

def test_draws_a_juggler_and_the_frames_change(b):
    page = b.open(link("3"))
    first = shot(page)
    box = scene_box(first)
    coloured = coloured_pixels(first, box)
    assert coloured > 3000, "only %d coloured pixels: nothing drawn?" % coloured
    t0 = state(page)["time"]
    page.wait_for_timeout(400)
    second = shot(page)
    s = state(page)
    assert s["time"] != t0 and not s["paused"], s
    moved = changed_pixels(first, second, box)
    assert moved > 200, "only %d pixels changed in 0.4 s: not animating" % moved
    assert page.title() == "3 - juggler", page.title()
    page.close()


def test_a_passing_link_shows_two_jugglers(b):
    page = b.open(link("<3p|3p>"))
    s = state(page)
    assert (s["jugglers"], s["props"], s["error"]) == (2, 6, None), s
    image = shot(page)
    w, h = image.size
    _, top, _, bottom = scene_box(image)
    # Above the facts panel (bottom right).
    left = coloured_pixels(image, (0, top, w // 2, h // 2))
    right = coloured_pixels(image, (w // 2, top, w, h // 2))
    assert left > 1500 and right > 1500, "jugglers left/right: %d / %d pixels" % (left, right)
    page.close()


def test_a_settings_string_in_the_link_sets_the_pattern_and_its_speed(b):
    page = b.open(link("pattern=531;bps=4"))
    s = state(page)
    assert s["error"] is None, s
    assert (s["props"], s["period"], s["bps"]) == (3, 3, 4.0), s
    assert s["playing"] == "pattern=531;bps=4", s
    page.close()


def test_a_library_name_and_link_options_are_applied(b):
    page = b.open(link("mills mess", bps="2.5", prop="club"))
    s = state(page)
    assert s["error"] is None, s
    assert s["name"] == "Mills Mess" and s["props"] == 3, s
    assert s["bps"] == 2.5, s
    assert page.title() == "Mills Mess (3) - juggler", page.title()
    page.close()


def test_a_bad_link_shows_its_error_and_plays_the_default(b):
    page = b.open(link("Rubenstein's Revange"))
    s = state(page)
    assert s["error"].startswith('no pattern named "Rubenstein\'s Revange"'), s
    assert "Rubenstein's Revenge" in s["error"], s
    assert s["playing"] == "3" and s["field"] == "Rubenstein's Revange", s
    page.close()
    page = b.open(link("441", bps="fast"))
    s = state(page)
    assert s["playing"] == "441" and s["props"] == 3, s
    assert s["error"].startswith(
        "bps=fast in the link: bps must be between 0.1 and 200 beats per second, not fast"
    ), s
    page.close()


def test_typing_a_pattern_and_enter_changes_the_animation_and_the_address(b):
    page = b.open(link("3"))
    before = shot(page)
    page.mouse.click(400, 300)
    page.keyboard.type("531")
    page.keyboard.press("Enter")
    s = wait_for(page, "s.playing === '531'")
    assert (s["props"], s["period"], s["error"]) == (3, 3, None), s
    assert page.url.endswith("/index.html?pattern=531"), page.url
    assert page.title() == "531 - juggler", page.title()
    page.wait_for_timeout(300)
    after = shot(page)
    assert changed_pixels(before, after, scene_box(after)) > 500

    # An invalid pattern: the error shows, the old pattern keeps playing, the link stays.
    page.keyboard.type("532")
    page.keyboard.press("Enter")
    s = wait_for(page, "s.error !== null")
    assert "average" in s["error"], s
    assert s["playing"] == "531" and s["field"] == "532", s
    t0 = s["time"]
    page.wait_for_timeout(300)
    s = state(page)
    assert s["time"] != t0 and s["playing"] == "531" and s["props"] == 3, s
    assert page.url.endswith("?pattern=531"), page.url
    with_error = shot(page)
    w, _ = with_error.size
    # The error banner (and caret) appear below the field.
    assert changed_pixels(after, with_error, (0, 40, w, 110)) > 300
    page.close()


def test_a_users_file_opens_from_the_picker_and_by_drop(b):
    page = b.open(link("3"))
    page.set_input_files("#open-file", files=[{
        "name": "mine.txt", "mimeType": "text/plain",
        "buffer": b"# my patterns\n441\n(4,2x)*\n"}])
    s = wait_for(page, "s.playing === '441'")
    assert (s["playlist"], s["entry"], s["props"], s["error"]) == (2, 0, 3, None), s
    assert page.url.endswith("?pattern=441"), page.url
    page.keyboard.press("PageDown")
    s = wait_for(page, "s.playing === '(4,2x)*'")
    assert s["entry"] == 1, s
    page.evaluate("""() => {
        const data = new DataTransfer();
        data.items.add(new File(["[[pattern]]\\nname = 'Dropped'\\nsiteswap = '423'\\n"],
                                "dropped.toml"));
        document.getElementById("glcanvas").dispatchEvent(
            new DragEvent("drop", {dataTransfer: data, bubbles: true, cancelable: true}));
    }""")
    s = wait_for(page, "s.playing === '423'")
    assert s["name"] == "Dropped" and s["playlist"] == 1, s
    page.evaluate("""() => {
        const data = new DataTransfer();
        data.items.add(new File(["hello"], "photo.png"));
        document.getElementById("glcanvas").dispatchEvent(
            new DragEvent("drop", {dataTransfer: data, bubbles: true, cancelable: true}));
    }""")
    s = wait_for(page, "s.error !== null")
    assert "photo.png: not a pattern file" in s["error"] and s["playing"] == "423", s
    page.close()


def test_picking_from_the_library_updates_the_address(b):
    page = b.open(link("3", bps="2"), size=(960, 600))
    page.keyboard.press("Control+l")
    page.keyboard.type("shower")
    page.keyboard.press("Enter")
    s = wait_for(page, "s.playing === '3-ball shower'")
    assert (s["name"], s["period"], s["bps"], s["error"]) == ("3-ball shower", 2, 2.0, None), s
    assert page.url.endswith("?pattern=3-ball%20shower&bps=2"), page.url
    assert page.title() == "3-ball shower (51) - juggler", page.title()
    # Esc closes the list; PageDown plays the next pattern of that library file, and links it.
    page.keyboard.press("Escape")
    page.keyboard.press("PageDown")
    s = wait_for(page, "s.playing !== '3-ball shower'")
    assert s["entry"] is not None and s["error"] is None, s
    assert page.url.endswith(link(s["playing"], bps="2")), (page.url, s)
    page.close()


def test_the_page_fits_a_phone(b):
    page = b.open(link("3"), size=(390, 844))
    image = shot(page)
    coloured = coloured_pixels(image, scene_box(image))
    assert coloured > 1500, "only %d coloured pixels on a phone" % coloured
    page.close()


def test_the_drawing_buffer_is_the_cheap_one(b):
    """The WebGL context juggler.js asks for: no multisampling, alpha, depth or stencil (the
    browser's defaults would cost a third of the frame rate under SwiftShader)."""
    page = b.open(size=(640, 480))
    attributes = page.evaluate("""() => {
        const c = document.getElementById("glcanvas");
        const gl = c.getContext("webgl2") || c.getContext("webgl");
        return gl && gl.getContextAttributes();
    }""")
    assert attributes is not None, "no WebGL context on the canvas"
    for name in ("antialias", "alpha", "depth", "stencil"):
        assert attributes[name] is False, (name, attributes)
    assert attributes["preserveDrawingBuffer"] is False, attributes
    page.close()


def test_the_page_matches_the_desktop_screenshot_of_the_same_frame(b, desktop):
    """The same app on the same frame: the desktop window's --screenshot and the page."""
    if desktop is None:
        raise AssertionError("no desktop binary given (--desktop target/debug/juggler)")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "desktop.png")
        run = subprocess.run([desktop, "<3p|3p>", "--screenshot", path, "--at", "0.5"],
                             capture_output=True, text=True, timeout=120)
        assert run.returncode == 0, run.stderr
        want = Image.open(path).convert("RGB")
    page = b.open(link("<3p|3p>", at="0.5"), size=want.size)
    s = state(page)
    assert s["paused"] and abs(s["time"] - 0.5) < 1e-9, s
    got = shot(page)
    # The page's own "Open file" button is not part of the app.
    box = page.locator("#open").bounding_box()
    mask = (int(box["x"]) - 2, int(box["y"]) - 2,
            int(box["x"] + box["width"]) + 2, int(box["y"] + box["height"]) + 2)
    for image in (got, want):
        image.paste((0, 0, 0), mask)
    diff = ImageChops.difference(got, want).convert("L")
    values = list(diff.get_flattened_data())
    mean = sum(values) / len(values)
    far = sum(1 for v in values if v > 60) / len(values)
    got.save(os.path.join(RESULTS, "page-3p3p.png"))
    want.save(os.path.join(RESULTS, "desktop-3p3p.png"))
    print("  page vs desktop: mean difference %.3f of 255, %.3f %% of pixels off by > 60"
          % (mean, 100 * far))
    assert mean < 2.0 and far < 0.003, "page vs desktop: mean difference %.2f, %.2f %% of " \
        "pixels far off (see %s)" % (mean, 100 * far, RESULTS)
    page.close()


RESULTS = "target/web-test"
ONLY = ""


def run_tests(b, desktop):
    tests = [(name, fn) for name, fn in globals().items()
             if name.startswith("test_") and ONLY in name]
    passed, failed = 0, 0
    for name, fn in tests:
        started = time.time()
        try:
            if "desktop" in fn.__code__.co_varnames[:fn.__code__.co_argcount]:
                fn(b, desktop)
            else:
                fn(b)
            passed += 1
            print("test web::%s ... ok (%.1f s)" % (name, time.time() - started), flush=True)
        except Exception:
            failed += 1
            print("test web::%s ... FAILED" % name, flush=True)
            traceback.print_exc()
    # Every page of every test: nothing logged as an error.
    if b.console_errors:
        failed += 1
        print("test web::no_console_errors ... FAILED\n  " + "\n  ".join(b.console_errors))
    else:
        passed += 1
        print("test web::no_console_errors ... ok")
    return passed, failed


def bench(b):
    """First drawn frame after navigation, and frames per second while playing."""
    results = {"load average before": os.getloadavg()[0]}
    cases = [("3 at 1280x720", "3", (1280, 720)),
             ("3 at 800x600", "3", (800, 600)),
             ("10 jugglers, 100 props, at 1280x720", TEN_JUGGLERS, (1280, 720))]
    for name, pattern, (w, h) in cases:
        firsts = []
        for _ in range(3):
            page = b.browser.new_page(viewport={"width": w, "height": h})
            page.goto(b.site.url(link(pattern)))
            # performance.now() counts from navigation start; frame 2 begins once frame 1
            # is drawn.
            page.wait_for_function("window.jugglerFirstFrame !== undefined", timeout=30000)
            firsts.append(page.evaluate("window.jugglerFirstFrame"))
            page.close()
        page = b.browser.new_page(viewport={"width": w, "height": h})
        page.goto(b.site.url(link(pattern)))
        wait_for(page, "s.frames >= 30", timeout=60000)
        f0, t0 = page.evaluate("[window.jugglerState.frames, performance.now()]")
        page.wait_for_timeout(5000)
        f1, t1 = page.evaluate("[window.jugglerState.frames, performance.now()]")
        page.close()
        results[name] = {"first_frame_ms": sorted(firsts)[1],
                         "fps": (f1 - f0) / ((t1 - t0) / 1000.0)}
    results["load average after"] = os.getloadavg()[0]
    print(json.dumps(results, indent=2))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", default="target/web")
    parser.add_argument("--desktop", help="the desktop juggler binary, for the comparison test")
    parser.add_argument("--bench", action="store_true")
    parser.add_argument("--only", default="", help="run the tests whose name holds this")
    args = parser.parse_args()
    global ONLY
    ONLY = args.only
    os.makedirs(RESULTS, exist_ok=True)
    site = Site(args.site)
    try:
        with sync_playwright() as p:
            b = Browser(p, site)
            try:
                if args.bench:
                    bench(b)
                    return 0
                passed, failed = run_tests(b, args.desktop)
            finally:
                b.close()
    finally:
        site.close()
    print("\ntest result: %s. %d passed; %d failed; 0 ignored; 0 measured; 0 filtered out"
          % ("ok" if failed == 0 else "FAILED", passed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
