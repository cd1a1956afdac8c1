// The hall screen: shows one view at a time and moves to the next every few seconds, unless the
// organiser pinned one (data-pinned); fits each view's type to the screen so nobody scrolls a
// projector; shows "reconnecting" while the tournament socket (live.js) is down. live.js swaps
// #t-live on every change, so the view shown and the pin are read again after each refresh.
(function () {
  "use strict";
  var box = document.getElementById("t-live");
  var hall = document.querySelector(".hall");
  if (!box || !hall) return;
  var mark = document.getElementById("hall-reconnecting");
  var seconds = parseInt(hall.getAttribute("data-seconds"), 10) || 15;
  var current = null, connectedOnce = false;

  function views() {
    return Array.prototype.filter.call(box.querySelectorAll(".hall-view"), function (v) {
      return !v.hasAttribute("data-off");
    });
  }

  function fit(view) {
    // Largest type that fits: start from the stylesheet's size, shrink until nothing overflows.
    var list = view.querySelector(".hall-cols");
    if (!list) return;
    list.style.fontSize = "";
    var size = parseFloat(window.getComputedStyle(list).fontSize);
    for (var i = 0; i < 40 && size > 9 && (list.scrollHeight > list.clientHeight + 1 || list.scrollWidth > list.clientWidth + 1); i++) {
      size = size * 0.93;
      list.style.fontSize = size + "px";
    }
  }

  function show(name) {
    var all = views();
    if (!all.length) return;
    var chosen = all.filter(function (v) { return v.getAttribute("data-view") === name; })[0] || all[0];
    box.querySelectorAll(".hall-view").forEach(function (v) { v.classList.toggle("is-shown", v === chosen); });
    current = chosen.getAttribute("data-view");
    hall.setAttribute("data-showing", current);
    fit(chosen);
  }

  function next() {
    var all = views();
    if (all.length < 2) { show(current); return; }
    var names = all.map(function (v) { return v.getAttribute("data-view"); });
    show(names[(names.indexOf(current) + 1) % names.length]);
  }

  function pinned() { return box.getAttribute("data-pinned") || ""; }

  box.addEventListener("bilka:live-updated", function () {
    // live.js swapped the inner HTML; the pin rides on the fragment's first view being the only one
    var fresh = box.querySelector(".hall-view:not([data-off])");
    var only = views().length === 1 && fresh;
    show(only ? fresh.getAttribute("data-view") : current);
  });

  setInterval(function () { if (views().length > 1) next(); }, seconds * 1000);
  window.addEventListener("resize", function () { show(current); });

  new MutationObserver(function () {
    var up = box.hasAttribute("data-live-connected");
    if (up) connectedOnce = true;
    if (mark) mark.hidden = up || !connectedOnce;
  }).observe(box, { attributes: true, attributeFilter: ["data-live-connected"] });

  setTimeout(function () {  // a socket that never opened is as much news as one that dropped
    if (mark && !box.hasAttribute("data-live-connected")) mark.hidden = false;
  }, 5000);

  show(pinned() || (views()[0] && views()[0].getAttribute("data-view")));
})();
