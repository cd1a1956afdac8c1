/* Bilka live table: draws the viewer's own filtered view and relays taps as moves.
 * The server owns the game; this script keeps only the last event number it has drawn.
 * Every event carries its number: a gap (or a reconnect) sends {type:"sync", last:n}. */
(function () {
  "use strict";
  var root = document.getElementById("bilka-table");
  if (!root) return;
  var T = JSON.parse(document.getElementById("bt-i18n").textContent);
  var snap = JSON.parse(document.getElementById("bt-snapshot").textContent);
  var SEATS = "NESW";
  var SUIT = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
  // ranks as the reader's packs print them (Russian В Д К Т), as the jack's mark in the legend says
  var RANK = { "6": "6", "7": "7", "8": "8", "9": "9", T: "10", J: T.rank_J || "J", Q: T.rank_Q || "Q",
               K: T.rank_K || "K", A: T.rank_A || "A" };

  // Bilka for two: two players, N and S, each a side of his own (the score is keyed N and S)
  var TWO = root.dataset.game === "bilka-2";
  var SIDES = TWO ? ["N", "S"] : ["NS", "EW"];
  var n = snap.n;
  var me = snap.you.seat;               // "N".."W" or null for a spectator
  var table = snap.table;
  var view = snap.view;
  var deadlineAt = null;                // performance.now() ms when the clock of the seat to move ends
  var leaving = false;
  document.addEventListener("submit", function () { leaving = true; });
  var ws = null, backoff = 500, pending = null, wasMyTurn = false, audio = null, flashTimer = null, wait = 0;

  function fmt(s, args) { return s.replace(/%\((\w+)\)s/g, function (_, k) { return args[k]; }); }
  function $(sel) { return root.querySelector(sel); }
  function el(tag, cls, text) { var e = document.createElement(tag); if (cls) e.className = cls; if (text != null) e.textContent = text; return e; }
  function seatName(s) {
    var row = (table.seats || []).filter(function (x) { return x.seat === s; })[0];
    return row ? nameOf(row) + " (" + seatWord(s) + ")" : seatWord(s);
  }
  // Seats and pairs keep their codes (N, NS) in frames; the page writes them in the reader's language.
  function seatWord(s) { return T["seat_" + s] || s; }
  function pairWord(p) { return T["pair_" + p] || seatWord(p); }
  // "N 61 · S 59": a value of each side, named in the reader's letters
  function sidesLine(values, plus) {
    return SIDES.map(function (s) { return seatWord(s) + " " + (plus ? "+" : "") + values[s]; }).join(" \u00b7 ");
  }
  // A bot is named in the reader's language whatever language the frame was built in.
  function nameOf(row) { return row.bot && T.bot_named ? fmt(T.bot_named, { seat: seatWord(row.seat) }) : row.name; }
  function cardEl(code, tag) {
    var e = el(tag || "span", "bt-card" + ((code[1] === "H" || code[1] === "D") ? " bt-red" : ""));
    e.dataset.card = code;
    e.appendChild(el("span", "bt-rank", RANK[code[0]]));
    e.appendChild(el("span", "bt-suit", SUIT[code[1]]));
    e.setAttribute("aria-label", RANK[code[0]] + " " + T["suit_" + code[1]]);
    return e;
  }
  function bottomSeat() { return me || "S"; }
  function posOf(seat) {
    var d = (SEATS.indexOf(seat) - SEATS.indexOf(bottomSeat()) + 4) % 4;
    return ["bottom", "left", "top", "right"][d];
  }

  /* The score as the home game keeps it: two sixes per pair, pips uncovered one by one (0-6, 6-12). */
  function six(count, red) {
    // pips are uncovered from the bottom up; the covering card hides the rest (an L when odd)
    var pips = [[9, 43], [27, 43], [9, 26], [27, 26], [9, 9], [27, 9]];
    var svg = '<svg class="bt-six" viewBox="0 0 36 52" width="27" height="39" aria-hidden="true">' +
      '<rect x="0.5" y="0.5" width="35" height="51" rx="4" fill="#fff" stroke="#9aa"/>';
    for (var i = 0; i < 6; i++) {
      var on = i < count;
      svg += '<circle cx="' + pips[i][0] + '" cy="' + pips[i][1] + '" r="5" fill="' + (on ? (red ? "#b3261e" : "#1d2521") : "#e4e8e6") + '"/>';
    }
    var covered = 6 - count;
    var rows = Math.floor(covered / 2);
    if (rows > 0) svg += '<rect x="1" y="1" width="34" height="' + (rows * 17) + '" rx="3" fill="url(#bt-back)"/>';
    if (covered % 2) svg += '<rect x="18" y="' + (1 + rows * 17) + '" width="17" height="17" rx="3" fill="url(#bt-back)"/>';
    return svg + "</svg>";
  }
  function drawScore() {
    var score = view ? view.score : {};
    SIDES.forEach(function (pair) {
      var box = root.querySelector('.bt-pair[data-pair="' + pair + '"]');
      var s = Math.min(12, score[pair] || 0);
      var red = pair === SIDES[1];
      box.querySelector(".bt-sixes").innerHTML = six(Math.min(6, s), red) + six(Math.max(0, s - 6), red);
      box.querySelector(".bt-eyes").textContent = s;
      box.setAttribute("aria-label", pairWord(pair) + ": " + fmt(T.eyes, { n: s }));
      box.classList.toggle("bt-mine", !!me && pair.indexOf(me) >= 0);
    });
  }

  function drawSeats() {
    ["bottom", "left", "top", "right"].forEach(function (pos) {
      var box = $(".bt-pos-" + pos);
      var seat = SEATS[(SEATS.indexOf(bottomSeat()) + ["bottom", "left", "top", "right"].indexOf(pos)) % 4];
      var row = (table.seats || []).filter(function (x) { return x.seat === seat; })[0];
      box.innerHTML = "";
      box.dataset.seat = seat;
      box.hidden = TWO && SIDES.indexOf(seat) < 0;  // Bilka for two: nobody at E and W
      if (box.hidden) return;
      var name = el("div", "bt-name", (row ? nameOf(row) : "—"));
      name.dataset.jack = T.jack_short || "J\u2663";
      box.appendChild(name);
      var meta = [seatWord(seat)];
      if (me && seat === me) meta.push(T.you);
      else if (me && TWO) meta.push(T.opponent);
      else if (me && SEATS.indexOf(seat) % 2 === SEATS.indexOf(me) % 2) meta.push(T.partner);
      if (row && row.bot) meta.push((row.level && T["bot_" + row.level]) || T.bot);
      // the seat's own suit, in words too (the legend under the table says what it means)
      if (view && view.suits) meta.push(SUIT[view.suits[seat]] + "\u00a0" + T["suit_" + view.suits[seat]]);
      box.appendChild(el("div", "bt-meta", meta.join(" · ")));
      if (view && view.hand_sizes && seat !== me) box.appendChild(el("div", "bt-count", T["cards_" + view.hand_sizes[seat]] || String(view.hand_sizes[seat])));
      if (row && !row.connected && row.grace_left != null && table.status === "playing") {
        box.appendChild(el("div", "bt-offline", fmt(T.offline, { s: row.grace_left })));
      }
      if (view && view.phase === "redeal" && (view.answered || []).indexOf(seat) >= 0) {
        box.appendChild(el("div", "bt-answered", "\u2713 " + T.answered));
      }
      var toMove = view && view.to_move === seat && table.status === "playing";
      box.classList.toggle("bt-to-move", !!toMove);
      if (toMove) box.appendChild(el("div", "bt-clock", ""));
      if (view && view.jack_holder === seat) box.classList.add("bt-jack"); else box.classList.remove("bt-jack");
    });
  }

  function drawTrick(cards, leader) {
    var box = $(".bt-trick");
    box.innerHTML = "";
    if (!cards || !cards.length) return;
    var order = (view && view.order) || "NESW";
    var s = order.indexOf(leader);
    cards.forEach(function (c, i) {
      var seat = order[(s + i) % order.length];
      var e = cardEl(c);
      e.classList.add("bt-at-" + posOf(seat));
      box.appendChild(e);
    });
  }

  function drawHand() {
    var box = $(".bt-hand");
    box.innerHTML = "";
    if (!view || !view.hand) return;
    var legal = view.legal || [];
    var myTurn = view.to_move === me && table.status === "playing";
    view.hand.forEach(function (c) {
      var b = cardEl(c, "button");
      b.type = "button";
      var ok = myTurn && legal.indexOf(c) >= 0 && !view.can_redeal;
      b.classList.add(ok ? "bt-legal" : "bt-idle");
      b.disabled = !ok || !!pending;
      b.addEventListener("click", function () { send(c); });
      box.appendChild(b);
    });
  }

  function drawInfo() {
    var trump = $(".bt-trump"), duty = $(".bt-duty"), deal = $(".bt-deal");
    if (view && view.trump) {
      trump.innerHTML = "";
      trump.appendChild(el("span", "muted small", T.trump + " "));
      trump.appendChild(el("span", "bt-trump-suit" + ((view.trump === "H" || view.trump === "D") ? " bt-red" : ""), SUIT[view.trump]));
      trump.title = T["suit_" + view.trump];
    } else trump.textContent = "";
    duty.textContent = view && view.on_duty ? fmt(T.on_duty, { pair: pairWord(view.on_duty) })
      : view && view.game === "kozyol" ? T.no_duty : view && TWO ? T.two_no_duty : "";
    var stock = $(".bt-stock");
    if (stock) stock.textContent = !(view && view.trump) ? "" : view.stock_left ? fmt(T.stock_left, { n: view.stock_left }) : T.stock_empty;
    // Kozyol: the shamok, the queens and the jacks, trumps above the diamonds (drawn by the page)
    var perm = $(".bt-permanent");
    if (perm) perm.hidden = !(view && view.trump);
    var ld = view && view.last_deal;
    var lastLine = !(ld && ld.points) ? "" : " \u00b7 " + (TWO ? fmt(T.two_last_deal, { line: sidesLine(ld.points) })
      : fmt(T.last_deal, { ns: ld.points.NS, ew: ld.points.EW }));
    var boards = table && table.boards, number = view && boards && boards[view.deal - 1];
    var dealLine = !view ? "" : number ? fmt(T.board, { n: number, k: view.deal, m: boards.length }) : fmt(T.deal, { n: view.deal });
    deal.textContent = view ? dealLine + lastLine + (view.eggs ? " \u00b7 " + T.eggs + " \u00d7" + view.eggs : "") : "";
  }

  function drawLegend() {
    var legend = $(".bt-legend");
    legend.hidden = !(view && view.suits && table.status === "playing");
    legend.textContent = T.suits_legend;
  }

  /* Between deals: what the deal just played gave, beside the new deal's first question (the redeal
   * decision or the first lead), which it never holds up; gone with the new deal's first card. */
  function drawBetween() {
    var box = $(".bt-between");
    var lp = view && view.last_played, ld = view && view.last_deal;
    var fresh = !!view && table.status === "playing" && !view.trick.cards.length &&
      SIDES.reduce(function (sum, s) { return sum + view.tricks_taken[s]; }, 0) === 0;
    var redealt = !!ld && ld.outcome === "redeal" && ld.redeal;
    box.hidden = !(fresh && (lp || redealt));
    if (box.hidden) { box.innerHTML = ""; return; }
    box.innerHTML = "";
    if (lp) {
      box.appendChild(el("h3", "bt-between-title", fmt(T.deal_summary, { n: lp.deal })));
      if (T["outcome_" + lp.outcome]) box.appendChild(el("p", "bt-between-outcome", T["outcome_" + lp.outcome]));
      var list = el("ul", "bt-between-lines");
      list.appendChild(el("li", "bt-sum-points", TWO ? fmt(T.two_points, { line: sidesLine(lp.points) })
        : fmt(T.summary_points, { ns: lp.points.NS, ew: lp.points.EW })));
      if (lp.on_duty) list.appendChild(el("li", "bt-sum-duty", fmt(T.on_duty, { pair: pairWord(lp.on_duty) })));
      if (lp.catch) list.appendChild(el("li", "bt-sum-catch", fmt(T.caught_by, { name: seatName(lp.catch) })));
      list.appendChild(el("li", "bt-sum-eyes", TWO ? fmt(T.two_eyes, { line: sidesLine(lp.eyes, true) })
        : fmt(T.summary_eyes, { ns: lp.eyes.NS, ew: lp.eyes.EW })));
      list.appendChild(el("li", "bt-sum-score", TWO ? fmt(T.two_score, { line: sidesLine(lp.score) })
        : fmt(T.summary_score, { ns: lp.score.NS, ew: lp.score.EW })));
      box.appendChild(list);
    }
    if (redealt) box.appendChild(el("p", "bt-redealt", fmt(T.redealt, { name: seatName(ld.redeal) })));
  }

  function drawStatus() {
    var st = $(".bt-status"), decide = $(".bt-decide"), resign = $(".bt-resign"), lastBtn = $(".bt-last-btn");
    var playing = table.status === "playing";
    // the redeal question is put to every seat alike; "redeal" works only where the hand allows it
    var asked = !!view && playing && view.phase === "redeal" && !!me && (view.legal || []).length > 0;
    decide.hidden = !asked;
    var redealBtn = decide.querySelector('[data-action="redeal"]');
    redealBtn.disabled = !(asked && view.can_redeal) || !!pending;
    redealBtn.title = asked && !view.can_redeal ? T.no_redeal : "";
    decide.querySelector(".bt-no-redeal").hidden = !(asked && !view.can_redeal);
    decide.querySelector('[data-action="pass"]').disabled = !asked || !!pending;
    resign.hidden = !(me && playing);
    lastBtn.hidden = !(view && view.review_tricks === "last" && playing);
    var tools = $(".bt-tools");
    tools.hidden = resign.hidden && lastBtn.hidden;
    st.hidden = !playing;  // a finished or open table leaves no empty line
    if (!playing || !view) { st.textContent = ""; return; }
    var myTurn = (view.to_move === me && !!me) || asked;
    if (asked) st.textContent = T.you_answer;
    else if (view.phase === "redeal") st.textContent = me ? T.answered_wait : T.all_decide;
    else if (myTurn) st.textContent = T.your_turn;
    else if (view.to_move) st.textContent = fmt(T.waiting_for, { name: seatName(view.to_move) });
    else st.textContent = "";
    if (!me) st.textContent = T.spectating + " " + st.textContent;
    st.classList.toggle("bt-my-turn", myTurn);
    if (view.phase === "redeal") { st.appendChild(document.createTextNode(" ")); st.appendChild(el("span", "bt-clock", "")); }
    if (myTurn && !wasMyTurn) alertTurn();
    wasMyTurn = myTurn;
    // spectators with the delayed setting see the last deal's hands
    var prev = $(".bt-deal-end");
    if (!me && view.previous_hands) {
      prev.hidden = false;
      prev.innerHTML = "";
      prev.appendChild(el("h3", null, T.previous_hands));
      Object.keys(view.previous_hands).forEach(function (s) {
        var line = el("div", "bt-prev-line", s + ": ");
        view.previous_hands[s].forEach(function (c) { line.appendChild(cardEl(c)); });
        prev.appendChild(line);
      });
    }
  }

  function drawResult() {
    var box = $(".bt-result");
    if (table.status !== "finished" || !table.result) return;
    box.hidden = false;
    var partial = document.getElementById("table-replay");  // the finished deals' replay: now the match's
    if (partial) partial.hidden = true;
    var r = table.result, text;
    if (r.reason === "cancelled") { box.querySelector(".bt-result-text").textContent = T.cancelled; return; }
    if (r.reason === "boards") { box.querySelector(".bt-result-text").textContent = T.boards_over; return; }
    text = (TWO ? fmt(T.player_won, { name: seatName(r.winner) }) : fmt(T.won, { pair: pairWord(r.winner) })) + " ";
    if (r.reason === "eyes") text += T.reason_eyes;
    else text += fmt(T["reason_" + r.reason] || "", { name: r.seat ? seatName(r.seat) : "" });
    text += TWO ? " (" + seatWord("N") + " " + r.score.N + " : " + seatWord("S") + " " + r.score.S + ")"
      : " (NS " + r.score.NS + " : EW " + r.score.EW + ")";
    box.querySelector(".bt-result-text").textContent = text;
  }

  function drawShuffle() {
    // the fair-shuffle panel: client seeds as they change while the table waits, the seed at the end
    var sh = table.shuffle;
    if (!sh) return;
    Object.keys(sh.client_seeds || {}).forEach(function (s) {
      var code = root.querySelector('[data-client-seed="' + s + '"]');
      if (code) code.textContent = sh.client_seeds[s];
    });
    var seed = root.querySelector('[data-shuffle="seed"]'), pendingNote = root.querySelector('[data-shuffle="seed-pending"]');
    if (seed) seed.textContent = sh.seed || "";
    if (pendingNote) pendingNote.hidden = !!sh.seed;
    root.querySelectorAll(".bt-verify-link").forEach(function (a) { a.hidden = !sh.seed; });
  }

  function render() {
    root.classList.toggle("bt-spectator", !me);
    drawShuffle();
    drawScore(); drawInfo(); drawSeats();
    if (!flashTimer) drawTrick(view && view.trick.cards, view && view.trick.leader);
    drawLegend(); drawBetween(); drawHand(); drawStatus(); drawResult();
    if (table.deadline_in != null) deadlineAt = performance.now() + table.deadline_in * 1000; else deadlineAt = null;
    tick();
  }

  function tick() {
    var c = root.querySelector(".bt-clock");
    if (!c) return;
    if (deadlineAt == null) { c.textContent = ""; return; }
    var left = Math.max(0, Math.ceil((deadlineAt - performance.now()) / 1000));
    // a long clock reads as minutes and seconds ("40:15"), not "2415 s"
    c.textContent = left >= 60 ? Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0")
                               : fmt(T.seconds, { s: left });
    c.classList.toggle("bt-hurry", left <= 10);
  }
  setInterval(tick, 250);

  function showMessage(text, info) {
    var m = $(".bt-message");
    m.textContent = text; m.hidden = !text;
    m.classList.toggle("bt-note", !!info);
    if (text) setTimeout(function () { if (m.textContent === text) m.hidden = true; }, 4000);
  }

  function alertTurn() {
    // a browser refuses (and logs an error) before the page's first tap
    try { if (tapped && navigator.vibrate) navigator.vibrate(120); } catch (e) { /* not allowed */ }
    try {
      if (!audio) return;
      var o = audio.createOscillator(), g = audio.createGain();
      o.frequency.value = 880; g.gain.value = 0.08;
      o.connect(g); g.connect(audio.destination);
      o.start(); o.stop(audio.currentTime + 0.12);
    } catch (e) { /* no sound */ }
  }
  var tapped = false;
  document.addEventListener("pointerdown", function () { tapped = true; }, { once: true });
  document.addEventListener("pointerdown", function () {
    if (!audio && (window.AudioContext || window.webkitAudioContext)) {
      try { audio = new (window.AudioContext || window.webkitAudioContext)(); } catch (e) { audio = null; }
    }
  }, { once: true });

  function moveId() { return Date.now().toString(36) + Math.random().toString(36).slice(2, 10); }
  function send(action) {
    if (pending || !ws || ws.readyState !== 1) return;
    pending = { type: "move", action: action, n: n, id: moveId(), seat: me };
    ws.send(JSON.stringify(pending));
    drawHand(); drawStatus(); tick();
  }

  function onFrame(f) {
    if (f.type === "snapshot") {
      n = f.n; table = f.table; view = f.view; render();
    } else if (f.type === "event") {
      if (f.n <= n) return;
      if (f.n > n + 1) { ws.send(JSON.stringify({ type: "sync", last: n })); return; }
      n = f.n; table = f.table || table; view = f.view;
      if (f.kind === "sit" || (f.kind === "start" && document.querySelector(".bt-open"))) {
        if (!leaving) location.reload();  // the open table's seats changed: draw the page again
        return;
      }
      if (f.trick) flashTrick(f.trick);
      render();
    } else if (f.type === "presence") {
      table = f.table; drawSeats(); drawStatus(); tick();
    } else if (f.type === "ack") {
      pending = null; drawHand(); drawStatus(); tick();
    } else if (f.type === "refused") {
      // the server closes after these: reconnect later, the message stays shown
      if (f.code === "too_fast" || f.code === "too_large") wait = 1000 * (f.retry_in || 5);
      if (f.code === "barred") barred = true;  // a player of the table's event: not watching any more
      pending = null; showMessage(f.message); drawHand(); drawStatus(); tick();
    }
  }

  function flashTrick(trick) {
    // the completed trick stays on the table a moment before it is turned
    clearTimeout(flashTimer);
    flashTimer = null;
    drawTrick(trick.cards, trick.leader);
    var box = $(".bt-trick");
    box.classList.add("bt-taken");
    box.dataset.winner = posOf(trick.winner);
    flashTimer = setTimeout(function () {
      flashTimer = null; box.classList.remove("bt-taken");
      drawTrick(view && view.trick.cards, view && view.trick.leader);
    }, 1200);
  }

  $(".bt-decide").addEventListener("click", function (e) {
    var a = e.target.closest("[data-action]"); if (a) send(a.dataset.action);
  });
  $(".bt-resign").addEventListener("click", function () {
    if (window.confirm(TWO ? T.two_resign_confirm : T.resign_confirm) && ws && ws.readyState === 1) ws.send(JSON.stringify({ type: "resign" }));
  });
  $(".bt-last-btn").addEventListener("click", function () {
    var box = $(".bt-last");
    if (!box.hidden) { box.hidden = true; return; }
    box.innerHTML = "";
    if (view && view.last_trick) {
      box.appendChild(el("p", null, fmt(T.last_trick, { name: seatName(view.last_trick.winner) })));
      var row = el("div", "bt-last-cards");
      view.last_trick.cards.forEach(function (c) { row.appendChild(cardEl(c)); });
      box.appendChild(row);
    } else box.appendChild(el("p", null, T.no_last_trick));
    box.hidden = false;
  });

  // The socket's state, in a line of its own that stays while the connection is down (a move's
  // message above it comes and goes): "Connection lost, reconnecting…", then "Connected again."
  var conn = el("p", "bt-connection");
  conn.setAttribute("role", "status"); conn.hidden = true;
  $(".bt-message").after(conn);
  var lost = false, retry = null, connTimer = null, barred = false;
  function showConnection(text, briefly) {
    clearTimeout(connTimer);
    conn.textContent = text; conn.hidden = !text;
    conn.classList.toggle("bt-note", !!briefly);
    if (briefly) connTimer = setTimeout(function () { conn.hidden = true; }, 4000);
  }
  function reconnectSoon(ms) {
    clearTimeout(retry);
    retry = setTimeout(connect, ms);
  }

  function connect() {
    if (!root.dataset.ws) return;  // a private table seen by invitation: its socket is for its players
    retry = null;
    var proto = location.protocol === "https:" ? "wss://" : "ws://";
    ws = new WebSocket(proto + location.host + root.dataset.ws);
    ws.onopen = function () {
      backoff = 500;
      if (lost) { lost = false; showConnection(T.reconnected, true); }
      ws.send(JSON.stringify({ type: "sync", last: n }));
      if (pending) ws.send(JSON.stringify(pending));  // resent with the same id: applied at most once
    };
    ws.onmessage = function (m) { try { onFrame(JSON.parse(m.data)); } catch (e) { if (window.console) console.error(e); } };
    ws.onclose = function () {
      if (table.status === "finished" || barred) return;
      if (wait) { reconnectSoon(wait); wait = 0; return; }  // the "too fast" text stays shown
      lost = true;
      showConnection(T.reconnecting);
      // 0.5 s doubling to 8 s, each try a little earlier or later so a restarted server is not hit at once
      reconnectSoon(backoff * (0.75 + Math.random() * 0.5)); backoff = Math.min(8000, backoff * 2);
    };
  }
  // The phone's network is back: try now rather than at the end of the wait.
  window.addEventListener("online", function () {
    if (lost && retry) { backoff = 500; reconnectSoon(0); }
  });
  root.insertAdjacentHTML("afterbegin", '<svg class="bt-defs" width="0" height="0" aria-hidden="true"><defs><pattern id="bt-back" width="6" height="6" patternUnits="userSpaceOnUse"><rect width="6" height="6" fill="#1f6f4a"/><path d="M0 6L6 0" stroke="#7fbf9b" stroke-width="1.2"/></pattern></defs></svg>');
  render();
  connect();
  window.bilkaTable = { get n() { return n; }, get view() { return view; } };
})();
