// juggler's service worker: keeps the page (these files) so that a visited page reloads and
// works with no network. scripts/web.sh writes the build's id below; a new build is a new
// worker, which fetches the new files, takes over and deletes the old copy.
"use strict";

const BUILD = "juggler-BUILD_ID";
const FILES = ["./", "index.html", "juggler.js", "gl.js", "juggler.wasm", "manifest.webmanifest",
               "icon.svg", "icon-192.png", "icon-512.png"];

self.addEventListener("install", function (event) {
    event.waitUntil(caches.open(BUILD)
        .then((cache) => cache.addAll(FILES.map((f) => new Request(f, { cache: "reload" }))))
        .then(() => self.skipWaiting()));
});

self.addEventListener("activate", function (event) {
    event.waitUntil(caches.keys()
        .then((names) => Promise.all(names.filter((n) => n !== BUILD).map((n) => caches.delete(n))))
        .then(() => self.clients.claim()));
});

// The page's own files from the copy (any query: share links are index.html?pattern=...);
// anything else from the network.
self.addEventListener("fetch", function (event) {
    const request = event.request;
    if (request.method !== "GET" || new URL(request.url).origin !== location.origin) {
        return;
    }
    event.respondWith(caches.open(BUILD)
        .then((cache) => cache.match(request, { ignoreSearch: true }))
        .then((kept) => kept || fetch(request)));
});
