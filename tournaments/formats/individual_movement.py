"""Individual: a full movement, where every two players partner once over the cycle (``core.movement``)."""

from __future__ import annotations

from ..core.movement import movement
from ..core.seating import IndividualPlayer, Table, seat_swiss_round
from ..models import Format
from .base import RoundPlan
from .players import IndividualFormat, seat_holders


class IndividualMovement(IndividualFormat):
    code = Format.INDIVIDUAL_MOVEMENT

    def seat(self, number, playing, seeded, state) -> RoundPlan:
        """The core ``movement`` of the starting field. Once a player has withdrawn (or a late player
        came) its tables no longer fit, so the rest is seated by the Swiss seater with equal scores,
        which keeps the movement's aims: no repeated partner, fewest repeated opponents, byes in turn.
        A substitute keeps the movement: it is drawn for the starting field and he sits wherever the
        player he replaced would have sat."""
        first_field = {p for r in state.rounds[:1] for p in r.players()}
        holders = seat_holders(seeded)
        origin = {e.pk: holders[e.pk][-1] for e in playing}
        if not state.rounds or first_field == set(origin.values()):
            rnd = movement([origin[e.pk] for e in playing], rounds=self.round_count(0))[number - 1]
            now = {first: pk for pk, first in origin.items()}
            tables = [Table(*(now[p] for p in t.players)) for t in rnd.tables]
            return RoundPlan(tables=tables, byes=[now[p] for p in rnd.byes])
        players = [IndividualPlayer(id=e.pk, score=0, seed=e.seed) for e in playing]
        rnd = seat_swiss_round(players, state.rounds, number=number)
        return RoundPlan(tables=list(rnd.tables), byes=list(rnd.byes))
