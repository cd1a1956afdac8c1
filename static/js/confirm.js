// Buttons that withdraw, forfeit or remove are links to a confirm page (templates/_confirm.html).
// Where <dialog> works, the same question opens on the page instead; its form posts the action.
document.addEventListener("click", function (event) {
  var link = event.target.closest("a[data-confirm]");
  if (!link) return;
  var dialog = document.getElementById(link.getAttribute("data-confirm"));
  if (!dialog || typeof dialog.showModal !== "function") return; // the link opens the confirm page
  event.preventDefault();
  dialog.showModal();
  var first = dialog.querySelector("button");
  if (first) first.focus();
});
document.addEventListener("click", function (event) {
  // a tap on the backdrop (outside the dialog's box) closes it, as "Cancel" does
  if (event.target.tagName === "DIALOG" && event.target.classList.contains("confirm-dialog")) {
    var box = event.target.getBoundingClientRect();
    var inside = event.clientX >= box.left && event.clientX <= box.right &&
      event.clientY >= box.top && event.clientY <= box.bottom;
    if (!inside) event.target.close();
  }
});
