// Times on ruling pages: in the tournament's time zone (data-zone), in the reader's own date
// format (the browser's locale when it speaks the page's language, else the page's language).
// Without JavaScript the server's text stays: the same time, written 2026-11-23 14:05.
(function () {
  "use strict";
  if (!window.Intl || !Intl.DateTimeFormat) { return; }
  var page = (document.documentElement.lang || "en").toLowerCase();
  var locales = (navigator.languages || [navigator.language || page]).filter(function (tag) {
    return tag && tag.toLowerCase().split("-")[0] === page.split("-")[0];
  });
  locales.push(page);
  document.querySelectorAll("time[data-zone]").forEach(function (node) {
    var when = new Date(node.getAttribute("datetime"));
    if (isNaN(when.getTime())) { return; }
    try {
      node.textContent = new Intl.DateTimeFormat(locales, {
        dateStyle: "medium", timeStyle: "short", timeZone: node.dataset.zone
      }).format(when);
      node.title = node.dataset.zone;
    } catch (error) { /* an unknown zone: keep the server's text */ }
  });
})();
