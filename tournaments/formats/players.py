"""What the individual formats share: players who enter alone and sit at tables of four each round.

A round's table is an ordinary ``Match`` between two partnership ``Entry`` rows (seed 0), so
results are entered, confirmed, disputed and corrected as for pairs. What only these formats
have is read here: the players (``IndividualEntry``), the seats they took in each round, and the
rounds, results and byes as the core sees them (``individual_state``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from ..core.seating import IndividualRound, Table
from ..core.standings import TableResult, individual_standings
from ..core.tiebreaks import INDIVIDUAL_TIEBREAKS
from ..models import ACTIVE_STATUSES, EntryStatus, IndividualEntry, MatchStatus, Seat, SeatName, Tournament
from .base import RoundPlan, Standings, TournamentFormat, check_round_number, points_of, requested_byes

TABLE_SEATS = (SeatName.NORTH, SeatName.SOUTH, SeatName.EAST, SeatName.WEST)


@dataclass
class IndividualState:
    """The rounds as the core sees them, the confirmed tables and the byes, from the seat rows."""

    rounds: list[IndividualRound] = field(default_factory=list)
    results: list[TableResult] = field(default_factory=list)
    byes: list[tuple[int, int]] = field(default_factory=list)
    """(player, round) of every bye the seater gave."""
    requested: list[tuple[int, int, str]] = field(default_factory=list)
    """(player, round, what it scores) of every round a player asked to sit out: no bye of the seater's."""


def individual_state(tournament: Tournament) -> IndividualState:
    """Two queries: every seat (with its match) of the event, rebuilt into core rounds and results.

    A no-show counts only while the table's result is a forfeit: a correction to a played score
    takes the absence back.
    """
    seats = Seat.objects.filter(round__tournament=tournament).select_related("round", "match")
    by_round: dict[int, dict[int, dict[str, Seat]]] = defaultdict(lambda: defaultdict(dict))
    byes: dict[int, list[int]] = defaultdict(list)
    state = IndividualState()
    for s in seats:
        if s.seat == SeatName.BYE and s.requested_bye:
            state.requested.append((s.entry_id, s.round.number, s.requested_bye))
        elif s.seat == SeatName.BYE:
            byes[s.round.number].append(s.entry_id)
        else:
            by_round[s.round.number][s.table][s.seat] = s
    for number in sorted(set(by_round) | set(byes)):
        tables = []
        for table_no in sorted(by_round[number]):
            at = by_round[number][table_no]
            if len(at) != 4:
                continue
            table = Table(*(at[k].entry_id for k in TABLE_SEATS))
            tables.append(table)
            match = at[SeatName.NORTH].match
            if match is None or match.status != MatchStatus.CONFIRMED:
                continue
            absent = frozenset(s.entry_id for s in at.values() if s.absent) if match.forfeit else frozenset()
            if absent:
                state.results.append(TableResult(table=table, absent=absent, round=number))
            elif match.home_eyes is not None:  # a duplicate table's result is its boards', not eyes
                state.results.append(
                    TableResult(
                        table=table,
                        ns_eyes=match.home_eyes,
                        ew_eyes=match.away_eyes,
                        winner="NS" if match.winner_id == match.home_id else "EW",
                        round=number,
                    )
                )
        state.rounds.append(IndividualRound(number=number, tables=tuple(tables), byes=tuple(byes[number])))
        state.byes.extend((p, number) for p in byes[number])
    return state


def seat_holders(seeded: Sequence[IndividualEntry]) -> dict[int, list[int]]:
    """For each player, the players whose seats he holds: himself, then, for a substitute, the player
    he came in for (and the one before, if that one was a substitute too)."""
    came_in_for = {e.pk: e.substitute_for_id for e in seeded}
    holders: dict[int, list[int]] = {}
    for e in seeded:
        chain, current = [e.pk], came_in_for.get(e.pk)
        while current is not None and current not in chain:
            chain.append(current)
            current = came_in_for.get(current)
        holders[e.pk] = chain
    return holders


class IndividualFormat(TournamentFormat):
    """Both individual formats play ``swiss_rounds`` rounds (the organiser sets how many; a full
    movement needs n-1 for an even field, n for an odd one, to partner everyone once)."""

    plays_alone = True
    rounds_from_setting = True
    standings_page = "players"
    grants_byes = True
    default_tiebreaks = INDIVIDUAL_TIEBREAKS

    def field(self) -> list[IndividualEntry]:
        rows = self.tournament.individual_entries.filter(seed__gt=0).select_related("player")
        return list(rows.order_by("seed", "id"))

    def field_size(self) -> int:
        return self.tournament.individual_entries.filter(seed__gt=0).count()

    def entries(self):
        return self.tournament.individual_entries

    def entry_rows(self):
        return self.entries().select_related("player", "substitute_for__player")

    def check_start(self, entries: Sequence[IndividualEntry]) -> None:
        if len(entries) < 4:
            raise ValidationError(_("At least four players are needed to start."))

    def round_count(self, field_size: int) -> int:
        return self.tournament.swiss_rounds

    def seat(self, number: int, playing: list[IndividualEntry], seeded: list[IndividualEntry], state):
        """The tables and byes of round ``number`` (``core.seating`` or ``core.movement``)."""
        raise NotImplementedError

    def next_round(self, number: int) -> RoundPlan:
        """Seat the next round: the format's seater over the players still playing, but for those
        who asked to sit this round out (each given his requested bye)."""
        check_round_number(number, self.round_count(0))
        seeded = self.field()
        asked = requested_byes(self.tournament, number, individual=True)
        active = [e for e in seeded if e.status in ACTIVE_STATUSES]
        playing = [e for e in active if e.pk not in asked]
        if len(playing) < 4:
            raise ValidationError(_("At least four players must still be playing."))
        plan = self.seat(number, playing, seeded, individual_state(self.tournament))
        plan.players = {e.pk: e for e in playing}
        plan.requested = {e.pk: asked[e.pk] for e in active if e.pk in asked}
        plan.audit = {
            "number": number,
            "tables": [list(t.players) for t in plan.tables],
            "byes": list(plan.byes),
        }
        if plan.requested:
            plan.audit["requested_byes"] = list(plan.requested)
        return plan

    def standings(self) -> Standings:
        """Match points, then the event's tiebreaks in its order (``core.standings``). Three queries."""
        order = self.tiebreak_order()
        entries = self.ranked_entries()
        by_id = {e.pk: e for e in entries}
        state = individual_state(self.tournament)
        rows = individual_standings(
            [e.pk for e in entries],
            [r for r in state.results if all(p in by_id for p in r.table.players)],
            [(p, rnd) for p, rnd in state.byes if p in by_id],
            requested=[r for r in state.requested if r[0] in by_id],
            points=points_of(self.tournament),
            withdrawn=[e.pk for e in entries if e.status == EntryStatus.WITHDRAWN],
            tiebreaks=order,
        )
        return self._standings([(row, 0) for row in rows], by_id, [t.value for t in order])
