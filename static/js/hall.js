// The hall's screen (appeals/hall_screen.html) shows itself again every data-refresh seconds:
// nobody stands at the screen to reload it. It asks its own address and swaps the new <main> in
// place (no blank flash across the room); a failed request keeps what is shown and tries again
// at the next turn, and the clocks keep counting (countdown.js).
(function () {
  "use strict";
  var main = document.querySelector("main[data-refresh]");
  if (!main) { return; }
  var seconds = parseInt(main.getAttribute("data-refresh"), 10) || 30;

  function again() {
    fetch(window.location.href, { credentials: "omit", cache: "no-store" })
      .then(function (response) {
        if (!response.ok) { throw new Error(String(response.status)); }
        return response.text();
      })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html").querySelector("main");
        if (fresh) {
          main.innerHTML = fresh.innerHTML;
          main.setAttribute("data-shown-at", String(Date.now()));
          if (window.bridgeClock && window.bridgeClock.tick) { window.bridgeClock.tick(); }
        }
      })
      .catch(function () { /* the network or the server is away: keep the screen as it is */ })
      .then(function () { window.setTimeout(again, seconds * 1000); });
  }
  window.setTimeout(again, seconds * 1000);
})();
