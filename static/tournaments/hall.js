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
  // Deferred scripts let the event loop run between them: the socket may already be open when
  // this one runs, and then no attribute change would tell the observer below it ever was.
  var current = null, connectedOnce = box.hasAttribute("data-live-connected");

  function views() {
    return Array.prototype.filter.call(box.querySelectorAll(".hall-view"), function (v) {
      return !v.hasAttribute("data-off");
    });
  }

  // Column counts each view may use (wider names: fewer columns).
  var COLUMNS = { tables: [1, 2, 3, 4], names: [2, 3, 4, 5, 6], standings: [1, 2, 3], results: [1, 2] };

  function fits(list, whole) {
    // whole: no name cut short with an ellipsis either
    if (whole && Array.prototype.some.call(list.querySelectorAll(".hall-pair, .hall-name, .hall-who"), function (el) {
      return el.scrollWidth > el.clientWidth + 1;
    })) return false;
    return list.scrollHeight <= list.clientHeight + 1 && list.scrollWidth <= list.clientWidth + 1 &&
      !Array.prototype.some.call(list.children, function (li) {
        var r = li.getBoundingClientRect(), box = list.getBoundingClientRect();
        return r.right > box.right + 1 || r.bottom > box.bottom + 1;
      });
  }

  function fit(view) {
    // The largest type at which every line is on the screen, over the view's column counts:
    // a projector is read from the back of the hall, and nobody can scroll it.
    var list = view.querySelector(".hall-cols");
    if (!list) return;
    var most = window.innerHeight * 0.06, best = null;
    [true, false].forEach(function (whole) {  // names in full if any size allows, else cut short
      if (best) return;
      (COLUMNS[view.getAttribute("data-view")] || [2]).forEach(function (cols) {
        list.style.columnCount = cols;
        var low = 10, high = most;
        list.style.fontSize = low + "px";
        if (!fits(list, whole)) return;
        for (var i = 0; i < 10; i++) {
          var mid = (low + high) / 2;
          list.style.fontSize = mid + "px";
          if (fits(list, whole)) low = mid; else high = mid;
        }
        if (!best || low > best.size + 0.5) best = { cols: cols, size: low };
      });
    });
    if (best) {
      list.style.columnCount = best.cols;
      list.style.fontSize = best.size + "px";
    } else {
      list.style.columnCount = "";
      list.style.fontSize = "";
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
