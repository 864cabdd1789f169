// Live pages without a reload (core/live.py; docs/architecture.md, "Live pages").
//
// A page that can change carries <meta name="live-version"> (its ETag). Every few seconds, while
// the page is visible, this asks the page's own URL again with "X-Live: 1" and If-None-Match:
// the server answers 304 (nothing changed, no page made) or the new page, whose <main> is put in
// place of this one. If the reader is typing in a form (or a control of the page has the focus),
// nothing is swapped under their hands: a line says the page has changed, with a link to see it.
// A countdown reaching zero asks at once for the page as it now is (the server decides what
// closes with the clock). Without JavaScript the page is an ordinary page.
(function () {
  "use strict";
  var meta = document.querySelector('meta[name="live-version"]');
  var main = document.querySelector("main");
  if (!meta || !main || !window.fetch || !window.DOMParser) { return; }
  var version = meta.content;
  var every = 5000;
  var busy = false;
  var typed = false; // the reader changed a field of a form on this page
  var timer = null;
  var halted = false; // the page changed under a reader's hands: their link shows it

  main.addEventListener("input", function () { typed = true; });
  main.addEventListener("change", function () { typed = true; });

  function inUse() {
    var active = document.activeElement;
    return typed || (active && active !== document.body && main.contains(active));
  }

  function openDetails(root) {
    return Array.prototype.map.call(root.querySelectorAll("details"), function (d) { return d.open; });
  }

  function swap(html) {
    var fresh = new DOMParser().parseFromString(html, "text/html");
    var next = fresh.querySelector("main");
    if (!next) { return; }
    var opened = openDetails(main);
    var messages = main.querySelector(".messages");
    main.innerHTML = next.innerHTML;
    main.querySelectorAll("details").forEach(function (d, i) { if (opened[i]) { d.open = true; } });
    if (messages && !main.querySelector(".messages")) { main.insertBefore(messages, main.firstChild); }
    if (fresh.title) { document.title = fresh.title; }
    if (window.bridgeClock) { window.bridgeClock.tick(); }
    var status = document.getElementById("live-status");
    if (status) { status.textContent = status.dataset.text || ""; }
    document.dispatchEvent(new CustomEvent("bridge:updated"));
  }

  function changed() {
    halted = true;
    var line = document.getElementById("live-changed");
    if (line) { line.hidden = false; }
  }

  function poll(fresh) {
    if (busy) { return; }
    busy = true;
    var headers = { "X-Live": "1" };
    if (!fresh) { headers["If-None-Match"] = version; }
    fetch(window.location.href, { headers: headers, cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        if (window.bridgeClock && response.headers.get("Date")) {
          window.bridgeClock.sync(Date.parse(response.headers.get("Date")));
        }
        if (response.status === 304 || !response.ok) { return null; }
        var tag = response.headers.get("ETag");
        return response.text().then(function (html) {
          if (inUse()) { changed(); stop(); return; } // the reader's link shows the new page
          if (tag) { version = tag; }
          swap(html);
        });
      })
      .catch(function () { /* offline for a moment: the next poll tries again */ })
      .then(function () { busy = false; });
  }

  function start() {
    if (timer === null && !halted) { timer = setInterval(function () { poll(false); }, every); }
  }
  function stop() {
    if (timer !== null) { clearInterval(timer); timer = null; }
  }

  document.addEventListener("visibilitychange", function () {
    if (document.hidden) { stop(); } else if (!halted) { poll(false); start(); }
  });
  document.addEventListener("bridge:deadline", function () {
    if (!halted) { setTimeout(function () { poll(true); }, 1000); }
  });
  if (!document.hidden) { start(); }
})();
