"""Results of online rounds: take a finished live table's result (gameplay) as a match's result.

The only place where tournaments read gameplay's rows. A live table knows its four seats and
the final score, and the server saw every card, so its result needs no confirmation — provided
the table really is this match: the same four accounts, partners opposite each other, the
tournament's rules, played after the round was paired, and not used for another match — and
provided its stored result is what replaying its record with the engine gives. The organiser's
import and the automatic path after a table ends share that one check (``checked_table``).
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubs.models import Player
from gameplay.engine import EngineError, read_record
from gameplay.engine.cards import PAIRS, SEATS
from gameplay.engine.record_games import read_game_record, score_game_state
from gameplay.engine.sheets import WIN_SCORE, InvalidScore, validate_final_score
from gameplay.models import Table, TableStatus

from .. import permissions
from ..core.games import KOZYOL, normalised_rules, score_deals, tournament_game
from ..models import Match, MatchStatus
from ..score_words import score_error_text
from .archiving import sync_board_table, sync_match
from .common import audit, lock_tournament, lucy_counts, require_user, write_deal_lines
from .online_boards import BOARD_REFUSALS, board_rows_text, check_board_record, save_board_results
from .progress import refresh_round

NS, EW = (0, 2), (1, 3)  # seats N E S W: partners sit opposite
FORFEIT_REASONS = frozenset({"resign", "timeout"})

#: Why a live table's result is not taken, by code. A refusal is a ValidationError with this code
#: and JSON-ready params, so the automatic path can keep it on the match (``Match.live_refusal``)
#: and each page says it in its reader's language (``refusal_text``).
REFUSALS = {
    "no_table": gettext_lazy("There is no live table number %(n)d."),
    "not_finished": gettext_lazy("Table %(n)d has not finished its match yet."),
    "other_match": gettext_lazy("Table %(n)d already gave the result of another match."),
    "too_early": gettext_lazy("Table %(n)d was played before this round was paired."),
    "other_rules": gettext_lazy("Table %(n)d was played with other rules than the tournament's."),
    "no_accounts": gettext_lazy("All four players need accounts to play a match at a live table."),
    "not_the_pairs": gettext_lazy(
        "The players at table %(n)d are not this match's two pairs (partners sit opposite)."
    ),
    "no_record": gettext_lazy("Table %(n)d kept no record of its match, so its result cannot be checked."),
    "bad_record": gettext_lazy("The record of table %(n)d does not replay: %(error)s"),
    "record_disagrees": gettext_lazy(
        "Table %(n)d stored the result %(stored)s, but replaying its record gives %(replayed)s."
    ),
    "bad_score": gettext_lazy("This score cannot be right: %(error)s"),
    **BOARD_REFUSALS,
}
#: Refusals that only mean "not yet" to the automatic path: the table may still finish.
NOT_YET = frozenset({"no_table", "not_finished"})


def _refuse(code: str, **params) -> ValidationError:
    return ValidationError(REFUSALS[code], code=code, params=params)


def refusal_text(refusal: dict | None) -> str:
    """A refusal kept on a match (``{"code": ..., "params": {...}}``) in the active language."""
    if not refusal or refusal.get("code") not in REFUSALS:
        return ""
    message = str(REFUSALS[refusal["code"]])
    try:
        return message % refusal.get("params", {})
    except (KeyError, TypeError, ValueError):
        return message


def _seat_users(table) -> dict[int, int | None]:
    return {s.seat: (None if s.is_bot else s.user_id) for s in table.seats.all()}


def _side_users(match: Match, side: str) -> set[int | None]:
    ids = permissions.side_players(match, side)
    return set(Player.objects.filter(pk__in=ids).values_list("user_id", flat=True))


def _said(result: dict) -> str:
    """A table result in a few words, the stored and the replayed alike: "NS 12:7 EW, NS (eyes)"."""
    score = result.get("score") if isinstance(result.get("score"), dict) else {}
    text = f"NS {score.get('NS')}:{score.get('EW')} EW, {result.get('winner')} ({result.get('reason')}"
    return text + (f" {result['seat']})" if result.get("seat") else ")")


def _check_record(table: Table, rules: dict) -> None:
    """Replay the table's bilka-record/1 with the engine: a legal, finished match with the
    tournament's rules that gives exactly the result the table stored. The record is what the
    server saw card by card; the stored result is derived from it, so when they disagree one of
    them was changed after the fact and neither can be trusted without the organiser."""
    n = table.pk
    if not table.record:
        raise _refuse("no_record", n=n)
    try:
        state = read_game_record(table.record)  # by the record's game: Bilka's or Kozyol's
    except EngineError as error:
        raise _refuse("bad_record", n=n, error=str(error)) from error
    if state.rules.to_json() != rules:
        raise _refuse("other_rules", n=n)
    if state.winner is None:
        raise _refuse("bad_record", n=n, error="the match has no winner")
    replayed = {
        "winner": PAIRS[state.winner],
        "reason": state.end[0] if state.end else "eyes",
        "seat": SEATS[state.end[1]] if state.end else None,
        "score": {"NS": state.capped_score[0], "EW": state.capped_score[1]},
    }
    stored = table.result
    if {key: stored.get(key) for key in replayed} != replayed:
        raise _refuse("record_disagrees", n=n, stored=_said(stored), replayed=_said(replayed))


def checked_table(match: Match, table_id: int, tournament) -> tuple[Table, str]:
    """The finished live table ``table_id`` if it really is ``match``'s, and where the home pair sat.

    Returns ``(table, home_seats)`` with ``home_seats`` "NS" or "EW". Both the import from the
    match page and the automatic path (``services.online.record_table_result``) take a table's
    result only through here, so neither writes what the other would refuse. Raises a
    ValidationError whose ``code`` is a key of ``REFUSALS`` (``params`` JSON-ready).
    """
    table = Table.objects.filter(pk=table_id).prefetch_related("seats").first()
    if table is None:
        raise _refuse("no_table", n=table_id)
    if table.status != TableStatus.FINISHED or not isinstance(table.result, dict) or not table.result:
        raise _refuse("not_finished", n=table_id)
    if Match.objects.filter(live_table=table.pk).exclude(pk=match.pk).exists():
        raise _refuse("other_match", n=table_id)
    if table.started_at is None or table.started_at < match.round.created_at:
        raise _refuse("too_early", n=table_id)
    rules = normalised_rules(tournament.rules)
    try:
        same = normalised_rules(table.rules) == rules
    except EngineError:
        same = False
    if not same:
        raise _refuse("other_rules", n=table_id)
    seats = _seat_users(table)
    pairs = {"NS": {seats.get(s) for s in NS}, "EW": {seats.get(s) for s in EW}}
    home, away = _side_users(match, "home"), _side_users(match, "away")
    if None in home | away:
        raise _refuse("no_accounts")
    if pairs == {"NS": home, "EW": away}:
        home_seats = "NS"
    elif pairs == {"NS": away, "EW": home}:
        home_seats = "EW"
    else:
        raise _refuse("not_the_pairs", n=table_id)
    if tournament.is_duplicate:
        if home_seats != "NS":  # the movement's NS pair is the match's home: its boards are NS's
            raise _refuse("not_the_pairs", n=table_id)
        check_board_record(match, table, tournament)
        return table, home_seats
    _check_record(table, rules)
    if table.result.get("reason") not in FORFEIT_REASONS:
        score = table.result["score"]
        try:
            validate_final_score((score["NS"], score["EW"]))
        except InvalidScore as error:
            raise _refuse("bad_score", error=score_error_text(error)) from error
    return table, home_seats


def table_sheet(table: Table, home_seats: str, rules: dict) -> list:
    """The live table's match as the deal-by-deal form scores it: each deal played to its end
    (redeals and a deal cut short by a resignation are not written on a sheet), with its points,
    the pair on duty and the pair that took every trick, read from the record the server kept and
    scored by the sheet's own rules (``score_sheet``), home as pair 0. Empty for a table whose
    record the engine cannot replay (``checked_table`` has refused it before)."""
    try:
        report = score_game_state(read_game_record(table.record or {}))
    except EngineError:
        return []
    flip = home_seats == "EW"
    kozyol = tournament_game(rules) == KOZYOL
    deals: list[dict] = []
    for deal in report["deals"]:
        if deal["outcome"] in ("redeal", "unfinished"):
            continue
        points = (deal["points"]["NS"], deal["points"]["EW"])
        winners = {SEATS.index(t["winner"]) % 2 for t in deal["tricks"]}
        every_trick = winners.pop() if len(winners) == 1 and deal["outcome"] != "catch" else None
        # Bilka: the pair on duty; Kozyol: nobody is on duty, but a catch stops the deal
        pair = (SEATS.index(deal["catch"]) % 2 if "catch" in deal else None) if kozyol \
            else PAIRS.index(deal["on_duty"])
        if flip:
            points = points[::-1]
            pair = None if pair is None else 1 - pair
            every_trick = None if every_trick is None else 1 - every_trick
        if kozyol:
            deals.append({"points": (0, 0) if pair is not None else points, "catch": pair,
                          "all_tricks": every_trick})
        else:
            deals.append({"points": points, "jack_holder": pair, "all_tricks": every_trick})
    try:
        return list(score_deals(rules, deals).lines)
    except InvalidScore:
        return []


def save_table_result(match: Match, table: Table, home_seats: str) -> None:
    """Make the live table's result the match's confirmed result and save the match; ``home_seats``
    ("NS" or "EW") is where the home pair sat. A resigned or timed-out table is a forfeit win.
    Only for a table that ``checked_table`` returned, in the same transaction."""
    home_won = table.result["winner"] == home_seats
    forfeit = table.result.get("reason") in FORFEIT_REASONS
    if forfeit:
        match.home_eyes, match.away_eyes = (WIN_SCORE, 0) if home_won else (0, WIN_SCORE)
    else:
        away_seats = "EW" if home_seats == "NS" else "NS"
        score = table.result["score"]
        match.home_eyes, match.away_eyes = int(score[home_seats]), int(score[away_seats])
    match.winner_id = match.home_id if home_won else match.away_id
    match.forfeit = forfeit
    lines = table_sheet(table, home_seats, match.tournament.rules)
    write_deal_lines(match, lines)
    match.home_lucy, match.away_lucy = lucy_counts(lines) if lines else (None, None)
    now = timezone.now()
    match.reported_at, match.reported_side = now, "table"
    match.played_at = match.played_at or now
    match.status = MatchStatus.CONFIRMED
    match.confirmed_by, match.confirmed_at, match.confirmed_how = None, now, "table"
    match.save()
    sync_match(match)


def take_table_result(
    match: Match, table: Table, home_seats: str, *, tournament, actor, between=None
) -> None:
    """The checked table's result becomes the match's (``save_table_result``), with its audit row,
    and the round moves on; ``between`` runs after the first write (a test's pause point). A duplicate
    event's table gives its boards' results instead (``online_boards``)."""
    before = match.state()
    if tournament.is_duplicate:
        rows = save_board_results(match, read_record(table.record), tournament)
        sync_board_table(match, table, tournament)
        if between is not None:
            between()
        audit(actor=actor, action="boards.online", obj=match, tournament=tournament, before=before,
              after={**match.state(), "table": table.pk, "boards": board_rows_text(rows)})
        refresh_round(match.round, tournament)
        return
    save_table_result(match, table, home_seats)
    if between is not None:
        between()
    after = {**match.state(), "table": table.pk}
    audit(
        actor=actor, action="match.live_result", obj=match, tournament=tournament, before=before, after=after
    )
    refresh_round(match.round, tournament, slot=match.slot)


@transaction.atomic
def import_live_result(*, actor, match: Match, table_id: int) -> Match:
    """Record the result of the live table ``table_id`` for ``match`` (a player of it or the organiser)."""
    require_user(actor)
    match = (
        Match.objects.select_for_update(of=("self",)).select_related("round", "home", "away").get(pk=match.pk)
    )
    tournament = lock_tournament(match.tournament)
    organiser = permissions.can_manage(actor, tournament)
    if not organiser and permissions.side_of(actor, match) is None:
        raise PermissionDenied(_("You do not play in this match, so you cannot enter its result."))
    if match.bye or match.status == MatchStatus.CONFIRMED:
        raise ValidationError(_("This result is already confirmed. Ask the organiser to correct it."))
    if match.status == MatchStatus.DISPUTED and not organiser:
        raise ValidationError(_("This result is disputed; the organiser will settle it."))
    table, home_seats = checked_table(match, table_id, tournament)
    match.live_table = table.pk
    match.reported_by = actor
    take_table_result(match, table, home_seats, tournament=tournament, actor=actor)
    return match
