/* The rating chart: a tap (or a key) on a point names its match under the chart, with its link;
   without this script each point is a plain link to its match. */
(function () {
  "use strict";
  function setUp(figure) {
    var caption = figure.querySelector(".rc-caption");
    var text = figure.querySelector(".rc-caption-text");
    var link = figure.querySelector(".rc-caption-link");
    var hint = figure.querySelector(".rc-hint");
    var current = null;
    var armed = null; // the point tapped last: tapped again, it opens its match
    function show(point) {
      if (current) current.classList.remove("rc-on");
      current = point;
      point.classList.add("rc-on");
      text.textContent = point.getAttribute("data-name");
      link.setAttribute("href", point.getAttribute("href"));
      caption.hidden = false;
      if (hint) hint.hidden = true;
    }
    figure.querySelectorAll("a.rc-point").forEach(function (point) {
      point.addEventListener("click", function (event) {
        if (armed === point) return; // a second tap opens the match
        event.preventDefault();
        armed = point;
        show(point);
      });
      point.addEventListener("focus", function () { show(point); });
    });
  }
  document.querySelectorAll("[data-rating-chart]").forEach(setUp);
})();
