"""Round robin (a league): every pair meets every other once, or twice, by the Berger tables."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from ..core.roundrobin import round_robin
from ..core.tiebreaks import ROUND_ROBIN_TIEBREAKS
from ..models import Entry, EntryStatus, Format
from .base import Game, RoundPlan, TournamentFormat, check_round_number, matchday_deadline


@dataclass
class Fixture:
    """A matchday not paired yet, as the pairing will draw it."""

    number: int
    deadline: datetime | None
    games: list[tuple[Entry, Entry]]
    bye: Entry | None


class RoundRobin(TournamentFormat):
    code = Format.ROUND_ROBIN
    default_tiebreaks = ROUND_ROBIN_TIEBREAKS
    pages = frozenset({"crosstable"})

    def round_count(self, field_size: int) -> int:
        n = field_size + field_size % 2
        return (n - 1) * (2 if self.tournament.double_round_robin else 1)

    def next_round(self, number: int) -> RoundPlan:
        """Berger tables over the starting field; games of withdrawn pairs are not played."""
        field = self.field()
        check_round_number(number, self.round_count(len(field)))
        schedule = round_robin([e.pk for e in field], double=self.tournament.double_round_robin)[number - 1]
        out = {e.pk for e in field if e.status == EntryStatus.WITHDRAWN}
        games = [(home, away) for home, away in schedule.games if home not in out and away not in out]
        plan = RoundPlan(games=[Game(home, away, table=t) for t, (home, away) in enumerate(games, start=1)])
        if schedule.bye is not None and schedule.bye not in out:
            plan.games.append(Game(schedule.bye, None))
        return plan

    def coming_matchdays(self) -> list[Fixture]:
        """The matchdays not paired yet, from the same Berger table the pairing will use.

        Games of withdrawn pairs are left out, as the pairing will leave them out. Two queries.
        """
        field_entries = self.ranked_entries()
        by_id = {e.pk: e for e in field_entries}
        out = {e.pk for e in field_entries if e.status == EntryStatus.WITHDRAWN}
        paired = self.tournament.rounds.count()
        schedule = round_robin([e.pk for e in field_entries], double=self.tournament.double_round_robin)
        return [
            Fixture(
                number=r.number,
                deadline=matchday_deadline(self.tournament, r.number),
                games=[(by_id[h], by_id[a]) for h, a in r.games if h not in out and a not in out],
                bye=by_id[r.bye] if r.bye is not None and r.bye not in out else None,
            )
            for r in schedule[paired:]
        ]
