/* The replay viewer (templates/archive/replay.html, archive/replays.py): steps through the deals
 * without a reload. The server has already drawn the position the address names; this script
 * redraws the same markup from the deals' data (#rp-data, json_script) and keeps the address
 * pointing at the position shown (history.replaceState), so a copied link opens there.
 * Keys: ← → a card; ↑ ↓ or Shift+← → a trick; Page Up / Page Down a deal; Home / End the deal's
 * start or end. Words come translated from the server (#rp-i18n). */
(function () {
  "use strict";
  var root = document.getElementById("replay");
  if (!root) return;
  var D = JSON.parse(document.getElementById("rp-data").textContent);
  var T = JSON.parse(document.getElementById("rp-i18n").textContent);
  var SUIT = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
  var PLACE = { N: "top", E: "right", S: "bottom", W: "left" };
  var deal = D.position.deal, card = D.position.card;

  function $(sel) { return root.querySelector(sel); }
  function fmt(s, args) { return s.replace(/%\((\w+)\)s/g, function (_, k) { return args[k]; }); }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = text;
    return e;
  }
  function rankOf(code) { return T.ranks[code[0]] || code[0]; }
  function cardEl(code, extra) {
    var e = el("span", "bt-card" + (extra ? " " + extra : "") + (code[1] === "H" || code[1] === "D" ? " bt-red" : ""));
    e.dataset.card = code;
    e.setAttribute("aria-label", rankOf(code) + " " + T.suit_word[code[1]]);
    e.appendChild(el("span", "bt-rank", rankOf(code)));
    e.appendChild(el("span", "bt-suit", SUIT[code[1]]));
    return e;
  }
  function pairOf(seat) { return seat === "N" || seat === "S" ? "NS" : "EW"; }
  function name(seat) { return T.names[seat] || seat; }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }

  /* The position after k cards of deal di: the same as gameplay.engine.positions.Replay.position. */
  function position(di, k) {
    var d = D.deals[di];
    var played = d.cards.slice(0, k), gone = {};
    played.forEach(function (c) { gone[c[1]] = true; });
    var hands = {};
    "NESW".split("").forEach(function (s) {
      hands[s] = d.hands[s].filter(function (c) { return !gone[c]; });
    });
    var taken = d.tricks.slice(0, Math.floor(k / 4));
    var points = { NS: 0, EW: 0 };
    taken.forEach(function (t) { points[pairOf(t.winner)] += t.points; });
    var trick = [], winner = null;
    if (k % 4) trick = played.slice(k - k % 4);
    else if (k) { trick = played.slice(k - 4); winner = taken[taken.length - 1].winner; }
    var toMove = k < d.cards.length ? d.cards[k][0] : d.to_move_at_end;
    return { hands: hands, trick: trick, winner: winner, taken: taken, points: points, toMove: toMove };
  }

  function clamp(di, k) {
    di = Math.max(0, Math.min(D.deals.length - 1, di));
    return [di, Math.max(0, Math.min(D.deals[di].cards.length, k))];
  }

  /* Where each step goes from here (null: nowhere): as archive.replays.navigation. */
  function targets() {
    var plays = D.deals[deal].cards.length, last = D.deals.length - 1;
    var prevCard = card ? [deal, card - 1] : deal ? [deal - 1, D.deals[deal - 1].cards.length] : null;
    var nextCard = card < plays ? [deal, card + 1] : deal < last ? [deal + 1, 0] : null;
    return {
      prev_deal: deal ? [deal - 1, 0] : null,
      prev_trick: card ? [deal, Math.floor((card - 1) / 4) * 4] : null,
      prev_card: prevCard,
      next_card: nextCard,
      next_trick: card < plays ? [deal, Math.min(plays, Math.floor(card / 4) * 4 + 4)] : null,
      next_deal: deal < last ? [deal + 1, 0] : null,
      start: [deal, 0],
      end: [deal, plays]
    };
  }
  function href(t) { return "?deal=" + (t[0] + 1) + "&card=" + t[1]; }

  function status(d, p) {
    if (d.redeal) return T.redealt;
    var parts = [fmt(T.card_of, { k: card, n: d.cards.length })];
    if (card) parts.push(fmt(T.trick, { t: Math.floor((card - 1) / 4) + 1 }));
    if (p.winner) parts.push(fmt(T.taken_by, { name: name(p.winner) }));
    if (p.toMove) parts.push(fmt(T.to_play, { name: name(p.toMove) }));
    else if (!d.finished) parts.push(T.stops);
    return parts.join(" \u00b7 ");
  }

  function drawSeat(box, seat, d, p) {
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
    p.hands[seat].forEach(function (c) { hand.appendChild(cardEl(c)); });
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
    line(".rp-dd-par", fmt(T.dd_par, { ns: a.par.NS, ew: a.par.EW }));
    if (a.final) {
      line(".rp-dd-against", fmt(T.dd_against, { ns: a.final.NS, ew: a.final.EW,
        dns: signed(a.final.NS - a.par.NS), dew: signed(a.final.EW - a.par.EW) }));
    }
    if (card && card <= a.cards.length) {
      var c = d.cards[card - 1], best = a.cards[card - 1];
      var args = { name: name(c[0]), card: words(c[1]), best: best[0].map(words).join(", "), lost: best[1] };
      line(".rp-dd-last", fmt(best[1] ? T.dd_lost : T.dd_best_card, args));
    }
    if (p.toMove && card < a.cards.length) {
      line(".rp-dd-now", fmt(T.dd_best_now, { name: name(p.toMove), cards: a.cards[card][0].map(words).join(", ") }));
    }
  }

  function draw() {
    var d = D.deals[deal], row = D.rows[deal], p = position(deal, card);
    drawAnalysis(d, p);
    $(".rp-deal-name").textContent = fmt(T.deal_of, { n: d.number, total: D.deals.length });
    $(".rp-outcome").textContent = row.outcome;
    $(".rp-dealer").textContent = fmt(T.dealer, { name: name(d.dealer) });
    $(".rp-trump").textContent = d.trump ? T.trump + ": " + SUIT[d.trump] + " " + T.suit_word[d.trump] : "";
    $(".rp-jack").textContent = fmt(T.jack, { name: name(d.jack_holder) });
    $(".rp-duty").textContent = d.pair_on_duty ? fmt(T.duty, { pair: T.pair[d.pair_on_duty] }) : "";
    var redeal = $(".rp-redeal");
    redeal.hidden = !row.redeal;
    redeal.textContent = row.redeal || "";
    root.querySelectorAll(".rp-seat").forEach(function (box) { drawSeat(box, box.dataset.seat, d, p); });
    var trick = $(".rp-trick");
    clear(trick);
    trick.classList.toggle("bt-taken", !!p.winner);
    p.trick.forEach(function (c) { trick.appendChild(cardEl(c[1], "bt-at-" + PLACE[c[0]])); });
    $(".rp-status").textContent = status(d, p);
    $(".rp-points").textContent = d.redeal ? "" : fmt(T.points, { ns: p.points.NS, ew: p.points.EW });
    var eyes = fmt(T.eyes_before, { ns: d.score_before.NS, ew: d.score_before.EW });
    if (d.finished) eyes += " \u00b7 " + fmt(T.eyes_after, { ns: d.score_after.NS, ew: d.score_after.EW });
    $(".rp-eyes").textContent = eyes;
    var list = $(".rp-trick-list");
    clear(list);
    p.taken.forEach(function (t, i) {
      var li = el("li", null, fmt(T.trick_line, { n: i + 1, leader: name(t.leader), winner: name(t.winner), points: t.points }) + " ");
      var cards = el("span", "rp-trick-cards");
      d.cards.slice(4 * i, 4 * i + 4).forEach(function (c) { cards.appendChild(cardEl(c[1])); });
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
  }

  function go(t) {
    if (!t) return;
    t = clamp(t[0], t[1]);
    if (t[0] === deal && t[1] === card) return;
    deal = t[0]; card = t[1];
    draw();
    if (window.history && history.replaceState) history.replaceState(null, "", href(t));
  }

  root.addEventListener("click", function (event) {
    var step = event.target.closest("[data-step]");
    if (step) { event.preventDefault(); go(targets()[step.dataset.step]); return; }
    var row = event.target.closest(".rp-deal-row a");
    if (row) { event.preventDefault(); go([Number(row.closest(".rp-deal-row").dataset.deal), 0]); }
  });
  $(".rp-slider").addEventListener("input", function (event) { go([deal, Number(event.target.value)]); });
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    var target = event.target;
    // the slider steps itself with the arrows; a text field keeps its keys
    if (target && target.matches && target.matches("input, select, textarea") && !(target.classList.contains("rp-slider") && (event.key === "PageUp" || event.key === "PageDown"))) return;
    var to = targets(), t;
    switch (event.key) {
      case "ArrowLeft": t = event.shiftKey ? to.prev_trick : to.prev_card; break;
      case "ArrowRight": t = event.shiftKey ? to.next_trick : to.next_card; break;
      case "ArrowUp": t = to.prev_trick; break;
      case "ArrowDown": t = to.next_trick; break;
      case "PageUp": t = to.prev_deal; break;
      case "PageDown": t = to.next_deal; break;
      case "Home": t = to.start; break;
      case "End": t = to.end; break;
      default: return;
    }
    event.preventDefault();
    go(t);
  });
})();
