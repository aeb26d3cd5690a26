// juggler's page glue: a miniquad plugin (see miniquad's gl.js) between the page and the app.
//
// The app (Rust, src/app/web.rs) polls messages from here once per frame:
//   "query\n" + location.search        once, at start (the share link)
//   "file\n" + name + "\n" + text      a pattern file the user opened or dropped
//   "error\n" + message                a file that could not be read
// and calls back to replace the address (history.replaceState, no reload) and the title, and
// once per frame to describe what it shows (window.jugglerState: pattern, error, time, ...).
// Nothing here talks to the network.
"use strict";

(function () {
    const MAX_FILE_BYTES = 64 * 1024 * 1024; // as files::MAX_FILE_BYTES
    const encoder = new TextEncoder();
    const decoder = new TextDecoder();
    const messages = []; // Uint8Array each, oldest first

    function post(kind, text) {
        messages.push(encoder.encode(kind + "\n" + text));
    }

    // A string the app passed as (pointer, length) in its memory.
    function appString(ptr, len) {
        return decoder.decode(new Uint8Array(wasm_memory.buffer, ptr, len));
    }

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

    // The drawing buffer the app needs, asked for before miniquad's gl.js creates the WebGL
    // context (it passes no attributes, so the browser's defaults would apply). The app
    // draws in 2D, anti-aliases its own edges (src/render/gl) and clears every frame, so:
    // - antialias: false - no multisampled buffer to fill and resolve every frame (MSAA is
    //   the desktop window's --msaa option; the page never asked for it);
    // - alpha: false - an opaque canvas, composited with the page as a plain copy;
    // - depth, stencil: false - nothing is depth-tested, no buffer to clear per frame.
    // With software WebGL (SwiftShader, a browser without a usable GPU) the defaults cost
    // about a third of the frame rate at 1280x720; see BENCHMARKS.md.
    const CONTEXT_ATTRIBUTES = { antialias: false, alpha: false, depth: false, stencil: false };
    const canvas = document.getElementById("glcanvas");
    const getContext = canvas.getContext.bind(canvas);
    canvas.getContext = function (kind, attributes) {
        return getContext(kind, Object.assign({}, CONTEXT_ATTRIBUTES, attributes));
    };

    miniquad_add_plugin({
        name: "juggler",
        version: 1,
        register_plugin: function (importObject) {
            importObject.env.juggler_message_len = function () {
                return messages.length > 0 ? messages[0].length : -1;
            };
            importObject.env.juggler_message_take = function (ptr, len) {
                const message = messages.shift();
                new Uint8Array(wasm_memory.buffer, ptr, len).set(message.subarray(0, len));
            };
            importObject.env.juggler_set_address = function (ptr, len) {
                const query = appString(ptr, len);
                history.replaceState(null, "", query === "" ? location.pathname : query);
            };
            importObject.env.juggler_set_title = function (ptr, len) {
                document.title = appString(ptr, len);
            };
            importObject.env.juggler_set_state = function (ptr, len) {
                window.jugglerState = JSON.parse(appString(ptr, len));
                // Frame 2 begins once frame 1 is drawn: the time to the first frame.
                if (window.jugglerState.frames >= 2 && window.jugglerFirstFrame === undefined) {
                    window.jugglerFirstFrame = performance.now();
                }
            };
        },
        on_init: function () {
            post("query", location.search);
        },
    });

    // Files dropped anywhere on the page. Registered for the capture phase so that the app
    // gets the file's text from here, not only its name from miniquad's own drop handler.
    window.addEventListener("dragover", (e) => e.preventDefault(), true);
    window.addEventListener("drop", function (e) {
        e.preventDefault();
        e.stopPropagation();
        for (const file of e.dataTransfer.files) {
            openFile(file);
        }
        document.getElementById("glcanvas").focus();
    }, true);

    // The "Open file" button's file picker.
    window.addEventListener("DOMContentLoaded", function () {
        const picker = document.getElementById("open-file");
        picker.addEventListener("change", function () {
            for (const file of picker.files) {
                openFile(file);
            }
            picker.value = "";
            document.getElementById("glcanvas").focus();
        });
        document.getElementById("glcanvas").focus();
    });
})();
