// The header menu on phones and tablets: one button folds the links away and opens them again.
// Without this script (or on a wide screen, where CSS hides the button) every link simply shows.
(function () {
  var header = document.querySelector(".site-header");
  var toggle = header && header.querySelector(".menu-toggle");
  var panel = toggle && document.getElementById(toggle.getAttribute("aria-controls"));
  if (!panel) return;
  header.classList.add("menu-folds");
  toggle.hidden = false;
  var setOpen = function (open) {
    toggle.setAttribute("aria-expanded", open ? "true" : "false");
    header.classList.toggle("menu-open", open);
  };
  toggle.addEventListener("click", function () {
    setOpen(toggle.getAttribute("aria-expanded") !== "true");
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && header.classList.contains("menu-open")) {
      setOpen(false);
      toggle.focus();
    }
  });
  document.addEventListener("click", function (event) {
    if (header.classList.contains("menu-open") && !header.contains(event.target)) setOpen(false);
  });
})();
