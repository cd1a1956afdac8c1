"""Duplicate pairs: every table plays the same boards, each pair's result compared by matchpoints.

``DuplicateScoring`` is what the individual duplicate (``individual_duplicate``) shares with it.

The movement (``core.duplicate``: Mitchell or Howell-like) seats the pairs: pair numbers are the
seeds, the NS pair is the match's ``home``, the EW pair its ``away``, the table the movement's,
and the board set the match's ``slot`` (its boards are ``set_boards``). A pair the movement sits
out gets a bye that scores nothing. The standings are each pair's average percentage over its
boards (``core.duplicate.event_scores``), from the tables' board results.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from gameplay.engine.boards import board_hands, jack_holder
from gameplay.engine.rules import Rules

from ..core import duplicate as core
from ..core.standings import StandingRow
from ..models import (
    BoardResult,
    BoardScale,
    EntryStatus,
    Format,
    Match,
    Movement,
    Tournament,
    TournamentStatus,
)
from .base import Game, RoundPlan, Standings, TournamentFormat, check_round_number

MIN_PAIRS = 4


def movement_of(tournament: Tournament, pairs: int) -> list[core.Seat]:
    """Every seat of the event's movement for ``pairs`` pairs: the whole movement, or its first
    ``duplicate_rounds`` rounds where the organiser chose fewer (every count and page that follows
    the movement, such as how many tables play a board, then follows the shorter one)."""
    seats = core.howell(pairs) if tournament.movement == Movement.HOWELL else core.mitchell(pairs)
    if tournament.duplicate_rounds:
        seats = [s for s in seats if s.round <= tournament.duplicate_rounds]
    return seats


def set_boards(tournament: Tournament, board_set: int) -> range:
    """The board numbers of set ``board_set`` (from 1)."""
    per = tournament.boards_per_round
    return range((board_set - 1) * per + 1, board_set * per + 1)


def event_seed(tournament: Tournament) -> bytes | None:
    return bytes.fromhex(tournament.board_seed) if tournament.board_seed else None


def deal_key(tournament: Tournament) -> str:
    """What decides a board's first position, for its kept par (``BoardPar``): the seed (by its
    commitment), the set size (a set's first board gives the seats their suits) and the rules
    that shape the deal and its play."""
    rules = Rules.from_json(tournament.rules or {})
    words = "|".join(str(part) for part in (
        tournament.board_commitment, tournament.boards_per_round, rules.deck, rules.direction,
        rules.first_lead, rules.ace_discard_ban))  # fmt: skip
    return hashlib.sha256(words.encode()).hexdigest()


def ns_on_duty(tournament: Tournament, board: int) -> bool:
    """Whether NS hold the jack of clubs on ``board`` (the pair on duty, for the eyes scale)."""
    seed = event_seed(tournament)
    if seed is None:
        return True
    deck = Rules.from_json(tournament.rules or {}).deck
    return jack_holder(board_hands(seed, board, deck)) % 2 == 0


def table_results(tournament: Tournament, rows: Sequence[BoardResult]) -> list[core.TableResult]:
    """The board results as the core reads them (pairs by entry id, values by the event's scale)."""
    rules = Rules.from_json(tournament.rules or {})
    out = []
    for r in rows:
        match = r.match
        if r.ns_points is None:
            value = None
        elif tournament.board_scale == BoardScale.EYES:
            value = core.board_value(
                r.ns_points, scale="eyes", rules=rules, ns_on_duty=ns_on_duty(tournament, r.board)
            )
        else:
            value = r.ns_points
        adjusted = (r.ns_adjusted, r.ew_adjusted) if value is None else None
        out.append(core.TableResult(r.board, match.home_id, match.away_id or 0, value, adjusted))
    return out


def event_results(tournament: Tournament) -> list[BoardResult]:
    return list(
        BoardResult.objects.filter(match__tournament=tournament).select_related("match").order_by("board")
    )


class DuplicateScoring:
    """What both duplicate formats share: the boards each table plays, how many tables play each
    board, and standings by average percentage. A board counts in the standings while the event
    runs only once every table that plays it has a result on it (the hall's and the traveller's
    rule): a side still to play it learns nothing of it from the standings. Once the event is
    finished every result counts."""

    tournament: Tournament

    def boards_of(self, match: Match) -> range:
        """The boards the table of ``match`` plays (none for a bye)."""
        return range(0) if match.bye else set_boards(self.tournament, match.slot)

    def board_plays(self) -> dict[int, int]:
        """How many tables play each board of the event (0 boards before the field is fixed)."""
        raise NotImplementedError

    def sides(self) -> dict[int, tuple[int, ...]] | None:
        """Each side's players (an individual event), or None: a pair event's side is its pair."""
        return None

    def absent(self) -> dict[int, frozenset[int]]:
        """Each side's players who left its table unplayed (none in a pair event)."""
        return {}

    def counted_results(self, *, finished_only: bool) -> list[core.TableResult]:
        """The board results the standings count: the finished boards' only (``finished_only``), or
        every one."""
        results = table_results(self.tournament, event_results(self.tournament))
        if not finished_only:
            return results
        done = core.finished(results, self.board_plays())
        return [r for r in results if r.board in done]

    def running_scores(self, *, finished_only: bool) -> tuple[dict[int, Fraction], dict[int, int]]:
        """Each entry's average percentage and its number of boards (``counted_results``)."""
        results = self.counted_results(finished_only=finished_only)
        sides, absent = self.sides(), self.absent()
        boards = {who: len(p) for who, p in core.percentages(results, sides, absent).items()}
        return core.event_scores(results, sides, absent), boards

    def standings(self) -> Standings:
        """Each entry's average percentage (``match_points``, two decimals) and its boards
        (``played``); entries with the same percentage share a place."""
        entries = self.ranked_entries()  # type: ignore[attr-defined]
        by_id = {e.pk: e for e in entries}
        running = self.tournament.status != TournamentStatus.FINISHED
        scores, boards = self.running_scores(finished_only=running)
        order = sorted(entries, key=lambda e: (-scores.get(e.pk, Fraction(-1)), e.seed, e.pk))
        rows: list[tuple[StandingRow, int]] = []
        for i, e in enumerate(order):
            score = scores.get(e.pk)
            place = i + 1
            if i and score is not None and scores.get(order[i - 1].pk) == score:
                place = rows[-1][0].place
            tied = score is not None and sum(scores.get(o.pk) == score for o in order) > 1
            rows.append((_row(e, place, tied, score, boards.get(e.pk, 0)), 0))
        return self._standings(rows, by_id, [])  # type: ignore[attr-defined]


class Duplicate(DuplicateScoring, TournamentFormat):
    code = Format.DUPLICATE
    standings_page = "duplicate"
    pages = frozenset({"boards"})

    def check_start(self, entries: Sequence[Any]) -> None:
        if len(entries) < MIN_PAIRS:
            raise ValidationError(_("A duplicate event needs at least four pairs."))

    def round_count(self, field_size: int) -> int:
        if field_size < MIN_PAIRS:
            return 1
        return max(s.round for s in movement_of(self.tournament, field_size))

    def next_round(self, number: int) -> RoundPlan:
        """The movement's round ``number``: NS home, EW away, the set in ``slot``; a sit-out is a bye."""
        field = self.field()
        check_round_number(number, self.round_count(len(field)))
        pair = {n: e.pk for n, e in enumerate(field, start=1)}
        out = {e.pk for e in field if e.status == EntryStatus.WITHDRAWN}
        games = []
        for seat in movement_of(self.tournament, len(field)):
            if seat.round != number or seat.ns is None:
                continue
            if seat.ew is None:
                if pair[seat.ns] not in out:
                    games.append(Game(pair[seat.ns], None, slot=seat.set))
                continue
            games.append(Game(pair[seat.ns], pair[seat.ew], table=seat.table, slot=seat.set))
        return RoundPlan(games=games)

    def board_plays(self) -> dict[int, int]:
        """How many tables the whole movement gives each board."""
        n = self.field_size()
        if n < MIN_PAIRS:
            return {}
        out: dict[int, int] = defaultdict(int)
        for seat in movement_of(self.tournament, n):
            if seat.ns is not None and seat.ew is not None:
                for b in seat.boards(self.tournament.boards_per_round):
                    out[b] += 1
        return dict(out)


def _row(entry, place: int, shared: bool, score: Fraction | None, boards: int) -> StandingRow:
    percent = round(float(score), 2) if score is not None else 0
    return StandingRow(
        place=place, shared=shared, entry=entry.pk, match_points=percent, played=boards, wins=0,
        losses=0, byes=0, eyes_for=0, eyes_against=0, buchholz=0, sonneborn_berger=0, lucy=0,
        withdrawn=entry.status == EntryStatus.WITHDRAWN,
    )  # fmt: skip
