// The service worker (issue #31): written small, no library. Served from /sw.js (scope: the
// whole site). Every page and file the phone fetches from this site is kept in one cache and
// served from it when there is no network (network first: the phone shows the newest it can).
// The tournament's pages are put in the same cache by offline.js when the director opens the
// tournament. API calls and the admin are never kept; drafts live in IndexedDB (drafts.js).
"use strict";
var CACHE = "bridgecases-pages-v1";
var FALLBACK = "/offline/";
var DRAFTS_PAGE = "/rulings/drafts/";

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(CACHE).then(function (cache) { return cache.add(FALLBACK); }).then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) { return name.indexOf("bridgecases-pages-") === 0 && name !== CACHE; })
        .map(function (name) { return caches.delete(name); }));
    }).then(function () { return self.clients.claim(); })
  );
});

function kept(request, url) {
  return request.method === "GET" && url.origin === self.location.origin &&
    url.pathname.indexOf("/api/") !== 0 && url.pathname.indexOf("/admin/") !== 0 && url.pathname !== "/sw.js";
}

function fromCache(request, url) {
  // The drafts page is one page whatever its query (?session=..&board=..&table=..).
  var options = { ignoreVary: true, ignoreSearch: url.pathname === DRAFTS_PAGE };
  return caches.open(CACHE).then(function (cache) {
    return cache.match(request, options).then(function (hit) {
      if (hit) { return hit; }
      if (request.mode === "navigate") { return cache.match(FALLBACK, { ignoreVary: true }); }
      return undefined;
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (!kept(request, url)) { return; }
  event.respondWith(
    fetch(request).then(function (response) {
      // A page that sent the phone to log in (a redirect) or an error is not kept.
      if (response.ok && response.type === "basic" && !response.redirected) {
        var copy = response.clone();
        caches.open(CACHE).then(function (cache) { return cache.put(request, copy); });
      }
      return response;
    }).catch(function () {
      return fromCache(request, url).then(function (hit) { return hit || Response.error(); });
    })
  );
});

// Background Sync where the browser has it (Chrome on Android): the pages send the drafts.
self.addEventListener("sync", function (event) {
  if (event.tag !== "send-drafts") { return; }
  event.waitUntil(self.clients.matchAll({ type: "window" }).then(function (clients) {
    clients.forEach(function (client) { client.postMessage({ type: "send-drafts" }); });
  }));
});
