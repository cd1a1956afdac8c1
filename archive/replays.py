"""The replay viewer as one call any page can make: `render_replay(request, record=..., ...)`.

A table's replay, the archive of played matches and an uploaded record all show a match the same
way, so the viewer is one piece: the server draws the position the address names (`?deal=` from 1,
`?card=` from 0), so the page reads before any script runs and a shared link opens where it
points; `static/js/replay.js` then steps through the deals without a reload. It shows only what
the caller passes in: a match in progress passes its finished deals alone (`visible_deals`).

No spoilers: a deal's outcome, its points and the eyes after it are left out of the page (its
HTML and its data for the script) until the position reaches that deal's end; earlier deals show
theirs. The match's result waits for the end of the last deal. `?results=1` (the script keeps the
choice in localStorage) shows every result at once. The script asks the same address for the rest
as the replay moves: `?part=deal` (a deal's cards, when it steps into it) and `?part=results`
(what the position shows of the results, and the graphs, drawn here).

A little over 400 lines: the words of each deal's facts (Bilka's and Kozyol's) are written here, beside
the words the script is given (`replay_texts`), so that the page and the script say the same.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from archive import replay_analysis, replay_graphs
from archive.replay_analysis import DONE, FAILED, PENDING
from gameplay.engine.cards import SEATS, SUITS
from gameplay.engine.errors import RecordError
from gameplay.engine.positions import DealSummary, Position, RedealAsked, Replay, Trick
from gameplay.words import SUIT_SYMBOL, deal_outcome, pair_name, rank_words, seat_letter, suit_name

TEMPLATE = "archive/replay.html"
#: What the position shows of the results, and the graphs, for the script to swap in as it steps
#: (`?part=results`).
RESULTS_TEMPLATE = "archive/_replay_results.html"
#: Where each seat sits on the drawn table: North at the top, South at the bottom.
PLACE = {"N": "top", "E": "right", "S": "bottom", "W": "left"}


def render_replay(
    request: HttpRequest,
    *,
    record: dict[str, Any] | None,
    title: str,
    back_url: str,
    back_label: str,
    download_url: str | None,
    verify_url: str | None = None,
    visible_deals: int | None = None,
    empty_message: str | None = None,
    players: dict[str, str] | None = None,
    extra: dict[str, Any] | None = None,
    analysis: dict[str, Any] | None = None,
    analysis_state: str = "",
) -> HttpResponse:
    """The replay page of `record` (bilka-record/1) at the position of `?deal=` and `?card=`.

    `visible_deals`: only the first N deals are shown (a match in progress shows its finished deals,
    never the one being played); None shows them all. A record of no (visible) deal, or None, gives
    the page with `empty_message`. `players` names the seats instead of the record's `players` (a
    table names its bots in the reader's language). `extra` is added to the template's context
    (`note`: a line under the title). A record that breaks the rules gives the page with the
    scorer's reason. `analysis_state` (archive.replay_analysis: pending, done, failed; "" for
    none) and `analysis`, its bilka-analysis/1, draw the double-dummy panel."""
    context: dict[str, Any] = {
        "title": title, "back_url": back_url, "back_label": back_label, "download_url": download_url,
        "verify_url": verify_url,
        "empty_message": empty_message or _("No deal has been played to the end yet."),
        **(extra or {}),
    }
    if record is None:
        return render(request, TEMPLATE, {**context, "empty": True})
    try:
        replay = Replay.from_record(record)
    except RecordError as exc:
        return render(request, TEMPLATE, {**context, "empty": True, "error": str(exc)})
    shown = len(replay.deals) if visible_deals is None else max(0, min(visible_deals, len(replay.deals)))
    if not shown:
        return render(request, TEMPLATE, {**context, "empty": True})
    deal_index, card = replay.clamp(_int(request.GET.get("deal"), 1) - 1, _int(request.GET.get("card"), 0))
    deal_index = min(deal_index, shown - 1)
    deal_index, card = replay.clamp(deal_index, card)
    if players:
        replay.players = {**replay.players, **players}
    part = request.GET.get("part")
    if part == "deal":
        return JsonResponse(deal_data(replay, deal_index, shown, analysis=analysis,
                                      analysis_state=analysis_state))
    context.update(replay_context(replay, deal_index, card, shown, analysis=analysis,
                                  analysis_state=analysis_state,
                                  results=request.GET.get("results") == "1"))
    if part == "results":
        return render(request, RESULTS_TEMPLATE, context)
    return render(request, TEMPLATE, context)


def _int(value: str | None, default: int) -> int:
    try:
        return int(value) if value is not None else default
    except ValueError:
        return default


def replay_context(replay: Replay, deal_index: int, card: int, shown: int, *,
                   analysis: dict[str, Any] | None = None, analysis_state: str = "",
                   results: bool = False) -> dict[str, Any]:
    """Everything the template draws for one position, and the data the script steps through.

    `results`: every deal's outcome and the match's shown (else only those the position has
    reached the end of)."""
    deal = replay.deals[deal_index]
    pos = replay.position(deal_index, card)
    names = {s: player_name(replay.players, s) for s in SEATS}
    at_end = pos.card == deal.plays
    rows = [deal_row(d, names) for d in replay.deals[:shown]]
    for i, row in enumerate(rows):
        row["open"] = results or i < deal_index or (i == deal_index and at_end)
    dd_deals = replay_analysis.analysis_data(replay, analysis, shown) if analysis_state == DONE else []
    for row, dd_deal in zip(rows, dd_deals, strict=False):
        row["dd"] = replay_analysis.row_line(dd_deal)
    data = replay.to_json(visible_deals=shown)
    # No spoilers in the page's source either: a deal the replay has not finished is only its
    # number and length here; the script asks for the rest (?part=deal) when it steps into it.
    data["deals"] = [d if row["open"] else deal_stub(d) for d, row in zip(data["deals"], rows, strict=True)]
    data["position"] = {"deal": deal_index, "card": pos.card}
    data["rows"] = [row if row["open"] else None for row in rows]
    data["results"] = results
    data["analysis"] = {"state": analysis_state,
                        "deals": [d if row["open"] else None for d, row in zip(dd_deals, rows, strict=False)]}
    marks = card_marks(deal, pos, dd_deals[deal_index] if dd_deals else None)
    match_open = results or (deal_index == shown - 1 and at_end)
    return {
        "par_graph": par_graph_view(replay, deal_index, pos.card, dd_deals, analysis_state, names,
                                    results=results),
        "eye_graph": replay_graphs.eye_graph(list(replay.deals), shown, deal_index,
                                             [row["open"] for row in rows], results=results),
        "dd": replay_analysis.panel(analysis_state, dd_deals, deal_index, pos, names, list(deal.cards),
                                    rank_words()) if analysis_state else None,
        "empty": False,
        "deal": deal,
        "deal_facts": deal_facts(deal, names),
        "pos": pos,
        "status": position_status(deal, pos, names, replay.per_trick),
        "seats": [seat_view(s, deal, pos, names, marks) for s in ("N", "W", "E", "S") if s in replay.seats],
        "marks_best": dd_deals[deal_index] is not None if dd_deals else False,
        "trick": [{"place": PLACE[s], **card_view(c)} for s, c in pos.trick],
        "trick_winner": names[pos.trick_winner] if pos.trick_winner else "",
        "taken": [trick_view(i, t, names) for i, t in enumerate(pos.tricks)],
        "points_line": "" if deal.redeal is not None else points_words(pos.points),
        "eyes_before": eyes_before_line(pos),
        "eyes_after": eyes_after_line(pos) if deal.finished else "",
        "nav": navigation(replay, deal_index, pos.card, shown, results=results),
        "deal_rows": rows,
        "row": rows[deal_index],
        "shown_deals": shown,
        "results": results,
        "results_href": _href(deal_index, pos.card, results=not results),
        "result_hidden": not match_open,
        "match_line": match_line(replay, names) if shown == len(replay.deals) else "",
        "replay_data": data,
        "replay_i18n": replay_texts(names, two=replay.per_trick == 2),
    }


def deal_stub(deal: dict[str, Any]) -> dict[str, Any]:
    """A deal the page's script knows only the number and length of (the rest waits for ?part=deal)."""
    return {"number": deal["number"], "plays": len(deal["cards"]), "stub": True}


def deal_data(replay: Replay, deal_index: int, shown: int, *, analysis: dict[str, Any] | None,
              analysis_state: str) -> dict[str, Any]:
    """One deal whole, for the script that steps into it (?part=deal): its cards and tricks, its
    line in the deal list and its analysis. The page that asks already shows the deal; its result
    shows when the replay reaches the end."""
    names = {s: player_name(replay.players, s) for s in SEATS}
    row = deal_row(replay.deals[deal_index], names)
    dd_deals = replay_analysis.analysis_data(replay, analysis, shown) if analysis_state == DONE else []
    dd_deal = dd_deals[deal_index] if dd_deals else None
    row["dd"] = replay_analysis.row_line(dd_deal) if dd_deals else ""
    return {"deal": replay.to_json(visible_deals=shown)["deals"][deal_index], "row": row, "analysis": dd_deal}


def par_graph_view(replay: Replay, deal_index: int, card: int, dd_deals: list[dict[str, Any] | None],
                   analysis_state: str, names: dict[str, str], *, results: bool) -> dict[str, Any] | None:
    """The par graph of the deal shown, or why there is none (`why`); None where the replay has no
    analysis at all (a table's replay)."""
    if analysis_state == PENDING:
        return {"why": _("No par graph yet: the match is still being analysed.")}
    if analysis_state == FAILED:
        return {"why": _("No par graph: this match could not be analysed.")}
    if analysis_state != DONE:
        return None
    dd_deal = dd_deals[deal_index] if deal_index < len(dd_deals) else None
    if dd_deal is None:
        return {"why": _("No par graph: this deal was redealt.")}
    return replay_graphs.par_graph(deal_index, replay.deals[deal_index], dd_deal, card, show_all=results,
                                   results=results, names=names, ranks=rank_words())


def player_name(players: dict[str, str], seat: str) -> str:
    """`Aigerim (N)`: the record's name for the seat, with the seat as the reader writes it."""
    name = players.get(seat, "")
    return f"{name} ({seat_letter(seat)})" if name else seat_letter(seat)


def card_view(code: str, ranks: dict[str, str] | None = None) -> dict[str, Any]:
    """A card as the page draws it (the classes of the live table: `bt-card`, `bt-red`)."""
    rank = (ranks or rank_words())[code[0]]
    return {"code": code, "rank": rank, "suit": SUIT_SYMBOL[code[1]], "red": code[1] in "HD",
            "label": f"{rank} {suit_name(code[1])}"}


def card_marks(deal: DealSummary, pos: Position, dd_deal: dict[str, Any] | None) -> dict[str, str]:
    """The cards marked in the hands: `rp-next`, the card the record plays next; `rp-best`, the
    best cards with all hands known (where the analysis is done)."""
    marks: dict[str, str] = {}
    cards = dd_deal["cards"] if dd_deal is not None else []
    best_now = cards[pos.card] if pos.card < len(cards) else None  # None: a card Kozyol's analysis skips
    if best_now and pos.to_move:
        marks.update(dict.fromkeys(best_now[0], "rp-best"))
    if pos.card < deal.plays:
        code = deal.cards[pos.card][1]
        marks[code] = f"{marks[code]} rp-next" if code in marks else "rp-next"
    return marks


def trick_view(index: int, trick: Trick, names: dict[str, str]) -> dict[str, Any]:
    """A taken trick for the list: each card with the seat that played it; the winner's marked."""
    winner = trick.winner or trick.leader
    return {"number": index + 1, "leader": names[trick.leader], "winner": names[winner],
            "points": trick.points,
            "cards": [{"seat": seat_letter(s), "name": names[s], "won": s == winner, **card_view(c)}
                      for s, c in trick.cards]}


def seat_view(seat: str, deal: DealSummary, pos: Position, names: dict[str, str],
              marks: dict[str, str] | None = None) -> dict[str, Any]:
    suit = deal.suits[seat] if deal.suits else None
    return {
        "seat": seat, "place": PLACE[seat], "name": names[seat],
        "suit": suit, "suit_symbol": SUIT_SYMBOL[suit] if suit else "",
        "suit_word": suit_name(suit) if suit else "",
        "red": suit in ("H", "D"),
        "jack": deal.jack_holder == seat, "dealer": deal.dealer == seat, "to_move": pos.to_move == seat,
        "cards": [{**card_view(c), "mark": (marks or {}).get(c, "")} for c in pos.hands[seat]],
    }


def deal_facts(deal: DealSummary, names: dict[str, str]) -> dict[str, str]:
    """The deal's standing facts in words: dealer, trump, pair on duty, whose suit is whose; in
    Kozyol (no jack of clubs' holder, nobody on duty) whose шамок caught the queen of clubs."""
    facts = {"dealer": _("Dealer: %(name)s") % {"name": names[deal.dealer]}}
    if deal.jack_holder:
        facts["jack"] = _("Jack of clubs: %(name)s") % {"name": names[deal.jack_holder]}
    if deal.catch:
        facts["catch"] = _("Caught: the shamok of %(name)s took the other pair's queen of clubs.") % {
            "name": names[deal.catch]}
    if deal.trump:
        facts["trump"] = f"{_('Trump')}: {SUIT_SYMBOL[deal.trump]} {suit_name(deal.trump)}"
    if deal.pair_on_duty:
        facts["duty"] = _("On duty: %(pair)s") % {"pair": pair_name(deal.pair_on_duty)}
    return facts


def redeal_reason(asked: RedealAsked, names: dict[str, str]) -> str:
    """Why the hand that asked for the redeal qualified, by the rule it met (RULES.md, "Redeal")."""
    why = []
    for rule, detail in asked.grounds:
        if rule == "points":
            why.append(_("%(points)s points in the hand, fewer than %(below)s")
                       % {"points": detail, "below": asked.redeal_below})
        elif rule == "four_nines":
            why.append(_("all four nines"))
        elif rule == "five_of_suit":
            why.append(_("five or more %(suit)s") % {"suit": suit_name(str(detail))})
        elif rule == "queens":
            why.append(_("the queens of Kozyol's redeal rule"))
    asked_by = _("Redeal asked by %(name)s.") % {"name": names[asked.seat]}
    return f"{asked_by} {_('The hand qualified: %(why)s.') % {'why': '; '.join(why)}}" if why else asked_by


def deal_row(deal: DealSummary, names: dict[str, str]) -> dict[str, Any]:
    """One line of the deal list: outcome, points, eyes opened and the score after."""
    row: dict[str, Any] = {"number": deal.number, "outcome": deal_outcome(deal.outcome), "code": deal.outcome,
                           "finished": deal.finished, "redeal": "", "points": "", "eyes": "",
                           "score": _score_words(deal.score_after)}
    if deal.redeal is not None:
        row["redeal"] = redeal_reason(deal.redeal, names)
    if deal.points is not None:
        row["points"] = points_words(deal.points)
    if deal.finished:
        two = "N" in deal.eyes
        eyes = _("Eyes opened: N +%(ns)s · S +%(ew)s") if two else _("Eyes opened: NS +%(ns)s · EW +%(ew)s")
        row["eyes"] = eyes % _sides(deal.eyes)
    return row


def _sides(values: dict[str, int]) -> dict[str, int]:
    """A score's two sides as the lines name them (`ns`, `ew`): the pairs, or in Bilka for two
    the players N and S (a score keyed `N` and `S`)."""
    if "N" in values:
        return {"ns": values["N"], "ew": values["S"]}
    return {"ns": values["NS"], "ew": values["EW"]}


def _score_words(score: dict[str, int]) -> str:
    line = _("Score: N %(ns)s : S %(ew)s") if "N" in score else _("Score: NS %(ns)s : EW %(ew)s")
    return line % _sides(score)


def position_status(deal: DealSummary, pos: Position, names: dict[str, str], per_trick: int = 4) -> str:
    """`Card 5 of 32 · trick 2 · W to play`: where the position is, in words."""
    if deal.redeal is not None:
        return _("This deal was redealt: no card was played.")
    parts = [_("Card %(k)s of %(n)s") % {"k": pos.card, "n": pos.plays}]
    if pos.card:
        parts.append(_("trick %(t)s") % {"t": (pos.card - 1) // per_trick + 1})
    if pos.trick_winner:
        parts.append(_("taken by %(name)s") % {"name": names[pos.trick_winner]})
    if pos.to_move:
        parts.append(_("%(name)s to play") % {"name": names[pos.to_move]})
    elif not deal.finished:
        parts.append(_("The deal stops here: it was not played to the end."))
    return " · ".join(parts)


def points_words(points: dict[str, int]) -> str:
    line = _("Points: N %(ns)s · S %(ew)s") if "N" in points else _("Points: NS %(ns)s · EW %(ew)s")
    return line % _sides(points)


def eyes_before_line(pos: Position) -> str:
    two = "N" in pos.eyes_before
    line = (_("Eyes before the deal: N %(ns)s : S %(ew)s") if two
            else _("Eyes before the deal: NS %(ns)s : EW %(ew)s"))
    return line % _sides(pos.eyes_before)


def eyes_after_line(pos: Position) -> str:
    """The eyes after a finished deal (shown once the replay reaches its end)."""
    two = "N" in pos.eyes_after
    line = _("after it: N %(ns)s : S %(ew)s") if two else _("after it: NS %(ns)s : EW %(ew)s")
    return line % _sides(pos.eyes_after)


def match_line(replay: Replay, names: dict[str, str]) -> str:
    """How the match ended, when it has: the winner and, if not by eyes, why."""
    if replay.winner is None:
        return ""
    if replay.per_trick == 2:  # Bilka for two: a player won, no pair
        line = _("%(name)s won the match.") % {"name": names[replay.winner]}
    else:
        line = _("%(pair)s won the match.") % {"pair": pair_name(replay.winner)}
    if replay.end is not None:
        reason, seat = replay.end
        words = {"timeout": _("%(name)s ran out of time."), "resign": _("%(name)s resigned."),
                 "forfeit": _("%(name)s forfeited.")}
        line += " " + words[reason] % {"name": names[seat]}
    return line + " " + _score_words(replay.score)


def _href(deal_index: int, card: int, *, results: bool = False) -> str:
    return f"?deal={deal_index + 1}&card={card}" + ("&results=1" if results else "")


def navigation(replay: Replay, deal_index: int, card: int, shown: int, *,
               results: bool = False) -> dict[str, str | None]:
    """The step links, each a plain `?deal=&card=` address (they work without the script).

    A card step runs on into the next or previous deal; a trick step stays in the deal; a deal step
    opens the deal before its first card. None: no step that way."""
    plays = replay.deals[deal_index].plays
    per = replay.per_trick
    prev_card: tuple[int, int] | None = (deal_index, card - 1) if card else None
    if prev_card is None and deal_index:
        prev_card = (deal_index - 1, replay.deals[deal_index - 1].plays)
    next_card: tuple[int, int] | None = (deal_index, card + 1) if card < plays else None
    if next_card is None and deal_index + 1 < shown:
        next_card = (deal_index + 1, 0)
    steps = {
        "prev_deal": (deal_index - 1, 0) if deal_index else None,
        "prev_trick": (deal_index, (card - 1) // per * per) if card else None,
        "prev_card": prev_card,
        "next_card": next_card,
        "next_trick": (deal_index, min(plays, card // per * per + per)) if card < plays else None,
        "next_deal": (deal_index + 1, 0) if deal_index + 1 < shown else None,
    }
    return {k: (_href(*v, results=results) if v is not None else None) for k, v in steps.items()}


def replay_texts(names: dict[str, str], *, two: bool = False) -> dict[str, Any]:
    """The words the script writes as it steps (the same as the server's), in the reader's language
    (`two`: Bilka for two's, its sides the players N and S)."""
    return {
        "names": names,
        "suit_word": {s: suit_name(s) for s in SUITS},
        "ranks": rank_words(),
        "pair": {"NS": pair_name("NS"), "EW": pair_name("EW")},
        "card_of": _("Card %(k)s of %(n)s"),
        "trick": _("trick %(t)s"),
        "taken_by": _("taken by %(name)s"),
        "to_play": _("%(name)s to play"),
        "stops": _("The deal stops here: it was not played to the end."),
        "redealt": _("This deal was redealt: no card was played."),
        "catch": _("Caught: the shamok of %(name)s took the other pair's queen of clubs."),
        "points": _("Points: N %(ns)s · S %(ew)s") if two else _("Points: NS %(ns)s · EW %(ew)s"),
        "eyes_before": _("Eyes before the deal: N %(ns)s : S %(ew)s") if two
        else _("Eyes before the deal: NS %(ns)s : EW %(ew)s"),
        "eyes_after": _("after it: N %(ns)s : S %(ew)s") if two else _("after it: NS %(ns)s : EW %(ew)s"),
        "dealer": _("Dealer: %(name)s"),
        "jack": _("Jack of clubs: %(name)s"),
        "trump": _("Trump"),
        "duty": _("On duty: %(pair)s"),
        "deal_of": _("Deal %(n)s of %(total)s"),
        "trick_line": _("Trick %(n)s: %(leader)s led, %(winner)s took %(points)s"),
        "jack_short": pgettext("jack of clubs, short", "J♣"),
        "dealer_short": pgettext("the dealer, short", "dealer"),
        "no_tricks": _("No trick taken yet."),
        "letters": {s: seat_letter(s) for s in SEATS},
        "took_trick": _("took the trick"),
        "next_card": _("played next"),
        "best_card": _("a best card with all hands known"),
        "show_results": _("Show results"),
        "hide_results": _("Hide results"),
        "copied": _("Link copied."),
        "copy_by_hand": _("Copy the address below."),
        **replay_analysis.panel_texts(),
    }
