// The deal-by-deal form's "Add a deal row": a copy of the last row, numbered on, empty. Without
// JavaScript the button stays hidden and the server shows a few empty rows below the last filled one.
(function () {
  "use strict";
  function addRow(button) {
    const form = button.closest("form");
    const body = form && form.querySelector("[data-deal-grid] tbody");
    if (!body || !body.lastElementChild) return;
    const last = body.lastElementChild;
    const n = body.children.length + 1;
    const max = parseInt(button.dataset.max, 10) || 60;
    if (n > max) return;
    const row = last.cloneNode(true);
    row.firstElementChild.textContent = String(n);
    row.querySelectorAll("input, select").forEach(function (field) {
      field.name = field.name.replace(/^deal-\d+-/, "deal-" + n + "-");
      const label = field.getAttribute("aria-label");
      if (label) field.setAttribute("aria-label", label.replace(/· \d+$/, "· " + n));
      if (field.tagName === "SELECT") field.selectedIndex = 0; else field.value = "";
    });
    body.appendChild(row);
    if (n >= max) button.hidden = true;
    const first = row.querySelector("input");
    if (first) first.focus();
  }
  function start() {
    document.querySelectorAll("[data-add-deal]").forEach(function (button) {
      const form = button.closest("form");
      const body = form && form.querySelector("[data-deal-grid] tbody");
      const max = parseInt(button.dataset.max, 10) || 60;
      button.hidden = !body || body.children.length >= max;
      button.addEventListener("click", function () { addRow(button); });
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
