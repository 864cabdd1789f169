// The appeal windows: minutes and seconds left until each deadline, updated every second.
(function () {
  "use strict";
  var clocks = document.querySelectorAll(".countdown[data-deadline]");
  function pad(n) { return n < 10 ? "0" + n : String(n); }
  function tick() {
    var now = Date.now();
    clocks.forEach(function (clock) {
      var left = Math.round((Date.parse(clock.dataset.deadline) - now) / 1000);
      if (left <= 0) { clock.textContent = "0:00"; clock.classList.add("expired"); return; }
      var h = Math.floor(left / 3600), m = Math.floor((left % 3600) / 60), s = left % 60;
      clock.textContent = (h ? h + ":" + pad(m) : m) + ":" + pad(s);
    });
  }
  if (clocks.length) { tick(); setInterval(tick, 1000); }
})();
