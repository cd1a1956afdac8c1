"""Double elimination: a winners' bracket, a losers' bracket fed by its losers, a grand final and a reset.

Each round plays every match whose two pairs are known and that has no winner yet
(``DoubleElimBracket.pending``): round 1 is the winners' first round, round 2 its second round
and the losers' first, and so on, until the grand final (and its reset).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.double_elim import DoubleElimBracket, double_elim_bracket
from ..models import Entry, Format, Match
from .base import Game
from .brackets import BracketFormat, winners_of
from .series import tie_length


class DoubleElimination(BracketFormat):
    code = Format.DOUBLE_ELIM

    def state(self, field: Sequence[Entry], matches: Sequence[Match]) -> DoubleElimBracket:
        return double_elim_bracket(
            [e.pk for e in field],
            winners_of(matches, ("winners", "losers", "final"), self.tie_best_of),
            grand_final_reset=self.tournament.grand_final_reset,
        )

    def tie_best_of(self, match: Match) -> int:
        return tie_length(self.tournament, match.round.best_of, final=match.bracket == "final")

    def champion(self) -> int | None:
        field = self.field()
        if len(field) < 2:
            return None
        return self.state(field, self.all_matches()).champion

    def next_games(self, number: int, field, matches) -> list[Game]:
        state = self.state(field, matches)
        return [Game(m.top, m.bottom, slot=m.slot, bracket=m.bracket, stage=m.round) for m in state.pending()]

    def places_of(self, state: DoubleElimBracket) -> list[tuple[int, int]]:
        """Champion, runner-up, then by the losers' round in which a pair went out (pairs out in the
        same round share the place)."""
        if state.champion is None:
            return []
        last = state.reset or state.grand_final
        places = [(1, state.champion), (2, last.loser)]
        place = 3
        for r in reversed(state.losers_rounds):
            out = [m.loser for m in r if m.loser is not None]
            places += [(place, e) for e in out]
            place += len(out)
        return places

    def bracket_places(self, field):
        return self.places_of(self.state(field, self.all_matches()))
