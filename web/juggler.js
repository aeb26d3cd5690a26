// juggler's page: a miniquad plugin (see miniquad's gl.js) between the page's controls and the
// app (Rust, src/app/web/).
//
// The page posts messages the app takes once per frame:
//   "query\n" + search + hash            once, at start (the share link)
//   "file\n" + name + "\n" + text        a pattern file the user opened or dropped
//   "error\n" + message                  a file that could not be read
//   "action\n" + name + "\n" + value     a control (src/app/web/actions.rs: the one table)
// The app answers through the imports below: JSON documents (`state` every frame, `library`,
// `tools` and `video` when they have news), downloads, video frames for the browser's encoder,
// the address (history.replaceState) and the title. Nothing here talks to the network but the
// service worker's cache of the page itself (sw.js).
"use strict";

(function () {
    const MAX_FILE_BYTES = 64 * 1024 * 1024; // as files::MAX_FILE_BYTES
    // Drawing-buffer pixels at most: above this, software WebGL (SwiftShader, a browser with
    // no usable GPU) drops under 30 frames per second on a 2-core machine (BENCHMARKS.md).
    // The canvas then has fewer device pixels per CSS pixel than devicePixelRatio.
    const MAX_CANVAS_PIXELS = 1.2e6;
    const encoder = new TextEncoder();
    const decoder = new TextDecoder();
    const messages = []; // Uint8Array each, oldest first
    const $ = (id) => document.getElementById(id);
    const canvas = $("glcanvas");

    function post(kind, text) {
        messages.push(encoder.encode(kind + "\n" + text));
    }

    function act(name, value) {
        post("action", name + "\n" + (value === undefined ? "" : value));
    }

    // A string the app passed as (pointer, length) in its memory.
    function appString(ptr, len) {
        return decoder.decode(new Uint8Array(wasm_memory.buffer, ptr, len));
    }

    // ---- Sharp drawing: the drawing buffer follows devicePixelRatio, up to the cap. -------
    // miniquad reads the scale once at start (gl.js's dpi_scale), so it is fixed for the
    // page's life: the cap is worked out from the screen, the largest the canvas can become.
    const scale = (function () {
        const dpr = window.devicePixelRatio || 1;
        const w = Math.max(window.screen.width || 0, window.innerWidth, 1);
        const h = Math.max(window.screen.height || 0, window.innerHeight, 1);
        const cap = Math.sqrt(MAX_CANVAS_PIXELS / (w * h));
        return Math.max(1, Math.min(dpr, cap));
    })();
    window.dpi_scale = function () { return scale; };
    window.jugglerScale = scale;

    // The drawing buffer the app needs, asked for before gl.js creates the WebGL context (it
    // passes no attributes, so the browser's defaults would apply). The app draws in 2D,
    // anti-aliases its own edges (src/render/gl) and clears every frame, so: no multisampled
    // buffer, an opaque canvas, no depth or stencil buffer. Under SwiftShader the defaults
    // cost about a third of the frame rate at 1280x720 (BENCHMARKS.md).
    const CONTEXT_ATTRIBUTES = { antialias: false, alpha: false, depth: false, stencil: false };
    const getContext = canvas.getContext.bind(canvas);
    canvas.getContext = function (kind, attributes) {
        return getContext(kind, Object.assign({}, CONTEXT_ATTRIBUTES, attributes));
    };

    // The canvas changes size with the page's layout (a panel opens, the phone turns), not
    // only with the window: tell miniquad (its resize handler is window.onresize).
    new ResizeObserver(function () {
        if (typeof window.onresize === "function") {
            window.onresize();
        }
    }).observe(canvas);

    // ---- Files ------------------------------------------------------------------------------
    function openFile(file) {
        if (file.size > MAX_FILE_BYTES) {
            post("error", file.name + ": larger than 64 MiB");
            return;
        }
        file.text().then(
            (text) => post("file", file.name + "\n" + text),
            (err) => post("error", file.name + ": cannot be read (" + err + ")")
        );
    }

    function download(name, mime, bytes) {
        const url = URL.createObjectURL(new Blob([bytes], { type: mime }));
        const a = document.createElement("a");
        a.href = url;
        a.download = name;
        document.body.appendChild(a);
        a.click();
        a.remove();
        setTimeout(() => URL.revokeObjectURL(url), 60000);
    }

    // ---- Video: frames from the app, encoded by the browser (MediaRecorder) ------------------
    const VIDEO_TYPES = {
        webm: ["video/webm;codecs=vp9", "video/webm;codecs=vp8", "video/webm"],
        mp4: ["video/mp4;codecs=avc1", "video/mp4"],
    };
    function videoType(format) {
        if (typeof MediaRecorder === "undefined") {
            return null;
        }
        return (VIDEO_TYPES[format] || []).find((t) => MediaRecorder.isTypeSupported(t)) || null;
    }
    let video = null; // { canvas, context, track, recorder, chunks, queue, total, shown, timer }

    function startVideo(info) {
        const type = videoType(info.format);
        if (type === null) {
            act("export-cancel");
            showExportMessage(info.format.toUpperCase() + " video: this browser has no encoder");
            return;
        }
        const c = document.createElement("canvas");
        c.width = info.width;
        c.height = info.height;
        const context = c.getContext("2d");
        const stream = c.captureStream(0);
        const track = stream.getVideoTracks()[0];
        const recorder = new MediaRecorder(stream, { mimeType: type, videoBitsPerSecond: 4e6 });
        const v = { canvas: c, context, track, recorder, chunks: [], queue: [], total: info.frames,
                    shown: 0, name: info.name, type };
        recorder.ondataavailable = (e) => e.data.size > 0 && v.chunks.push(e.data);
        recorder.onstop = function () {
            const blob = new Blob(v.chunks, { type: type.split(";")[0] });
            blob.arrayBuffer().then((buffer) => download(v.name, blob.type, buffer));
            showExportMessage("saved " + v.name);
            video = null;
        };
        recorder.start();
        // The recorder stamps frames with the wall clock: show one every 1/fps seconds.
        v.timer = setInterval(function () {
            const frame = v.queue.shift();
            if (frame !== undefined) {
                v.context.putImageData(frame, 0, 0);
                v.track.requestFrame();
                v.shown += 1;
            }
            if (v.shown >= v.total && v.queue.length === 0) {
                clearInterval(v.timer);
                setTimeout(() => v.recorder.stop(), 1000 / info.fps + 50);
            }
        }, 1000 / info.fps);
        video = v;
    }

    // ---- The plugin: the app's imports ---------------------------------------------------------
    miniquad_add_plugin({
        name: "juggler",
        version: 1,
        register_plugin: function (importObject) {
            const env = importObject.env;
            env.juggler_message_len = function () {
                return messages.length > 0 ? messages[0].length : -1;
            };
            env.juggler_message_take = function (ptr, len) {
                const message = messages.shift();
                new Uint8Array(wasm_memory.buffer, ptr, len).set(message.subarray(0, len));
            };
            env.juggler_set_address = function (ptr, len) {
                const address = appString(ptr, len);
                history.replaceState(null, "", address === "" ? location.pathname : address);
            };
            env.juggler_set_title = function (ptr, len) {
                document.title = appString(ptr, len);
            };
            env.juggler_publish = function (kindPtr, kindLen, ptr, len) {
                const kind = appString(kindPtr, kindLen);
                const doc = JSON.parse(appString(ptr, len));
                if (kind === "state") {
                    showState(doc);
                } else if (kind === "library") {
                    showLibrary(doc);
                } else if (kind === "tools") {
                    showTools(doc);
                } else if (kind === "video") {
                    startVideo(doc);
                }
            };
            env.juggler_download = function (namePtr, nameLen, mimePtr, mimeLen, ptr, len) {
                const bytes = new Uint8Array(wasm_memory.buffer, ptr, len).slice();
                download(appString(namePtr, nameLen), appString(mimePtr, mimeLen), bytes);
            };
            env.juggler_video_frame = function (index, timestamp, width, height, ptr) {
                if (video === null) {
                    return;
                }
                const rgba = new Uint8ClampedArray(wasm_memory.buffer, ptr, width * height * 4).slice();
                video.queue.push(new ImageData(rgba, width, height));
            };
            env.juggler_video_backlog = function () {
                return video === null ? 0 : video.queue.length;
            };
        },
        on_init: function () {
            post("query", location.search + location.hash);
        },
    });

    // ---- State -> controls ---------------------------------------------------------------------
    let last = {};
    const svg = (body) => '<svg viewBox="0 0 20 20" width="20" height="20" aria-hidden="true">' + body + "</svg>";
    const PLAY_ICON = svg('<path d="M5 3.5v13l11-6.5z"/>');
    const PAUSE_ICON = svg('<rect x="4.5" y="4" width="4" height="12"/><rect x="11.5" y="4" width="4" height="12"/>');
    function set(element, property, value) {
        if (element[property] !== value) {
            element[property] = value;
        }
    }
    function pressed(element, on) {
        const value = on ? "true" : "false";
        if (element.getAttribute("aria-pressed") !== value) {
            element.setAttribute("aria-pressed", value);
        }
    }

    function showState(s) {
        window.jugglerState = s;
        // Frame 2 begins once frame 1 is drawn: the time to the first frame.
        if (s.frames >= 2 && window.jugglerFirstFrame === undefined) {
            window.jugglerFirstFrame = performance.now();
        }
        const field = $("pattern");
        if (document.activeElement !== field && (s.field !== last.field || s.playing !== last.playing)) {
            field.value = s.field;
        }
        const error = $("error");
        const errorKey = s.error ? s.error.text + "\n" + s.error.message + "\n" + s.error.column : "";
        if (errorKey !== last.errorKey) {
            error.textContent = "";
            if (s.error) {
                if (s.error.column !== null && s.error.column !== undefined) {
                    const caret = document.createElement("div");
                    caret.className = "caret";
                    caret.textContent = s.error.text + "\n" + " ".repeat(Math.max(0, s.error.column - 1)) + "^";
                    error.appendChild(caret);
                }
                error.appendChild(document.createTextNode(s.error.message));
            }
            error.hidden = !s.error;
            field.setAttribute("aria-invalid", s.error ? "true" : "false");
        }
        const play = $("play");
        if (s.paused !== last.paused) {
            play.innerHTML = s.paused ? PLAY_ICON : PAUSE_ICON;
            play.setAttribute("aria-label", s.paused ? "Play" : "Pause");
        }
        const slider = $("slider");
        if (!sliding) {
            const fraction = s.loop > 0 ? ((s.time % s.loop) + s.loop) % s.loop / s.loop : 0;
            set(slider, "value", String(Math.round(fraction * 1000)));
        }
        set($("time"), "textContent", (((s.time % s.loop) + s.loop) % s.loop).toFixed(2));
        set($("speed"), "textContent", s.speedLabel);
        for (const b of document.querySelectorAll("[data-prop]")) {
            pressed(b, b.dataset.prop === s.prop);
        }
        pressed($("diagram"), s.diagram);
        const info = s.name + (s.playlist > 1 && s.entry !== null ? "  (" + (s.entry + 1) + "/" + s.playlist + ")" : "");
        set($("info"), "textContent", info);
        showExport(s.export);
        showToolsState(s.tools);
        last = { field: s.field, playing: s.playing, paused: s.paused, errorKey };
    }

    // ---- Panels --------------------------------------------------------------------------------
    function openPanel(name, open) {
        for (const panel of document.querySelectorAll(".panel")) {
            const show = panel.id === name && (open === undefined ? panel.hidden : open);
            panel.hidden = !show;
        }
        for (const b of document.querySelectorAll("[data-panel]")) {
            pressed(b, !$(b.dataset.panel).hidden);
        }
        const shown = $(name);
        if (name === "library" && !shown.hidden) {
            const search = $("library-search");
            act("library-search", search.value);
            search.focus();
        } else if (shown.hidden) {
            canvas.focus();
        }
    }

    function showLibrary(doc) {
        const list = $("library-list");
        list.textContent = "";
        let group = null;
        for (const item of doc.items.slice(0, 400)) {
            if (item.group !== group) {
                group = item.group;
                const g = document.createElement("li");
                g.className = "group";
                g.textContent = group;
                list.appendChild(g);
            }
            const li = document.createElement("li");
            const b = document.createElement("button");
            b.textContent = item.name;
            if (item.notation && item.notation !== item.name) {
                const n = document.createElement("span");
                n.className = "notation";
                n.textContent = item.notation;
                b.appendChild(n);
            }
            b.addEventListener("click", function () {
                act("library-play", item.file + ":" + item.index);
                canvas.focus();
            });
            li.appendChild(b);
            list.appendChild(li);
        }
        if (doc.items.length === 0) {
            const li = document.createElement("li");
            li.className = "group";
            li.textContent = "no pattern matches";
            list.appendChild(li);
        }
    }

    function showExportMessage(text) {
        $("export-status").textContent = text;
    }
    let lastExport = "";
    function showExport(e) {
        const key = JSON.stringify(e);
        if (key === lastExport) {
            return;
        }
        lastExport = key;
        const running = e.state === "running";
        $("export-start").disabled = running || video !== null;
        $("export-cancel").hidden = !running;
        const progress = $("export-progress");
        progress.hidden = !running;
        if (running) {
            progress.max = Math.max(1, e.total);
            progress.value = e.done;
            showExportMessage(e.done + " / " + e.total + " frames");
        } else if (e.state === "done") {
            showExportMessage(video !== null ? "encoding video..." : "saved " + e.file);
        } else if (e.state === "failed") {
            showExportMessage(e.message);
        }
    }

    let toolsResults = [];
    function showTools(doc) {
        const list = $("tools-list");
        if (doc.start === 0) {
            list.textContent = "";
            toolsResults = [];
        }
        doc.results.forEach(function (r, i) {
            const index = doc.start + i;
            toolsResults[index] = r;
            const li = document.createElement("li");
            const b = document.createElement("button");
            b.textContent = r.label;
            b.addEventListener("click", () => act("tools-play", index));
            li.appendChild(b);
            list.appendChild(li);
        });
    }
    let lastTools = "";
    function showToolsState(t) {
        const key = JSON.stringify(t);
        if (key === lastTools) {
            return;
        }
        lastTools = key;
        $("tools-cancel").hidden = t.state !== "running";
        const status = t.state === "running" ? "searching... " + t.count + " found"
            : t.state === "done" ? t.count + (t.count === 1 ? " pattern" : " patterns") + (t.count >= 500 ? " (the first 500)" : "")
            : t.state === "failed" ? t.message : "";
        $("tools-status").textContent = status;
    }

    let noteTimer = null;
    function note(text) {
        const n = $("note");
        n.textContent = text;
        n.hidden = false;
        clearTimeout(noteTimer);
        noteTimer = setTimeout(() => { n.hidden = true; }, 2000);
    }

    // ---- Controls -> app -----------------------------------------------------------------------
    let sliding = false;
    // Keys of the canvas that are the app's (their browser default is prevented; Tab is not
    // one: it moves to the page's controls), and shortcut characters that type nothing
    // (src/app/input.rs SHORTCUT_CHARS).
    const APP_KEYS = new Set(["Space", "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home",
        "End", "PageUp", "PageDown", "Escape", "F4", "Backspace"]);
    const SHORTCUTS = " +=-_.>,";

    function startTyping(text) {
        const field = $("pattern");
        field.value = text;
        field.focus();
        field.setSelectionRange(text.length, text.length);
        if (window.jugglerState && window.jugglerState.error) {
            act("check", text);
        }
    }

    window.addEventListener("DOMContentLoaded", function () {
        const field = $("pattern");
        $("pattern-form").addEventListener("submit", function (e) {
            e.preventDefault();
            act("load", field.value);
            // The phone's keyboard goes away; an error shows under the field.
            canvas.focus();
        });
        field.addEventListener("input", function () {
            if (window.jugglerState && window.jugglerState.error) {
                act("check", field.value);
            }
        });
        field.addEventListener("keydown", function (e) {
            if (e.key === "Escape") {
                e.preventDefault();
                field.value = window.jugglerState ? window.jugglerState.playing : field.value;
                act("escape");
                canvas.focus();
            }
        });

        for (const b of document.querySelectorAll("[data-action]")) {
            b.addEventListener("click", function () {
                act(b.dataset.action, b.dataset.value);
            });
        }
        for (const b of document.querySelectorAll("[data-prop]")) {
            b.addEventListener("click", () => act("prop", b.dataset.prop));
        }
        for (const b of document.querySelectorAll("[data-panel]")) {
            b.addEventListener("click", () => openPanel(b.dataset.panel));
        }
        for (const b of document.querySelectorAll("[data-close]")) {
            b.addEventListener("click", () => openPanel(b.closest(".panel").id, false));
        }

        const slider = $("slider");
        slider.addEventListener("input", function () {
            sliding = true;
            act("scrub", slider.value / 1000);
        });
        slider.addEventListener("change", function () {
            sliding = false;
            canvas.focus();
        });

        $("library-search").addEventListener("input", (e) => act("library-search", e.target.value));
        $("library-search").addEventListener("keydown", function (e) {
            if (e.key === "Enter") {
                e.preventDefault();
                const first = $("library-list").querySelector("button");
                if (first) {
                    first.click();
                }
            } else if (e.key === "Escape") {
                openPanel("library", false);
            }
        });

        $("export-start").addEventListener("click", function () {
            const format = $("export-format").value;
            if ((format === "webm" || format === "mp4") && videoType(format) === null) {
                showExportMessage(format.toUpperCase() + " video: this browser has no encoder");
                return;
            }
            const loops = Math.max(1, Math.min(20, parseInt($("export-loops").value, 10) || 1));
            act("export", JSON.stringify({ format, size: $("export-size").value, loops }));
        });
        $("export-cancel").addEventListener("click", function () {
            act("export-cancel");
            if (video !== null) {
                clearInterval(video.timer);
                video.recorder.onstop = null;
                video.recorder.stop();
                video = null;
            }
        });
        for (const format of ["webm", "mp4"]) {
            if (videoType(format) === null) {
                const option = $("export-format").querySelector("option[value=" + format + "]");
                option.disabled = true;
                option.textContent += " (not in this browser)";
            }
        }

        const numberOf = (id) => parseInt($(id).value, 10);
        const throws = (id) => $(id).value.split(/[\s,]+/).filter((t) => t !== "");
        $("gen-form").addEventListener("submit", function (e) {
            e.preventDefault();
            act("tools", JSON.stringify({
                tool: "generate", props: numberOf("gen-props") || 0,
                max_throw: numberOf("gen-max") || null, period: numberOf("gen-period") || null,
                jugglers: numberOf("gen-jugglers") || 1, sync: $("gen-sync").checked,
                ground: $("gen-ground").value, include: throws("gen-include"),
                exclude: throws("gen-exclude"),
            }));
        });
        $("trans-form").addEventListener("submit", function (e) {
            e.preventDefault();
            act("tools", JSON.stringify({ tool: "transitions", to: $("trans-to").value }));
        });
        $("tools-cancel").addEventListener("click", () => act("tools-cancel"));

        $("share").addEventListener("click", function () {
            const url = location.href;
            const done = () => note("Link copied");
            if (navigator.clipboard && navigator.clipboard.writeText) {
                navigator.clipboard.writeText(url).then(done, () => fallbackCopy(url) ? done() : note(url));
            } else if (fallbackCopy(url)) {
                done();
            } else {
                note(url);
            }
            canvas.focus();
        });
        $("fullscreen").addEventListener("click", function () {
            if (document.fullscreenElement) {
                document.exitFullscreen();
            } else if (document.documentElement.requestFullscreen) {
                document.documentElement.requestFullscreen().catch(() => note("no fullscreen here"));
            }
            canvas.focus();
        });

        // The "Open file" button's file picker; focus returns to the app whatever happens.
        const picker = $("open-file");
        $("open").addEventListener("click", () => picker.click());
        picker.addEventListener("change", function () {
            for (const file of picker.files) {
                openFile(file);
            }
            picker.value = "";
            canvas.focus();
        });
        picker.addEventListener("cancel", () => canvas.focus());

        // Buttons give the keys back to the app once clicked (not the text fields).
        document.querySelector("footer").addEventListener("click", function (e) {
            if (e.target.closest("button") && !e.target.closest("[data-panel]") &&
                e.target.id !== "open") {
                canvas.focus();
            }
        });
        canvas.focus();
    });

    function fallbackCopy(text) {
        const area = document.createElement("textarea");
        area.value = text;
        document.body.appendChild(area);
        area.select();
        let ok = false;
        try {
            ok = document.execCommand("copy");
        } catch (e) {
            ok = false;
        }
        area.remove();
        return ok;
    }

    // Keys. The browser's own keys (Ctrl/Cmd with a letter: L, D, R, Q, T, W, N, ...) never
    // reach the app, whose desktop shortcuts they are; the keys the app uses on the canvas
    // have their default prevented; typing a character on the canvas starts a new pattern in
    // the Pattern field. Registered for the capture phase, before miniquad's canvas handlers.
    window.addEventListener("keydown", function (e) {
        if (e.target !== canvas) {
            return;
        }
        // miniquad would prevent Tab: it moves to the page's controls instead.
        if (e.ctrlKey || e.metaKey || e.altKey || e.key === "Tab") {
            e.stopPropagation();
            return;
        }
        if (e.key === "F1" || e.key === "?") {
            e.preventDefault();
            e.stopPropagation();
            openPanel("help");
            return;
        }
        if (e.key === "F3") {
            e.preventDefault();
            e.stopPropagation();
            openPanel("library");
            return;
        }
        if (e.key === "Enter") {
            e.preventDefault();
            e.stopPropagation();
            startTyping($("pattern").value);
            $("pattern").select();
            return;
        }
        if (e.key.length === 1 && !SHORTCUTS.includes(e.key)) {
            e.preventDefault();
            e.stopPropagation();
            startTyping(e.key);
            return;
        }
        // (Not the shortcut characters: a prevented keydown sends no character to the app.)
        if (APP_KEYS.has(e.code)) {
            e.preventDefault();
        }
    }, true);

    // Files dropped anywhere on the page. Registered for the capture phase so that the app
    // gets the file's text from here, not only its name from miniquad's own drop handler.
    window.addEventListener("dragover", (e) => e.preventDefault(), true);
    window.addEventListener("drop", function (e) {
        e.preventDefault();
        e.stopPropagation();
        for (const file of e.dataTransfer.files) {
            openFile(file);
        }
        canvas.focus();
    }, true);

    // Installable and offline: the service worker keeps the page (sw.js); the browser looks
    // for a new one (a new build) as it navigates to the page.
    if ("serviceWorker" in navigator && location.protocol !== "file:") {
        navigator.serviceWorker.register("sw.js").catch(function (err) {
            console.warn("juggler: no offline copy (" + err + ")");
        });
    }
})();
