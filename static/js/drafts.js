// Ruling drafts kept on this phone (issue #31): IndexedDB, sent with their Idempotency-Key
// when there is a network, so a draft sent twice is one ruling. States, in the director's words:
// saved (on this phone), sending, sent, attention (the server refused it: its words are kept
// with the draft, which is never dropped and never merged).
(function () {
  "use strict";
  var DB = "bridgecases", STORE = "drafts";
  var script = document.querySelector("script[data-drafts-api]");
  var API = script ? script.dataset.draftsApi : "/api/v1/ruling-drafts/";
  var listeners = [];
  var sending = false;

  function open() {
    return new Promise(function (resolve, reject) {
      var request = indexedDB.open(DB, 1);
      request.onupgradeneeded = function () { request.result.createObjectStore(STORE, { keyPath: "id" }); };
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { reject(request.error); };
    });
  }

  function store(mode, work) {
    return open().then(function (db) {
      return new Promise(function (resolve, reject) {
        var tx = db.transaction(STORE, mode);
        var result = work(tx.objectStore(STORE));
        tx.oncomplete = function () { db.close(); resolve(result && result.result !== undefined ? result.result : result); };
        tx.onerror = function () { db.close(); reject(tx.error); };
      });
    });
  }

  function changed() { listeners.forEach(function (listener) { listener(); }); }

  function newKey() {
    if (self.crypto && crypto.randomUUID) { return crypto.randomUUID(); }
    return Date.now().toString(36) + "-" + Math.random().toString(36).slice(2);
  }

  function all() {
    return store("readonly", function (s) { return s.getAll(); }).then(function (drafts) {
      return drafts.sort(function (a, b) { return a.created < b.created ? 1 : -1; });
    });
  }

  function put(draft) { return store("readwrite", function (s) { return s.put(draft); }).then(changed); }

  function save(body, summary) {
    var now = new Date().toISOString();
    body.device_time = now;
    var draft = { id: newKey(), key: newKey(), created: now, body: JSON.stringify(body), summary: summary, state: "saved" };
    return put(draft).then(function () {
      if (navigator.serviceWorker && navigator.serviceWorker.ready && "SyncManager" in window) {
        navigator.serviceWorker.ready.then(function (r) { return r.sync.register("send-drafts"); }).catch(function () {});
      }
      return draft;
    });
  }

  function replace(id, body, summary) {
    // A refused draft, put right: the same draft on this phone, sent again under a new key (the
    // server keeps its refusal under the old one). Written when the director first wrote it.
    return all().then(function (drafts) {
      var draft = drafts.filter(function (d) { return d.id === id; })[0];
      if (!draft) { return save(body, summary); }
      body.device_time = JSON.parse(draft.body).device_time || new Date().toISOString();
      draft.body = JSON.stringify(body);
      draft.summary = summary;
      draft.key = newKey();
      draft.state = "saved";
      draft.message = "";
      draft.errors = null;
      return put(draft).then(function () { return draft; });
    });
  }

  function get(id) {
    return all().then(function (drafts) { return drafts.filter(function (d) { return d.id === id; })[0]; });
  }

  function remove(id) { return store("readwrite", function (s) { return s.delete(id); }).then(changed); }

  function cookie(name) {
    var match = document.cookie.match(new RegExp("(?:^|; )" + name + "=([^;]*)"));
    return match ? decodeURIComponent(match[1]) : "";
  }

  function words(answer) {
    var out = [];
    (function walk(value) {
      if (typeof value === "string") { out.push(value); }
      else if (Array.isArray(value)) { value.forEach(walk); }
      else if (value && typeof value === "object") { Object.keys(value).forEach(function (k) { walk(value[k]); }); }
    })(answer);
    return out.join(" ");
  }

  function sendOne(draft) {
    draft.state = "sending";
    return put(draft).then(function () {
      return fetch(API, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": cookie("csrftoken"), "Idempotency-Key": draft.key },
        body: draft.body
      });
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (answer) {
        if (response.status === 201 || response.status === 200) {
          draft.state = "sent";
          draft.ruling = answer.url;
          draft.number = answer.number;
          draft.received_at = answer.received_at;
          draft.message = "";
        } else if (response.status >= 500 || response.status === 429 || response.headers.get("Retry-After")) {
          draft.state = "saved";  // the server is busy or the request still runs: try again later
        } else {
          draft.state = "attention";
          draft.status = response.status;
          draft.message = words(answer) || response.statusText;
          // What each field was refused for ({"laws": ["Cite at least one law."]}): the drafts page
          // opens the draft for correction with those fields marked.
          draft.errors = answer && typeof answer === "object" && !Array.isArray(answer) ? answer : null;
          draft.conflict = Boolean(answer && answer.table && response.status === 409);
          // The first ruling at the table (its page: merge this draft into it), from the 409's Link.
          var first = /<([^>]+)>/.exec(response.headers.get("Link") || "");
          draft.first = draft.conflict && first ? first[1] : "";
        }
        return put(draft);
      });
    }).catch(function () {
      draft.state = "saved";  // no network after all
      return put(draft);
    });
  }

  function sendAll() {
    if (sending || !navigator.onLine) { return Promise.resolve(); }
    sending = true;
    return all().then(function (drafts) {
      var waiting = drafts.filter(function (d) { return d.state === "saved" || d.state === "sending"; }).reverse();
      return waiting.reduce(function (chain, draft) { return chain.then(function () { return sendOne(draft); }); }, Promise.resolve());
    }).then(function () { sending = false; }, function () { sending = false; });
  }

  function further(id) {
    // The director has read the other ruling: send theirs as a further ruling (a new request, a new key).
    return all().then(function (drafts) {
      var draft = drafts.filter(function (d) { return d.id === id; })[0];
      if (!draft) { return; }
      var body = JSON.parse(draft.body);
      body.acknowledge_others = true;
      draft.body = JSON.stringify(body);
      draft.key = newKey();
      draft.state = "saved";
      draft.message = "";
      return put(draft).then(sendAll);
    });
  }

  window.BridgeDrafts = {
    all: all, get: get, save: save, replace: replace, remove: remove, sendAll: sendAll, further: further,
    onChange: function (listener) { listeners.push(listener); }
  };
  window.addEventListener("online", sendAll);
  if (navigator.serviceWorker) {
    navigator.serviceWorker.addEventListener("message", function (event) {
      if (event.data && event.data.type === "send-drafts") { sendAll(); }
    });
  }
  document.addEventListener("DOMContentLoaded", function () { if (navigator.onLine) { sendAll(); } });
})();
