// A table wider than the phone scrolls inside its box (.scroll-x); the line after it
// (.scroll-hint, hidden in the page) is shown while the table goes on beyond the box's right edge.
(function () {
  "use strict";
  function update() {
    Array.prototype.forEach.call(document.querySelectorAll(".scroll-x"), function (box) {
      var hint = box.nextElementSibling;
      if (!hint || !hint.classList.contains("scroll-hint")) return;
      hint.hidden = box.scrollWidth - box.clientWidth - box.scrollLeft < 4;
    });
  }
  document.addEventListener("scroll", update, true);
  window.addEventListener("resize", update);
  document.addEventListener("bilka:live-updated", update);
  update();
})();
