// Decision forms on the appeal's page (the body's, the director in charge's on law, the further
// appeal's): show the adjusted score only for a varied or overturned ruling, the parts of the
// score kind chosen, and add up the weights as they are typed (decimals, percentages, 1/3).
(function () {
  "use strict";
  function parseWeight(text) {
    text = (text || "").trim();
    if (!text) { return 0; }
    if (text.slice(-1) === "%") { return parseFloat(text) / 100; }
    var parts = text.split("/");
    if (parts.length === 2) { return parseFloat(parts[0]) / parseFloat(parts[1]); }
    return parseFloat(text.replace(",", "."));
  }
  document.querySelectorAll("form.decision").forEach(function (form) {
    var kind = form.querySelector("[name$=score_kind]");
    var adjusted = form.querySelector(".adjusted");
    var sum = form.querySelector(".weight-sum");
    function update() {
      var radios = form.querySelectorAll("[name$=decision]");
      var checked = form.querySelector("[name$=decision]:checked");
      adjusted.hidden = radios.length > 0 && (!checked || checked.value === "uphold");
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
  });
})();
