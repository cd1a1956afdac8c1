// Live tournament pages: the socket says "changed"; the page fetches itself again and swaps #t-live.
// The frame carries no data, so a dropped frame only delays the next refresh; a reconnect refreshes.
(function () {
  "use strict";
  var box = document.getElementById("t-live");
  if (!box || !window.WebSocket || !window.fetch) return;
  var path = box.getAttribute("data-live-socket");
  var version = 0, timer = null, busy = false, again = false, delay = 1000;

  function typing() {
    var el = document.activeElement;
    return el && box.contains(el) && /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName);
  }

  function refresh() {
    timer = null;
    if (typing()) { timer = setTimeout(refresh, 2000); return; }
    if (busy) { again = true; return; }
    busy = true;
    fetch(window.location.href, { credentials: "same-origin", headers: { "X-Live-Refresh": "1" } })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (!html) return;
        var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("t-live");
        if (fresh) {
          box.innerHTML = fresh.innerHTML;
          box.setAttribute("data-live-version", String(version));
          box.dispatchEvent(new CustomEvent("bilka:live-updated", { bubbles: true }));
        }
      })
      .catch(function () {})
      .then(function () {
        busy = false;
        if (again) { again = false; refresh(); }
      });
  }

  function soon() { if (!timer) timer = setTimeout(refresh, 150); }

  function connect() {
    var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    var socket = new WebSocket(scheme + window.location.host + path);
    socket.onopen = function () {
      box.setAttribute("data-live-connected", "1");
      if (delay > 1000) soon(); // after a reconnect we may have missed frames
      delay = 1000;
    };
    socket.onmessage = function (msg) {
      var frame;
      try { frame = JSON.parse(msg.data); } catch (e) { return; }
      if (frame.type === "changed" && frame.version > version) { version = frame.version; soon(); }
    };
    socket.onclose = function () {
      box.removeAttribute("data-live-connected");
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 30000);
    };
  }
  connect();
})();
