// The "Print" button of the printable pages (no inline onclick: the site's CSP allows no inline script).
document.addEventListener("click", function (event) {
  if (event.target.closest("[data-print]")) window.print();
});
