// A table wider than the phone scrolls inside its box (.scroll-x); the line after it
// (.scroll-hint, hidden in the page) is shown while the table goes on beyond the box's right edge.
(function () {
  "use strict";
  function check(box) {
    var hint = box.nextElementSibling;
    if (!hint || !hint.classList.contains("scroll-hint")) return;
    hint.hidden = box.scrollWidth - box.clientWidth - box.scrollLeft < 4;
  }
  function update() {
    Array.prototype.forEach.call(document.querySelectorAll(".scroll-x"), check);
  }
  // A scroll moves one box: check only that one (the page's own scroll reaches here too, as the
  // document, and changes no box).
  document.addEventListener("scroll", function (event) {
    var box = event.target;
    if (box && box.classList && box.classList.contains("scroll-x")) check(box);
  }, true);
  window.addEventListener("resize", update);
  document.addEventListener("bilka:live-updated", update);
  update();
})();
