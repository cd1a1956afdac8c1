"""Individual: a full movement, where every two players partner once over the cycle (``core.movement``)."""

from __future__ import annotations

from ..core.movement import movement
from ..core.seating import IndividualPlayer, seat_swiss_round
from ..models import Format
from .base import RoundPlan
from .players import IndividualFormat


class IndividualMovement(IndividualFormat):
    code = Format.INDIVIDUAL_MOVEMENT

    def seat(self, number, playing, seeded, state) -> RoundPlan:
        """The core ``movement`` of the starting field. Once a player has withdrawn (or a late player
        came) its tables no longer fit, so the rest is seated by the Swiss seater with equal scores,
        which keeps the movement's aims: no repeated partner, fewest repeated opponents, byes in turn."""
        first_field = {p for r in state.rounds[:1] for p in r.players()}
        if not state.rounds or first_field == {e.pk for e in playing}:
            rnd = movement([e.pk for e in playing], rounds=self.round_count(0))[number - 1]
        else:
            players = [IndividualPlayer(id=e.pk, score=0, seed=e.seed) for e in playing]
            rnd = seat_swiss_round(players, state.rounds, number=number)
        return RoundPlan(tables=list(rnd.tables), byes=list(rnd.byes))
