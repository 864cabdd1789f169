// The language switcher in the header: choosing a language submits its form (the page's
// Content-Security-Policy allows no inline handler, so the behaviour lives here).
document.addEventListener("DOMContentLoaded", function () {
  document.querySelectorAll("select[data-submit-on-change]").forEach(function (select) {
    select.addEventListener("change", function () {
      select.form.submit();
    });
  });
});
