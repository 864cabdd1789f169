// The ruling form: show the parts of the adjusted score that apply, and add up the weights
// as the director types (decimals, percentages or fractions such as 1/3); the fields of the
// penalty chosen (Law 90: amount and unit; Law 91: the measure, a fine's amount, the player);
// the tray's delay only when screens are in use.
(function () {
  "use strict";
  var form = document.querySelector(".ruling-form");
  if (!form) { return; }
  var kind = form.querySelector("[name=score_kind]");
  var adjusted = document.getElementById("adjusted");
  var sum = document.getElementById("weight-sum");

  function outcome() {
    var checked = form.querySelector("[name=outcome]:checked");
    return checked ? checked.value : "";
  }

  function parseWeight(text) {
    text = (text || "").trim();
    if (!text) { return 0; }
    if (text.slice(-1) === "%") { return parseFloat(text) / 100; }
    var parts = text.split("/");
    if (parts.length === 2) { return parseFloat(parts[0]) / parseFloat(parts[1]); }
    return parseFloat(text.replace(",", "."));
  }

  function penaltyKind() {
    var checked = form.querySelector("[name=penalty_kind]:checked");
    return checked ? checked.value : "procedural";
  }

  function update() {
    adjusted.hidden = outcome() !== "adjusted";
    var measure = form.querySelector("[name=penalty_measure]");
    form.querySelectorAll("[data-penalty]").forEach(function (part) {
      var shown = part.dataset.penalty.split(" ").indexOf(penaltyKind()) >= 0;
      if (shown && part.dataset.measure && penaltyKind() === "disciplinary") {
        shown = !!measure && part.dataset.measure.split(" ").indexOf(measure.value) >= 0;
      }
      part.hidden = !shown;
    });
    var screens = form.querySelector("[name=screens]");
    form.querySelectorAll("[data-screens]").forEach(function (part) {
      part.hidden = !screens || !screens.checked;
    });
    form.querySelectorAll(".score-part").forEach(function (part) {
      part.hidden = part.dataset.score.split(" ").indexOf(kind.value) < 0;
    });
    var total = 0;
    form.querySelectorAll("[name$=_weight]").forEach(function (input) {
      var value = parseWeight(input.value);
      if (!isNaN(value)) { total += value; }
    });
    var rounded = Math.round(total * 10000) / 10000;
    sum.textContent = String(rounded);
    sum.classList.toggle("bad", rounded !== 1 && rounded !== 0);
  }

  form.addEventListener("input", update);
  form.addEventListener("change", update);
  update();
})();
