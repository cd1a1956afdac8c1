// Tournament pages on a phone: the tab bar shows the page you are on, and a bracket wider than the
// screen says so, with a button to its last round (the final) and back.
(function () {
  var tabs = document.querySelector(".tabs");
  var current = tabs && tabs.querySelector("[aria-current=page]");
  if (current && tabs.scrollWidth > tabs.clientWidth + 1) {
    var bar = tabs.getBoundingClientRect();
    var tab = current.getBoundingClientRect();
    tabs.scrollLeft += tab.left - bar.left - (bar.width - tab.width) / 2;
  }

  var template = document.getElementById("bracket-hint");
  if (!template) return;
  var titleOf = function (column) {
    var heading = column && column.querySelector("h3");
    return heading ? heading.textContent.trim() : "";
  };
  document.querySelectorAll(".bracket").forEach(function (bracket) {
    var hint = template.content.firstElementChild.cloneNode(true);
    var button = hint.querySelector("button");
    var columns = bracket.querySelectorAll(".bracket-col");
    var first = titleOf(columns[0]);
    var last = titleOf(columns[columns.length - 1]);
    bracket.parentNode.insertBefore(hint, bracket);
    var atEnd = function () { return bracket.scrollLeft + bracket.clientWidth >= bracket.scrollWidth - 1; };
    var update = function () {
      var scrolls = bracket.scrollWidth > bracket.clientWidth + 1;
      hint.hidden = !scrolls;
      bracket.classList.toggle("is-scrollable", scrolls);
      button.textContent = atEnd() ? "← " + (first || button.dataset.start) : (last || button.dataset.end) + " →";
    };
    button.addEventListener("click", function () {
      bracket.scrollTo({ left: atEnd() ? 0 : bracket.scrollWidth, behavior: "smooth" });
    });
    bracket.addEventListener("scroll", update, { passive: true });
    window.addEventListener("resize", update);
    update();
  });
})();
