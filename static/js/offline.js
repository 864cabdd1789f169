// The phone's offline side (issue #31): the service worker registered, the "offline" banner
// with the time the page was fetched, the tournament's pages saved when it is opened, the
// ruling drafts page (drafts.js keeps and sends the drafts), and the "Send now" button.
(function () {
  "use strict";
  var CACHE = "bridgecases-pages-v1";
  var script = document.querySelector("script[data-service-worker]");

  function fill(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (_m, name) { return values[name]; });
  }
  // A time as the tournament reads it: in its zone (data-zone on the page's offline parts), in
  // the page's language; the phone's own zone only where the page names none.
  function when(iso, zone) {
    var moment = new Date(iso);
    if (isNaN(moment)) { return ""; }
    var lang = document.documentElement.lang || undefined;
    if (zone) {
      try {
        return moment.toLocaleString(lang, { timeZone: zone, dateStyle: "medium", timeStyle: "short" }) + " (" + zone + ")";
      } catch (e) { /* a zone this browser does not know */ }
    }
    return moment.toLocaleString(lang);
  }

  // Whether this browser keeps pages for offline use: its service worker registered and active.
  // A browser that refuses it (a private window, a policy, storage full) opens nothing offline,
  // whatever the page's cache holds, so nothing says "saved" then.
  var keeping = Promise.resolve(false);
  if (script && "serviceWorker" in navigator) {
    keeping = navigator.serviceWorker.register(script.dataset.serviceWorker, { scope: "/" })
      .then(function () {
        // Active within 15 seconds, or refused: a blocked worker registers and never becomes ready.
        return Promise.race([
          navigator.serviceWorker.ready.then(function () { return true; }),
          new Promise(function (resolve) { window.setTimeout(function () { resolve(false); }, 15000); })
        ]);
      })
      .then(function (ready) { return ready; }, function () { return false; });
  }

  // --- The banner ---------------------------------------------------------------------------
  var banner = document.getElementById("offline-banner");
  function waitingCount() {
    if (!window.BridgeDrafts) { return Promise.resolve(0); }
    return window.BridgeDrafts.all().then(function (drafts) {
      return drafts.filter(function (d) { return d.state === "saved" || d.state === "sending"; }).length;
    }, function () { return 0; });
  }
  function showBanner() {
    if (!banner) { return; }
    var fetched = document.querySelector("meta[name=page-fetched-at]");
    waitingCount().then(function (waiting) {
      var offline = !navigator.onLine;
      banner.querySelector(".offline-text").textContent = offline && fetched ? fill(banner.dataset.fetched, { time: when(fetched.content, banner.dataset.zone) }) : "";
      banner.querySelector(".offline-drafts").textContent = waiting ? fill(banner.dataset.waiting, { count: waiting }) : "";
      banner.querySelector(".send-now").hidden = !waiting;
      banner.hidden = !offline && !waiting;
    });
  }
  window.addEventListener("online", showBanner);
  window.addEventListener("offline", showBanner);
  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest(".send-now") : null;
    if (button && window.BridgeDrafts) { window.BridgeDrafts.sendAll(); }
    // With no network, a table's "Ruling" link opens a draft for that board and table.
    var link = event.target.closest ? event.target.closest("a[data-offline-draft]") : null;
    if (link && !navigator.onLine) { event.preventDefault(); window.location.href = link.dataset.offlineDraft; }
  });
  // Logging out forgets the pages kept (another person may use the phone); drafts are kept.
  document.querySelectorAll("form[action='/logout/']").forEach(function (form) {
    form.addEventListener("submit", function () { if (window.caches) { caches.delete(CACHE); } });
  });

  // --- A tournament's pages saved when it is opened ---------------------------------------------
  var keep = document.getElementById("offline-keep");
  function saveTournament() {
    if (!keep || !navigator.onLine) { return; }
    if (!window.caches) { refused(); return; }
    keeping.then(function (kept) { if (kept) { savePages(); } else { refused(); } });
  }
  function refused() {
    keep.textContent = keep.dataset.refused;
    keep.dataset.done = "refused";
  }
  function savePages() {
    fetch(keep.dataset.bundle, { credentials: "same-origin" }).then(function (r) { return r.json(); }).then(function (bundle) {
      var urls = bundle.urls.slice(), total = urls.length, done = 0, failed = 0;
      return caches.open(CACHE).then(function (cache) {
        function next() {
          var url = urls.shift();
          if (!url) { return Promise.resolve(); }
          return fetch(url, { credentials: "same-origin" }).then(function (response) {
            if (!response.ok || response.redirected) { failed += 1; return; }
            return cache.put(url, response);
          }).catch(function () { failed += 1; }).then(function () {
            done += 1;
            keep.textContent = fill(keep.dataset.saving, { done: done, total: total });
            return next();
          });
        }
        return Promise.all([next(), next(), next(), next()]).then(function () {
          keep.textContent = failed ? fill(keep.dataset.failed, { failed: failed, total: total })
            : fill(keep.dataset.saved, { total: total, time: when(bundle.fetched_at, keep.dataset.zone) });
          keep.dataset.done = failed ? "failed" : "saved";
        });
      });
    }).catch(function () {});
  }

  // --- The drafts page ------------------------------------------------------------------------
  var form = document.getElementById("draft-form");
  var list = document.getElementById("draft-list");
  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) { node.className = className; }
    if (text) { node.textContent = text; }
    return node;
  }
  function renderDrafts() {
    if (!list || !window.BridgeDrafts) { return; }
    window.BridgeDrafts.all().then(function (drafts) {
      var words = list.dataset;
      list.textContent = "";
      document.querySelector(".drafts-empty").hidden = drafts.length > 0;
      drafts.forEach(function (draft) {
        var item = element("li", "draft draft-" + draft.state);
        item.dataset.state = draft.state;
        item.appendChild(element("strong", "draft-summary", draft.summary));
        item.appendChild(element("span", "draft-state", " · " + words["state" + draft.state.charAt(0).toUpperCase() + draft.state.slice(1)]));
        var zone = zoneOf(draft);
        item.appendChild(element("div", "draft-phone-time muted", fill(words.phoneTime, { time: when(draft.created, zone) })));
        if (draft.received_at) { item.appendChild(element("div", "draft-server-time muted", fill(words.serverTime, { time: when(draft.received_at, zone) }))); }
        if (draft.state === "attention") { item.appendChild(element("p", "draft-message error", draft.message)); }
        var actions = element("div", "draft-actions");
        if (draft.ruling) {
          var link = element("a", "", words.open);
          link.href = draft.ruling;
          actions.appendChild(link);
        }
        if (draft.state === "attention" && draft.conflict && draft.first) {
          var merge = element("a", "merge", words.merge);
          merge.href = draft.first;
          actions.appendChild(merge);
        }
        if (draft.state === "attention" && draft.conflict) {
          var again = element("button", "further", words.further);
          again.type = "button";
          again.addEventListener("click", function () { window.BridgeDrafts.further(draft.id); });
          actions.appendChild(again);
        }
        if (draft.state === "attention" && !draft.conflict) {
          var correct = element("button", "correct", words.correct);
          correct.type = "button";
          correct.addEventListener("click", function () { openForCorrection(draft); });
          actions.appendChild(correct);
        }
        if (draft.state !== "sending") {
          var remove = element("button", "delete secondary", words.delete);
          remove.type = "button";
          remove.addEventListener("click", function () {
            if (draft.state === "sent" || window.confirm(words.confirmDelete)) { window.BridgeDrafts.remove(draft.id); }
          });
          actions.appendChild(remove);
        }
        item.appendChild(actions);
        list.appendChild(item);
      });
    });
  }
  // The tournament's zone of a draft's session: its times read there, not in the phone's zone.
  function zoneOf(draft) {
    var zones = {};
    try { zones = JSON.parse(list.dataset.zones || "{}"); } catch (e) { zones = {}; }
    var session = "";
    try { session = String(JSON.parse(draft.body).session || ""); } catch (e) { session = ""; }
    return zones[session] || "";
  }
  var PLACE = ["session", "board", "table", "section", "round", "seen_result"];
  function setValue(name, value) {
    var control = form.elements[name];
    if (!control) { return; }
    var nodes = control.length !== undefined && !control.options ? Array.prototype.slice.call(control) : [control];
    nodes.forEach(function (node) {
      if (node.type === "checkbox" || node.type === "radio") { node.checked = node.value === String(value); }
      else { node.value = value; }
    });
  }
  function clearMarks() {
    Array.prototype.forEach.call(form.querySelectorAll(".draft-errors"), function (node) { node.remove(); });
    Array.prototype.forEach.call(form.querySelectorAll(".field-error"), function (node) { node.classList.remove("field-error"); });
    Array.prototype.forEach.call(form.querySelectorAll("[aria-invalid]"), function (node) { node.removeAttribute("aria-invalid"); });
    var notice = form.querySelector(".correcting");
    notice.hidden = true;
    notice.textContent = "";
    form.elements.draft_id.value = "";
  }
  // A draft the server refused on a field, opened in the form with the refused fields marked and
  // their reasons beside them: corrected and saved, it is the same draft, sent again.
  function openForCorrection(draft) {
    clearMarks();
    form.reset();
    var body = JSON.parse(draft.body), fields = body.form || {};
    PLACE.forEach(function (name) { if (body[name] !== undefined) { setValue(name, body[name]); } });
    Object.keys(fields).forEach(function (name) { setValue(name, fields[name]); });
    form.dispatchEvent(new Event("change", { bubbles: true }));  // the score's parts of its kind shown
    form.elements.draft_id.value = draft.id;
    var notice = form.querySelector(".correcting"), elsewhere = [], first = null;
    var errors = draft.errors || {};
    Object.keys(errors).forEach(function (name) {
      var reasons = [].concat(errors[name]).map(String);
      var control = form.elements[name];
      var node = control && (control.length !== undefined && !control.options ? control[0] : control);
      var field = node && node.closest(".field");
      if (!field) { elsewhere = elsewhere.concat(reasons); return; }
      field.classList.add("field-error");
      var controls = control.length !== undefined && !control.options ? Array.prototype.slice.call(control) : [control];
      controls.forEach(function (c) { c.setAttribute("aria-invalid", "true"); });
      var listing = element("ul", "errorlist draft-errors");
      reasons.forEach(function (reason) { listing.appendChild(element("li", "", reason)); });
      field.appendChild(listing);
      first = first || node;
    });
    notice.textContent = list.dataset.correcting + (elsewhere.length ? " " + elsewhere.join(" ") : "");
    notice.hidden = false;
    form.scrollIntoView();
    (first || form.elements.session).focus();
  }
  if (form) {
    var query = new URLSearchParams(window.location.search);
    ["session", "board", "table", "section", "round"].forEach(function (name) {
      if (query.get(name) && form.elements[name]) { form.elements[name].value = query.get(name); }
    });
    // The table's result as the board's page showed it: the server refuses the draft if it changed.
    if (query.get("seen")) { form.elements.seen_result.value = query.get("seen"); }
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var data = new FormData(form), fields = {}, body = { form: fields, give: Boolean(event.submitter && event.submitter.name === "give") };
      data.forEach(function (value, name) {
        if (PLACE.indexOf(name) >= 0) { body[name] = value; }
        else if (name !== "save" && name !== "give" && name !== "draft_id") { fields[name] = value; }
      });
      if (!body.round) { delete body.round; }
      var summary = fill(list.dataset.boardTable, { board: body.board, table: body.table }) + ": " +
        form.elements.kind.options[form.elements.kind.selectedIndex].text;
      var correcting = form.elements.draft_id.value;
      var saved = correcting ? window.BridgeDrafts.replace(correcting, body, summary) : window.BridgeDrafts.save(body, summary);
      saved.then(function () {
        clearMarks();
        form.reset();
        form.elements.seen_result.value = "";
        window.BridgeDrafts.sendAll();
      });
    });
  }
  if (window.BridgeDrafts) { window.BridgeDrafts.onChange(function () { renderDrafts(); showBanner(); }); }
  document.addEventListener("DOMContentLoaded", function () { showBanner(); renderDrafts(); saveTournament(); });
})();
