"""Individual: Swiss-style rounds, players of equal score at a table, new partners every round."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

from ..core.seating import IndividualPlayer, seat_swiss_round
from ..core.standings import individual_standings
from ..models import Format
from .base import RoundPlan, points_of
from .players import IndividualFormat, seat_holders


class IndividualSwiss(IndividualFormat):
    code = Format.INDIVIDUAL_SWISS
    late_entries = True

    def seat(self, number, playing, seeded, state) -> RoundPlan:
        """The seater (``core.seating.seat_swiss_round``) given each player's score so far; a substitute
        is seated by the score of the seat he holds (his own and the player's he replaced)."""
        scores: dict[int, int | Fraction] = defaultdict(int)
        rows = individual_standings(
            [e.pk for e in seeded],
            state.results,
            state.byes,
            requested=state.requested,
            points=points_of(self.tournament),
        )
        scores.update({r.player: Fraction(r.match_points) for r in rows})  # a half is exact
        holders = seat_holders(seeded)
        players = [
            IndividualPlayer(id=e.pk, score=sum(scores[p] for p in holders[e.pk]), seed=e.seed)
            for e in playing
        ]
        rnd = seat_swiss_round(players, state.rounds, number=number)
        return RoundPlan(tables=list(rnd.tables), byes=list(rnd.byes))
