// Every deadline on a page counted down each second, by the server's clock, in the reader's
// language; at zero it says "closed" (the words the server gave: data-closed).
//
// The markup is the `countdown` filter's (core/templatetags/reader.py):
//   <span class="remaining" role="timer" data-deadline="2026-05-01T21:30:00+01:00"
//         data-left="%(time)s left" data-closed="closed">2 hours, 5 minutes left</span>
// The server's clock: <meta name="server-now"> (base.html), taken as the page arrived; the
// difference from the phone's own clock is kept and applied to every tick. live.js calls
// window.bridgeClock.sync() with each answer's Date header and tick() after swapping a page.
(function () {
  "use strict";
  var skew = 0; // server clock minus this device's clock, in milliseconds
  var lang = document.documentElement.lang || "en";
  var words = null;
  try {
    if (typeof Intl !== "undefined" && Intl.DurationFormat) {
      words = new Intl.DurationFormat(lang, { style: "long" });
    }
  } catch (e) {
    words = null;
  }

  function arrived() {
    // When the page's answer reached this device: the navigation's responseStart, else now.
    try {
      var nav = performance.getEntriesByType("navigation")[0];
      if (nav && nav.responseStart > 0) { return performance.timeOrigin + nav.responseStart; }
    } catch (e) { /* older browsers */ }
    return Date.now();
  }

  var meta = document.querySelector('meta[name="server-now"]');
  if (meta) {
    var server = Date.parse(meta.content);
    if (!isNaN(server)) { skew = server - arrived(); }
  }

  function now() { return Date.now() + skew; }

  function pad(n) { return n < 10 ? "0" + n : String(n); }

  function duration(seconds) {
    // The two largest units, as the server's words do; seconds in the last hour.
    var d = Math.floor(seconds / 86400), h = Math.floor((seconds % 86400) / 3600);
    var m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
    var parts;
    if (d) { parts = { days: d, hours: h }; }
    else if (h) { parts = { hours: h, minutes: m }; }
    else { parts = { minutes: m, seconds: s }; }
    Object.keys(parts).forEach(function (k) { if (!parts[k]) { delete parts[k]; } });
    if (words) {
      try { return words.format(parts); } catch (e) { /* fall through to digits */ }
    }
    var clock = (h || d ? (d * 24 + h) + ":" + pad(m) : String(m)) + ":" + pad(s);
    return clock;
  }

  var running = {}; // deadline -> true while seen running, false once it ran out here

  function tick() {
    var at = now();
    document.querySelectorAll("[data-deadline]").forEach(function (clock) {
      var end = Date.parse(clock.dataset.deadline);
      if (isNaN(end)) { return; }
      var left = Math.ceil((end - at) / 1000);
      var text;
      if (left <= 0) {
        text = clock.dataset.closed || "0:00";
        clock.classList.add("expired");
        if (running[clock.dataset.deadline] === true) {
          // It ran out while the page was open: once per deadline, whatever swaps the page.
          running[clock.dataset.deadline] = false;
          document.dispatchEvent(new CustomEvent("bridge:deadline", { detail: clock.dataset.deadline }));
        }
      } else {
        if (!(clock.dataset.deadline in running)) { running[clock.dataset.deadline] = true; }
        var template = clock.dataset.left || "%(time)s";
        text = template.replace("%(time)s", duration(left));
      }
      if (clock.textContent !== text) { clock.textContent = text; }
    });
    // A wall clock (the notice board's): the server's time in the tournament's zone.
    document.querySelectorAll("[data-clock]").forEach(function (wall) {
      var text;
      try {
        text = new Intl.DateTimeFormat(lang, {
          timeZone: wall.dataset.clock, hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23"
        }).format(new Date(at));
      } catch (e) {
        return; // keeps the server's text
      }
      if (wall.textContent !== text) { wall.textContent = text; }
    });
  }

  window.bridgeClock = {
    now: now,
    tick: tick,
    sync: function (serverMillis) {
      // A later answer's Date header (whole seconds): move only if it disagrees by more than a second.
      if (isNaN(serverMillis)) { return; }
      var seen = serverMillis - Date.now();
      if (Math.abs(seen - skew) > 1500) { skew = seen; }
    }
  };

  tick();
  setInterval(tick, 1000);
})();
