// The irregularity page by tapping (issue #39): the auction entered or put right on a bidding box,
// the irregular call placed by tapping its place in the auction (and, when the record leaves it
// out, tapping it on the bidding box), the card tapped in the hand diagram. Each tap writes the
// typed field behind it (call_number, inserted, card and seat, auction_calls), which the page
// without scripts shows instead; this script hides them and shows the targets.
(function () {
  "use strict";
  var forms = document.querySelectorAll(".tap-form");
  if (!forms.length) { return; }

  function field(form, name) { return form.querySelector("[name=" + name + "]"); }

  // The words of a call as the bidding box shows it ("1♦", "Pass" in the reader's language).
  function callText(form, call) {
    var button = form.querySelector(".box-call[data-call='" + call + "']");
    return button ? button.textContent : call;
  }

  function preview(form, name) {
    var shown = form.querySelector("[data-preview=" + name + "]");
    var input = field(form, name);
    if (!shown || !input) { return; }
    var calls = input.value.trim() ? input.value.trim().split(/\s+/) : [];
    shown.textContent = calls.map(function (call) { return callText(form, call); }).join(" ");
  }

  function press(form, name, value) {
    form.querySelectorAll("[data-set=" + name + "]").forEach(function (button) {
      button.setAttribute("aria-pressed", button.getAttribute("data-value") === value ? "true" : "false");
    });
  }

  function pressCall(box, value) {
    box.querySelectorAll("[data-call]").forEach(function (other) {
      other.setAttribute("aria-pressed", other.getAttribute("data-call") === value ? "true" : "false");
    });
  }

  function choose(form, name, value) {
    var radio = form.querySelector("input[type=radio][name=" + name + "][value='" + value + "']");
    if (radio) { radio.checked = true; }
  }

  // The targets of the kind chosen only (all of them before one is chosen).
  function showKind(form) {
    var checked = form.querySelector("input[name=kind]:checked");
    form.querySelectorAll("[data-kinds]").forEach(function (part) {
      part.hidden = Boolean(checked) && part.getAttribute("data-kinds").split(" ").indexOf(checked.value) < 0;
    });
  }

  forms.forEach(function (form) {
    form.querySelectorAll("input[name=kind]").forEach(function (radio) {
      radio.addEventListener("change", function () { showKind(form); });
    });
    showKind(form);
    form.querySelectorAll("[data-typed]").forEach(function (typed) { typed.hidden = true; });
    form.querySelectorAll("[data-tap-only], .bidding-box").forEach(function (target) { target.hidden = false; });

    form.querySelectorAll(".bidding-box").forEach(function (box) {
      var name = box.getAttribute("data-target");
      var input = field(form, name);
      if (!input) { return; }
      box.addEventListener("click", function (event) {
        var button = event.target.closest("[data-call]");
        if (!button) { return; }
        var call = button.getAttribute("data-call");
        if (box.getAttribute("data-mode") === "append") {
          input.value = (input.value.trim() + " " + call).trim();
        } else {
          input.value = input.value === call ? "" : call;
          pressCall(box, input.value);
        }
        preview(form, name);
      });
      if (box.getAttribute("data-mode") !== "append") { pressCall(box, input.value); }
      preview(form, name);
    });

    form.querySelectorAll("[data-undo]").forEach(function (button) {
      button.addEventListener("click", function () {
        var name = button.getAttribute("data-undo");
        var input = field(form, name);
        input.value = input.value.trim().split(/\s+/).slice(0, -1).join(" ");
        preview(form, name);
      });
    });
    form.querySelectorAll("[data-clear]").forEach(function (button) {
      button.addEventListener("click", function () {
        var name = button.getAttribute("data-clear");
        field(form, name).value = "";
        preview(form, name);
      });
    });

    // A call in the auction or a card in the hand: its number or code, and the seat it came from
    // (the offender of a card; a call's seat is read from the auction by the server).
    form.querySelectorAll("[data-set]").forEach(function (button) {
      var name = button.getAttribute("data-set");
      var input = field(form, name);
      if (!input) { return; }
      if (input.value && input.value.toUpperCase() === button.getAttribute("data-value")) {
        button.setAttribute("aria-pressed", "true");
      }
      button.addEventListener("click", function () {
        input.value = button.getAttribute("data-value");
        press(form, name, input.value);
        if (name === "card") { choose(form, "seat", button.getAttribute("data-seat")); }
      });
    });
  });
}());
