/* The replay viewer (templates/archive/replay.html, archive/replays.py): steps through the deals
 * without a reload. The server has already drawn the position the address names; this script
 * redraws the same markup from the deals' data (#rp-data, json_script) and keeps the address
 * pointing at the position shown (history.replaceState), so a copied link opens there.
 * Keys: ← → a card; ↑ ↓ or Shift+← → a trick (the slider too); Page Up / Page Down a deal; Home /
 * End the deal's start or end; ? shows the keys. Words come translated from the server (#rp-i18n).
 * No spoilers: a deal's outcome, points and eyes after it show once the position reaches its end
 * (earlier deals show theirs); "Show results" (kept in localStorage, or ?results=1) shows them all.
 * They are not even in the page before then: #rp-data holds only the number and length of a deal
 * the replay has not finished (its cards come from ?part=deal when the replay steps into it), and
 * what the position shows of the results comes drawn by the server (?part=results).
 * The hands mark the card played next and, where the analysis is known, the best cards.
 * The graphs (the deal's par, the match's eyes) come drawn by the server for each position. */
(function () {
  "use strict";
  var root = document.getElementById("replay");
  if (!root) return;
  var D = JSON.parse(document.getElementById("rp-data").textContent);
  var T = JSON.parse(document.getElementById("rp-i18n").textContent);
  var SUIT = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
  var PLACE = { N: "top", E: "right", S: "bottom", W: "left" };
  var deal = D.position.deal, card = D.position.card;
  var RESULTS_KEY = "bilka.replay.results";
  function stored() { try { return localStorage.getItem(RESULTS_KEY); } catch (e) { return null; } }
  function store(v) { try { localStorage.setItem(RESULTS_KEY, v); } catch (e) { /* private mode */ } }
  if (D.results) store("1");
  var showAll = D.results || stored() === "1";

  function $(sel) { return root.querySelector(sel); }
  function fmt(s, args) { return s.replace(/%\((\w+)\)s/g, function (_, k) { return args[k]; }); }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = text;
    return e;
  }
  function rankOf(code) { return T.ranks[code[0]] || code[0]; }
  function cardEl(code, extra, label) {
    var e = el("span", "bt-card" + (code[1] === "H" || code[1] === "D" ? " bt-red" : "") + (extra ? " " + extra : ""));
    e.dataset.card = code;
    e.setAttribute("aria-label", (label || "") + rankOf(code) + " " + T.suit_word[code[1]]);
    e.appendChild(el("span", "bt-rank", rankOf(code)));
    e.appendChild(el("span", "bt-suit", SUIT[code[1]]));
    return e;
  }
  // Bilka for two: two seats, two cards a trick, each player his own side (D.seats "NS", D.sides N S)
  var SEATS = D.seats || "NESW", PER = SEATS.length, SIDES = D.sides || ["NS", "EW"];
  var S0 = SIDES[0], S1 = SIDES[1];
  function pairOf(seat) { return PER === 2 ? seat : seat === "N" || seat === "S" ? "NS" : "EW"; }
  /* Bilka's display order of a hand (jacks, then clubs, spades, hearts, diamonds, high to low), as
   * gameplay.engine.cards.hand_sort_key: drawn cards join a hand in that order. */
  function handOrder(code) {
    var suit = "CSHD".indexOf(code[1]), rank = "6789TJQKA".indexOf(code[0]);
    if (code[0] === "J") return suit;
    return 20 * (1 + suit) - [0, 1, 2, 3, 6, -1, 4, 5, 7][rank];
  }
  function name(seat) { return T.names[seat] || seat; }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }

  /* The position after k cards of deal di: the same as gameplay.engine.positions.Replay.position. */
  function position(di, k) {
    var d = D.deals[di];
    var played = d.cards.slice(0, k), gone = {};
    played.forEach(function (c) { gone[c[1]] = true; });
    var hands = {};
    SEATS.split("").forEach(function (s) {
      // the stock's cards a Bilka-for-two hand has drawn by now
      var drawn = (d.draws || []).filter(function (x) { return x[0] <= k && x[1] === s; }).map(function (x) { return x[2]; });
      hands[s] = d.hands[s].concat(drawn).filter(function (c) { return !gone[c]; });
      if (drawn.length) hands[s].sort(function (a, b) { return handOrder(a) - handOrder(b); });
    });
    var taken = d.tricks.slice(0, Math.floor(k / PER));
    var points = {}; points[S0] = 0; points[S1] = 0;
    taken.forEach(function (t) { points[pairOf(t.winner)] += t.points; });
    var trick = [], winner = null;
    if (k % PER) trick = played.slice(k - k % PER);
    else if (k) { trick = played.slice(k - PER); winner = taken[taken.length - 1].winner; }
    var toMove = k < d.cards.length ? d.cards[k][0] : d.to_move_at_end;
    return { hands: hands, trick: trick, winner: winner, taken: taken, points: points, toMove: toMove };
  }

  /* How many cards deal di has (a deal not asked for yet is known by its length alone). */
  function plays(di) { var d = D.deals[di]; return d.stub ? d.plays : d.cards.length; }

  function clamp(di, k) {
    di = Math.max(0, Math.min(D.deals.length - 1, di));
    return [di, Math.max(0, Math.min(plays(di), k))];
  }

  /* A deal's cards, tricks, line and analysis, asked for once when the replay steps into it. */
  var asked = {};
  function need(di) {
    if (!D.deals[di].stub) return null;
    if (!asked[di]) {
      asked[di] = fetch("?deal=" + (di + 1) + "&part=deal", { credentials: "same-origin" })
        .then(function (r) { if (!r.ok) throw new Error(String(r.status)); return r.json(); })
        .then(function (got) {
          D.deals[di] = got.deal; D.rows[di] = got.row;
          if (D.analysis && D.analysis.deals) D.analysis.deals[di] = got.analysis;
        })
        .catch(function (e) { delete asked[di]; throw e; });
    }
    return asked[di];
  }

  /* Where each step goes from here (null: nowhere): as archive.replays.navigation. */
  function targets() {
    var n = plays(deal), last = D.deals.length - 1;
    var prevCard = card ? [deal, card - 1] : deal ? [deal - 1, plays(deal - 1)] : null;
    var nextCard = card < n ? [deal, card + 1] : deal < last ? [deal + 1, 0] : null;
    return {
      prev_deal: deal ? [deal - 1, 0] : null,
      prev_trick: card ? [deal, Math.floor((card - 1) / PER) * PER] : null,
      prev_card: prevCard,
      next_card: nextCard,
      next_trick: card < n ? [deal, Math.min(n, Math.floor(card / PER) * PER + PER)] : null,
      next_deal: deal < last ? [deal + 1, 0] : null,
      start: [deal, 0],
      end: [deal, n]
    };
  }
  function href(t) { return "?deal=" + (t[0] + 1) + "&card=" + t[1]; }

  function status(d, p) {
    if (d.redeal) return T.redealt;
    var parts = [fmt(T.card_of, { k: card, n: d.cards.length })];
    if (card) parts.push(fmt(T.trick, { t: Math.floor((card - 1) / PER) + 1 }));
    if (p.winner) parts.push(fmt(T.taken_by, { name: name(p.winner) }));
    if (p.toMove) parts.push(fmt(T.to_play, { name: name(p.toMove) }));
    else if (!d.finished) parts.push(T.stops);
    return parts.join(" \u00b7 ");
  }

  /* Which deals' results show: every one asked for, else those whose end the position reached. */
  function open(i) {
    return showAll || i < deal || (i === deal && card === plays(deal));
  }
  function matchOpen() { return showAll || (deal === D.deals.length - 1 && open(deal)); }

  /* The marks in the hands: the card the record plays next, the best cards with all hands known. */
  function marks(d, p) {
    var m = {}, A = D.analysis, a = A && A.state === "done" ? A.deals[deal] : null;
    if (a && p.toMove && card < a.cards.length && a.cards[card]) a.cards[card][0].forEach(function (c) { m[c] = "rp-best"; });
    if (card < d.cards.length) {
      var next = d.cards[card][1];
      m[next] = m[next] ? m[next] + " rp-next" : "rp-next";
    }
    return m;
  }
  function markLabel(code, mark) {
    var e = cardEl(code, mark), label = e.getAttribute("aria-label");
    if (mark && mark.indexOf("rp-next") >= 0) label += ", " + T.next_card;
    if (mark && mark.indexOf("rp-best") >= 0) label += ", " + T.best_card;
    e.setAttribute("aria-label", label);
    return e;
  }

  function drawSeat(box, seat, d, p, m) {
    box.classList.toggle("bt-to-move", p.toMove === seat);
    var meta = box.querySelector(".rp-meta");
    clear(meta);
    var suit = d.suits ? d.suits[seat] : null;
    if (suit) {
      var mark = el("span", "rp-suit" + (suit === "H" || suit === "D" ? " rp-red" : ""), SUIT[suit]);
      mark.title = T.suit_word[suit];
      meta.appendChild(mark);
      meta.appendChild(document.createTextNode(" " + T.suit_word[suit]));
    }
    if (d.jack_holder === seat) { meta.appendChild(document.createTextNode(" ")); meta.appendChild(el("span", "rp-mark", T.jack_short)); }
    if (d.dealer === seat) { meta.appendChild(document.createTextNode(" ")); meta.appendChild(el("span", "rp-mark", T.dealer_short)); }
    var hand = box.querySelector(".rp-hand");
    clear(hand);
    p.hands[seat].forEach(function (c) { hand.appendChild(markLabel(c, m[c])); });
  }

  /* The double-dummy panel (archive/replay_analysis.py writes the same lines). */
  function words(code) { return rankOf(code) + SUIT[code[1]]; }
  function signed(n) { return n > 0 ? "+" + n : (n < 0 ? "\u2212" + (-n) : "0"); }
  function line(sel, text) { var e = $(sel); if (e) e.textContent = text || ""; }
  function drawAnalysis(d, p) {
    var A = D.analysis;
    if (!A || A.state !== "done") return;
    var a = A.deals[deal];
    line(".rp-dd-against", ""); line(".rp-dd-last", ""); line(".rp-dd-now", "");
    if (!a) { line(".rp-dd-par", T.dd_redealt); return; }
    line(".rp-dd-par", a.from_ply ? fmt(T.dd_par_from, { k: a.from_ply + 1, ns: a.par.NS, ew: a.par.EW })
      : fmt(T.dd_par, { ns: a.par.NS, ew: a.par.EW }));  // Kozyol's analysis may start later
    var against = $(".rp-dd-against");
    if (against) against.hidden = !open(deal);
    if (a.final) {
      line(".rp-dd-against", fmt(T.dd_against, { ns: a.final.NS, ew: a.final.EW,
        dns: signed(a.final.NS - a.par.NS), dew: signed(a.final.EW - a.par.EW) }));
    }
    if (card && card <= a.cards.length && a.cards[card - 1]) {
      var c = d.cards[card - 1], best = a.cards[card - 1];
      var args = { name: name(c[0]), card: words(c[1]), best: best[0].map(words).join(", "), lost: best[1] };
      line(".rp-dd-last", fmt(best[1] ? T.dd_lost : T.dd_best_card, args));
    }
    if (p.toMove && card < a.cards.length && a.cards[card]) {
      line(".rp-dd-now", fmt(T.dd_best_now, { name: name(p.toMove), cards: a.cards[card][0].map(words).join(", ") }));
    }
  }

  /* What a deal's end tells, shown or hidden (the server drew the same). */
  /* A result the server has not sent yet (?part=results is on its way) stays hidden, not empty. */
  function told(e) { return /\S/.test(e.textContent); }
  function drawResults() {
    var outcome = $(".rp-outcome");
    outcome.hidden = !open(deal) || !told(outcome);
    var after = $(".rp-eyes-after"), d = D.deals[deal];
    after.hidden = !open(deal) || (d.stub ? !told(after) : !d.finished);
    root.querySelectorAll(".rp-row-result").forEach(function (span, i) { span.hidden = !open(i) || !told(span); });
    var shown = matchOpen();
    document.querySelectorAll("[data-rp-match]").forEach(function (e) { e.hidden = !shown || !told(e); });
    document.querySelectorAll("[data-rp-match-off]").forEach(function (e) {
      var score = e.parentNode.querySelector("[data-rp-match]");
      e.hidden = shown && !!score && told(score);
    });
    document.querySelectorAll("[data-rp-winner]").forEach(function (e) { e.classList.toggle("winner", shown); });
    var toggle = $(".rp-results");
    toggle.textContent = showAll ? T.hide_results : T.show_results;
    toggle.setAttribute("aria-pressed", showAll ? "true" : "false");
    toggle.setAttribute("href", href([deal, card]) + (showAll ? "" : "&results=1"));
  }

  function draw() {
    var d = D.deals[deal], row = D.rows[deal], p = position(deal, card), m = marks(d, p);
    drawAnalysis(d, p);
    $(".rp-deal-name").textContent = fmt(T.deal_of, { n: d.number, total: D.deals.length });
    $(".rp-outcome").textContent = row.outcome;
    $(".rp-dealer").textContent = fmt(T.dealer, { name: name(d.dealer) });
    $(".rp-trump").textContent = d.trump ? T.trump + ": " + SUIT[d.trump] + " " + T.suit_word[d.trump] : "";
    $(".rp-jack").textContent = d.jack_holder ? fmt(T.jack, { name: name(d.jack_holder) })
      : d.catch ? fmt(T.catch, { name: name(d.catch) }) : "";  // Kozyol: no jack's holder; a catch
    $(".rp-duty").textContent = d.pair_on_duty ? fmt(T.duty, { pair: T.pair[d.pair_on_duty] }) : "";
    var redeal = $(".rp-redeal");
    redeal.hidden = !row.redeal;
    redeal.textContent = row.redeal || "";
    root.querySelectorAll(".rp-seat").forEach(function (box) { drawSeat(box, box.dataset.seat, d, p, m); });
    var legendBest = $(".rp-legend-best");
    if (legendBest) legendBest.hidden = !D.analysis.deals[deal];
    var trick = $(".rp-trick");
    clear(trick);
    trick.classList.toggle("bt-taken", !!p.winner);
    p.trick.forEach(function (c) { trick.appendChild(cardEl(c[1], "bt-at-" + PLACE[c[0]])); });
    $(".rp-status").textContent = status(d, p);
    $(".rp-points").textContent = d.redeal ? "" : fmt(T.points, { ns: p.points[S0], ew: p.points[S1] });
    $(".rp-eyes-before").textContent = fmt(T.eyes_before, { ns: d.score_before[S0], ew: d.score_before[S1] });
    $(".rp-eyes-after").textContent = d.finished
      ? " \u00b7 " + fmt(T.eyes_after, { ns: d.score_after[S0], ew: d.score_after[S1] }) : "";
    var list = $(".rp-trick-list");
    clear(list);
    p.taken.forEach(function (t, i) {
      var li = el("li", null, fmt(T.trick_line, { n: i + 1, leader: name(t.leader), winner: name(t.winner), points: t.points }) + " ");
      var cards = el("span", "rp-trick-cards");
      d.cards.slice(4 * i, 4 * i + 4).forEach(function (c) {
        var won = c[0] === t.winner;
        var played = el("span", "rp-played" + (won ? " rp-won" : ""));
        played.title = name(c[0]);
        var who = el("span", "rp-who", T.letters[c[0]]);
        who.setAttribute("aria-hidden", "true");
        played.appendChild(who);
        var face = cardEl(c[1], null, name(c[0]) + ": ");
        if (won) face.setAttribute("aria-label", face.getAttribute("aria-label") + ", " + T.took_trick);
        played.appendChild(face);
        cards.appendChild(played);
      });
      li.appendChild(cards);
      list.appendChild(li);
    });
    if (!p.taken.length) list.appendChild(el("li", "rp-none muted", T.no_tricks));
    var to = targets();
    root.querySelectorAll("[data-step]").forEach(function (a) {
      var t = to[a.dataset.step];
      if (t) { a.setAttribute("href", href(t)); a.removeAttribute("aria-disabled"); }
      else { a.removeAttribute("href"); a.setAttribute("aria-disabled", "true"); }
    });
    var slider = $(".rp-slider");
    slider.max = String(d.cards.length);
    slider.value = String(card);
    slider.disabled = !d.cards.length;
    root.querySelectorAll(".rp-deal-row a").forEach(function (a, i) {
      if (i === deal) a.setAttribute("aria-current", "true"); else a.removeAttribute("aria-current");
    });
    drawResults();
  }

  /* The graphs (archive/replay_graphs.py) and what the position shows of the results are the
   * server's drawing: asked for again (?part=results) for the position shown, the newest answer
   * only, and swapped in by id (a table left open stays open, a graph point that had the focus
   * keeps it). */
  var SWAPPED = ["rp-pg", "rp-eg", "rp-outcome", "rp-eyes-after", "rp-dd-against", "rp-match-line",
                 "rp-head-pairs", "rp-head-result"];
  var graphAsk = 0, graphTimer = null, graphAbort = null;
  function swapGraphs(html) {
    var got = new DOMParser().parseFromString(html, "text/html");
    var ids = SWAPPED.concat(D.deals.map(function (_, i) { return "rp-row-result-" + i; }));
    ids.forEach(function (id) {
      var now = document.getElementById(id), next = got.getElementById(id);
      if (!now || !next) return;
      var focused = now.contains(document.activeElement) ? document.activeElement.getAttribute("href") : null;
      var opened = now.querySelector("details[open]");
      next = document.importNode(next, true);
      if (opened) { var d = next.querySelector("details"); if (d) d.open = true; }
      now.parentNode.replaceChild(next, now);
      if (focused) {
        var again = next.querySelector('a[href="' + focused + '"]');
        if (again) again.focus();
      }
    });
  }
  function askResults() {
    if (!document.getElementById("rp-eg")) return;
    clearTimeout(graphTimer);
    graphTimer = setTimeout(function () {
      var mine = ++graphAsk;
      if (graphAbort) graphAbort.abort();
      graphAbort = window.AbortController ? new AbortController() : null;
      var url = href([deal, card]) + (showAll ? "&results=1" : "") + "&part=results";
      fetch(url, { credentials: "same-origin", signal: graphAbort ? graphAbort.signal : undefined })
        .then(function (r) { return r.ok ? r.text() : null; })
        .then(function (html) { if (html && mine === graphAsk) { swapGraphs(html); drawResults(); } })
        .catch(function () { /* a newer position asked, or offline: the graphs stay as they were */ });
    }, 60);
  }

  function show(t) {
    if (t[0] === deal && t[1] === card) return;
    deal = t[0]; card = t[1];
    draw();
    askResults();
    if (window.history && history.replaceState) history.replaceState(null, "", href(t));
  }
  /* Go to a position: [deal, card], or a function that names it from the position shown then
   * (a step). While a deal's cards are being asked for, later steps wait their turn, so two quick
   * keys move twice from where the first one went. */
  var pending = null, queue = [];
  function go(t) {
    if (pending) { queue.push(t); return; }
    if (typeof t === "function") t = t();
    if (!t) return;
    t = clamp(t[0], t[1]);
    if (t[0] === deal && t[1] === card) return;
    var loading = need(t[0]);
    if (!loading) { show(t); return; }
    pending = loading.then(function () { show(t); }, function () {
      location.href = href(t);  // the server draws it then
    }).then(function () {
      pending = null;
      var waiting = queue;
      queue = [];
      waiting.forEach(go);
    });
  }
  function stepTo(name) { return function () { return targets()[name]; }; }

  /* The address of the position shown, to copy or share (never ?results=1: no spoiler for them). */
  function address() { return location.origin + location.pathname + href([deal, card]); }
  var said = $(".rp-copied"), field = $(".rp-copy-field");
  function copyByHand() {
    field.value = address();
    field.hidden = false;
    field.focus();
    field.select();
    said.textContent = T.copy_by_hand;
  }
  function copy() {
    field.hidden = true;
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(address()).then(function () { said.textContent = T.copied; }, copyByHand);
    } else copyByHand();
  }
  $(".rp-copy").hidden = false;
  var share = $(".rp-share");
  if (navigator.share) {
    share.hidden = false;
    share.addEventListener("click", function () {
      navigator.share({ title: document.title, url: address() }).catch(function () { /* closed */ });
    });
  }
  $(".rp-copy").addEventListener("click", copy);
  $(".rp-results").addEventListener("keydown", function (event) {
    if (event.key === " ") { event.preventDefault(); event.target.click(); }  // a link that acts as a button
  });
  $(".rp-results").addEventListener("click", function (event) {
    event.preventDefault();
    showAll = !showAll;
    store(showAll ? "1" : "0");
    drawResults();
    askResults();
    if (window.history && history.replaceState) history.replaceState(null, "", href([deal, card]));
  });
  /* Autoplay: the next card every so often, to the match's end; any step, key or slider stops it. */
  var play = $(".rp-play"), speed = $(".rp-speed"), timer = null;
  function stop() {
    if (timer === null) return;
    clearInterval(timer); timer = null;
    play.textContent = play.dataset.play; play.setAttribute("aria-pressed", "false");
  }
  function tick() {
    if (pending) return;  // the next deal's cards are on their way
    var next = targets().next_card;
    if (!next) { stop(); return; }
    go(next);
  }
  function start() {
    if (!targets().next_card) go([0, 0]);  // at the end: from the start again
    timer = setInterval(tick, Number(speed.value));
    play.textContent = play.dataset.pause; play.setAttribute("aria-pressed", "true");
  }
  $(".rp-autoplay").hidden = false;
  play.addEventListener("click", function () { if (timer === null) start(); else stop(); });
  speed.addEventListener("change", function () { if (timer !== null) { stop(); start(); } });
  var keys = $(".rp-keys");
  drawResults();  // the choice kept from an earlier visit
  if (showAll && !D.results) askResults();

  root.addEventListener("click", function (event) {
    var step = event.target.closest("[data-step]");
    if (step) { event.preventDefault(); stop(); go(stepTo(step.dataset.step)); return; }
    var point = event.target.closest(".rp-graph a[href]");
    if (point) {
      var q = new URLSearchParams(point.getAttribute("href").slice(1));
      event.preventDefault(); stop(); go([Number(q.get("deal")) - 1, Number(q.get("card"))]);
      return;
    }
    var row = event.target.closest(".rp-deal-row a");
    if (row) { event.preventDefault(); go([Number(row.closest(".rp-deal-row").dataset.deal), 0]); }
  });
  $(".rp-slider").addEventListener("input", function (event) { stop(); go([deal, Number(event.target.value)]); });
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    var target = event.target;
    // a text field keeps its keys; the slider takes the page's (its own ↑ ↓ would move a card)
    if (target && target.matches && target.matches("input, select, textarea") && !target.classList.contains("rp-slider")) return;
    if (event.key === "?") { keys.open = !keys.open; event.preventDefault(); return; }
    if (event.key === "Escape" && keys.open) { keys.open = false; return; }
    var t;
    switch (event.key) {
      case "ArrowLeft": t = event.shiftKey ? "prev_trick" : "prev_card"; break;
      case "ArrowRight": t = event.shiftKey ? "next_trick" : "next_card"; break;
      case "ArrowUp": t = "prev_trick"; break;
      case "ArrowDown": t = "next_trick"; break;
      case "PageUp": t = "prev_deal"; break;
      case "PageDown": t = "next_deal"; break;
      case "Home": t = "start"; break;
      case "End": t = "end"; break;
      default: return;
    }
    event.preventDefault();
    stop();
    go(stepTo(t));
  });
})();
