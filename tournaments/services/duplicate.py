"""Duplicate events: the event's board seed drawn and committed, each table's board results entered.

A table's results come from the organiser, or from the table itself with both pairs' PINs typed
together (each pair holds only its own, so neither enters alone). Once every board of the table
has a result its match is confirmed and the round moves on as any other result does
(``progress.refresh_round``). The players may enter a board once; only the organiser corrects.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from gameplay.engine.shuffle import commitment_of, new_match_seed

from .. import permissions
from ..formats.duplicate import set_boards
from ..models import Adjusted, BoardResult, EntryStatus, Match, MatchStatus, Tournament
from .common import audit, lock_tournament
from .pins import PinSender, WrongPin, note_wrong_pin, pin_slowed
from .progress import refresh_round

BOARD_POINTS = 120


@dataclass(frozen=True)
class BoardEntry:
    """What is entered for one board: NS's card points, or each side's adjusted score."""

    board: int
    ns_points: int | None = None
    ns_adjusted: str = ""
    ew_adjusted: str = ""


def draw_board_seed(tournament: Tournament, seed: bytes | None = None) -> None:
    """Draw the event's secret seed once (round 1's pairing) and publish its SHA-256; ``seed``
    gives it instead (the demo's events, made the same each time)."""
    if tournament.board_seed:
        return
    seed = seed or new_match_seed()
    tournament.board_seed = seed.hex()
    tournament.board_commitment = commitment_of(seed)
    tournament.save(update_fields=["board_seed", "board_commitment"])


def _check(entry: BoardEntry, boards: range) -> None:
    if entry.board not in boards:
        raise ValidationError(
            _("Board %(n)d is not played at this table in this round: its boards are %(first)d-%(last)d.")
            % {"n": entry.board, "first": boards[0], "last": boards[-1]}
        )
    if entry.ns_points is not None:
        if entry.ns_adjusted or entry.ew_adjusted:
            raise ValidationError(
                _("Board %(n)d: give NS's card points or an adjusted score, not both.") % {"n": entry.board}
            )
        if not 0 <= entry.ns_points <= BOARD_POINTS:
            raise ValidationError(
                _("Board %(n)d: NS's card points are from 0 to 120, not %(points)d.")
                % {"n": entry.board, "points": entry.ns_points}
            )
        return
    if entry.ns_adjusted not in Adjusted.values or entry.ew_adjusted not in Adjusted.values:
        raise ValidationError(
            _("Board %(n)d: give NS's card points, or an adjusted score for both sides.") % {"n": entry.board}
        )


def _check_pins(match: Match, pins: tuple[str, str], sender: PinSender | None) -> None:
    """Both pairs' PINs, each its own side's; a wrong one is counted against its sender."""
    if pin_slowed(sender, match.pk):
        raise ValidationError(_("Too many wrong PINs from this phone. Wait a minute and try again."))
    home, away = ((p or "").strip() for p in pins)
    if not home or not away:
        raise ValidationError(
            _("Write both pairs' PINs: each pair's is printed on its own half of the sheet.")
        )
    if not (
        secrets.compare_digest(home.encode(), match.home_pin.encode())
        and secrets.compare_digest(away.encode(), match.away_pin.encode())
    ):
        note_wrong_pin(sender=sender, match_id=match.pk)
        raise WrongPin(_("Wrong PIN. Each pair's PIN is printed on its own half of the score sheet."))


@transaction.atomic
def enter_board_results(
    *,
    actor,
    match: Match,
    entries: list[BoardEntry],
    pins: tuple[str, str] | None = None,
    sender: PinSender | None = None,
) -> list[BoardResult]:
    """Write a table's results on its boards. The organiser writes and corrects any board; the table
    (``pins``: NS's PIN, EW's PIN) writes each board once, and a board it sends again is refused
    with nothing changed. Every board of the table done: its match is confirmed."""
    match = Match.objects.select_for_update(of=("self",)).select_related("round").get(pk=match.pk)
    tournament = lock_tournament(match.tournament)
    signed_in = actor is not None and actor.is_authenticated
    organiser = signed_in and permissions.can_manage(actor, tournament)
    if not tournament.is_duplicate:
        raise ValidationError(_("This is not a duplicate event: its matches have no boards."))
    if match.bye or match.away_id is None:
        raise ValidationError(_("A pair sitting out plays no boards."))
    if not organiser:
        if pins is None:
            raise PermissionDenied(
                _("Only the organiser, or the table with both pairs' PINs, enters results.")
            )
        _check_pins(match, pins, sender)
    if not entries:
        raise ValidationError(_("Nothing to enter: write a result for at least one board."))
    boards = set_boards(tournament, match.slot)
    seen: set[int] = set()
    for entry in entries:
        _check(entry, boards)
        if entry.board in seen:
            raise ValidationError(_("Board %(n)d is given twice.") % {"n": entry.board})
        seen.add(entry.board)
    existing = {r.board: r for r in match.board_results.select_for_update()}
    if not organiser:
        done = sorted(b for b in seen if b in existing)
        if done:
            raise ValidationError(
                _("Board %(n)d already has a result at this table; only the organiser corrects it.")
                % {"n": done[0]}
            )
    now = timezone.now()
    written, before = [], {}
    for entry in entries:
        row = existing.get(entry.board)
        if row is not None:
            before[entry.board] = _state(row)
        else:
            row = BoardResult(match=match, board=entry.board)
        row.ns_points = entry.ns_points
        row.ns_adjusted, row.ew_adjusted = entry.ns_adjusted, entry.ew_adjusted
        row.entered_by = actor if signed_in else None
        row.entered_how = "organiser" if organiser else "pin"
        row.entered_at = now
        try:
            with transaction.atomic():
                row.save()
        except IntegrityError as error:  # the same board sent twice at once: the first one stands
            raise ValidationError(
                _("Board %(n)d already has a result at this table; only the organiser corrects it.")
                % {"n": entry.board}
            ) from error
        written.append(row)
    audit(actor=actor, action="boards.enter", obj=match, tournament=tournament,
          before={"boards": ", ".join(before[b] for b in sorted(before))} if before else None,
          after={"boards": ", ".join(_state(r) for r in written), "how": written[0].entered_how})
    if match.board_results.count() == len(boards) and match.status != MatchStatus.CONFIRMED:
        match.status = MatchStatus.CONFIRMED
        match.confirmed_how = "organiser" if organiser else "pin"
        match.confirmed_by, match.confirmed_at = (actor if signed_in else None), now
        match.played_at = match.played_at or now
        match.save(update_fields=["status", "confirmed_how", "confirmed_by", "confirmed_at", "played_at"])
        refresh_round(match.round, tournament)
    return written


def withdrawal_adjusted(home_out: bool, away_out: bool) -> tuple[str, str]:
    """NS's and EW's adjusted scores on a board a withdrawn pair leaves unplayed: average minus for
    the side at fault, average plus for the side that is not; average each when both are."""
    if home_out == away_out:
        return Adjusted.AVERAGE, Adjusted.AVERAGE
    return (Adjusted.MINUS, Adjusted.PLUS) if home_out else (Adjusted.PLUS, Adjusted.MINUS)


def adjust_withdrawn_boards(
    *, actor, tournament: Tournament, matches, at_fault: set[int] | None = None
) -> list[BoardResult]:
    """Every board without a result at a table of ``matches`` where a withdrawn pair sits gets the
    adjusted score of a board the withdrawal left unplayed (``withdrawal_adjusted``); boards the
    table has played keep their results. Called when a pair withdraws (its tables of the rounds
    paired) and when a round is paired (the movement still seats it); in an individual event when
    a player withdraws, with his partnership ``at_fault`` (the standings then give his partner an
    average plus, ``core.duplicate.percentages``). The caller holds the tournament's lock and
    confirms the matches."""
    if not tournament.is_duplicate:
        return []
    tables = [m for m in matches if not m.bye and m.away_id is not None]
    out = at_fault if at_fault is not None else set(tournament.entries.filter(
        pk__in={m.home_id for m in tables} | {m.away_id for m in tables}, status=EntryStatus.WITHDRAWN,
    ).values_list("pk", flat=True))  # fmt: skip
    written: list[BoardResult] = []
    now = timezone.now()
    for match in tables:
        home_out, away_out = match.home_id in out, match.away_id in out
        if not (home_out or away_out):
            continue
        done = set(BoardResult.objects.filter(match=match).values_list("board", flat=True))
        ns_adj, ew_adj = withdrawal_adjusted(home_out, away_out)
        rows = [BoardResult(match=match, board=b, ns_adjusted=ns_adj, ew_adjusted=ew_adj,
                            entered_by=actor if actor is not None and actor.is_authenticated else None,
                            entered_how="withdrawal", entered_at=now)
                for b in set_boards(tournament, match.slot) if b not in done]
        if not rows:
            continue
        BoardResult.objects.bulk_create(rows)
        written += rows
        audit(actor=actor, action="boards.enter", obj=match, tournament=tournament,
              after={"boards": ", ".join(_state(r) for r in rows), "how": "withdrawal"})
    return written


ADJUSTED_PERCENT = {"plus": "60%", "average": "50%", "minus": "40%"}


def _state(row: BoardResult) -> str:
    """A board's result as the audit log keeps it, in figures only: "3: 74" or "4: 60%/40%"."""
    if row.ns_points is not None:
        return f"{row.board}: {row.ns_points}"
    return f"{row.board}: {ADJUSTED_PERCENT[row.ns_adjusted]}/{ADJUSTED_PERCENT[row.ew_adjusted]}"
