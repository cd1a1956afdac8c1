// Round clocks: the page says "ends at 14:30" (from the server); this counts down to that time
// every second ("12:34 left", worded by the page in its language, then "Time is up"). It looks the clocks up on every tick, so a clock
// that a live refresh (live.js) put on the page counts too.
(function () {
  "use strict";
  function two(n) { return (n < 10 ? "0" : "") + n; }

  function tick() {
    var clocks = document.querySelectorAll("[data-clock-ends]");
    var now = Date.now();
    for (var i = 0; i < clocks.length; i++) {
      var clock = clocks[i];
      var ends = Date.parse(clock.getAttribute("data-clock-ends"));
      var left = clock.querySelector(".clock-left");
      if (isNaN(ends) || !left) continue;
      var seconds = Math.floor((ends - now) / 1000);
      if (seconds <= 0) {
        clock.classList.add("is-over");
        left.textContent = clock.getAttribute("data-over");
        continue;
      }
      clock.classList.remove("is-over");
      var h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
      var shown = (h ? h + ":" + two(m) : String(m)) + ":" + two(s);
      left.textContent = clock.getAttribute("data-left").replace("{time}", shown);
    }
  }
  tick();
  setInterval(tick, 1000);
  document.addEventListener("bilka:live-updated", tick);  // a swapped page counts at once
})();
