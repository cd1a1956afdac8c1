/* Lobby: the list of open tables, kept live over /ws/lobby/. */
(function () {
  "use strict";
  var list = document.getElementById("lobby-tables");
  if (!list) return;
  var T = JSON.parse(document.getElementById("lobby-i18n").textContent);
  function draw(tables) {
    list.innerHTML = "";
    if (!tables.length) {
      var li = document.createElement("li"); li.className = "empty"; li.textContent = T.none; list.appendChild(li); return;
    }
    tables.forEach(function (t) {
      var li = document.createElement("li"), a = document.createElement("a");
      a.className = "list-item"; a.href = t.url;
      var title = document.createElement("span"); title.className = "list-title"; title.textContent = "#" + t.id + " ";
      var game = document.createElement("span"); game.className = "lobby-game"; game.dataset.game = t.game || "bilka";
      game.textContent = T["game_" + (t.game || "bilka")] || t.game; title.appendChild(game);
      var meta = document.createElement("span"); meta.className = "list-meta";
      // the frame is the same for every reader: seats and bots are named here, in his language
      meta.textContent = t.seats.map(function (s) {
        var seat = T["seat_" + s.seat] || s.seat;
        return seat + ": " + (s.bot ? T.bot_named.replace("%(seat)s", seat) : (s.name || "\u2014"));
      }).join(" \u00b7 ");
      var badge = document.createElement("span"); badge.className = "badge";
      badge.textContent = t.status === "open" ? T.free.replace("%(n)s", t.free) : T.playing;
      a.appendChild(title); a.appendChild(meta); a.appendChild(badge); li.appendChild(a); list.appendChild(li);
    });
  }
  var backoff = 1000;
  function connect() {
    var ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + list.dataset.ws);
    ws.onmessage = function (m) { var f = JSON.parse(m.data); if (f.type === "lobby") draw(f.tables); };
    ws.onopen = function () { backoff = 1000; };
    ws.onclose = function () { setTimeout(connect, backoff); backoff = Math.min(15000, backoff * 2); };
  }
  connect();
})();
