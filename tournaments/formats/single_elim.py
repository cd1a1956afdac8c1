"""Single elimination: a seeded bracket with byes to the top seeds, a third-place match, best-of-N ties."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from ..core.knockout import Bracket, knockout_bracket
from ..models import Entry, Format, Match
from .base import Game, RoundPlan, TournamentFormat, check_round_number
from .series import tie_length, tie_winner


def knockout_state(tournament, field: Sequence[Entry], matches: Iterable[Match]):
    """The core bracket from the stored matches, and each tie's games keyed (round, slot)."""
    games: dict[tuple[int, int], list[Match]] = defaultdict(list)
    for m in matches:
        if not m.bye:
            games[(m.round.number, m.slot)].append(m)
    winners = {}
    last = max(1, (len(field) - 1).bit_length())
    for key, tie in games.items():
        tie.sort(key=lambda g: g.game)
        best_of = tie_length(tournament, tie[0].round.best_of, final=key == (last, 0))
        winner = tie_winner(tie, best_of)
        if winner is not None:
            winners[key] = winner
    bracket = knockout_bracket([e.pk for e in field], winners, third_place=tournament.third_place)
    return bracket, games


def bracket_places(bracket: Bracket) -> list[tuple[int, int]]:
    """Places from a knockout bracket: champion, final loser, then the third-place match (or both
    losing semifinalists sharing third place when there is none)."""
    places: list[tuple[int, int]] = []

    def add(place: int, entry_id) -> None:
        if entry_id is not None:
            places.append((place, entry_id))

    final = bracket.final
    if final.winner is not None:
        add(1, final.winner)
        add(2, final.loser)
        if bracket.third_place is not None:
            if bracket.third_place.winner is not None:
                add(3, bracket.third_place.winner)
                add(4, bracket.third_place.loser)
        elif len(bracket.rounds) >= 2:
            for semi in bracket.rounds[-2]:
                add(3, semi.loser)
    return places


class SingleElimination(TournamentFormat):
    code = Format.SINGLE_ELIM
    eliminates = True
    plays_series = True
    places_from_bracket = True
    pages = frozenset({"bracket"})

    def check_start(self, entries) -> None:
        super().check_start(entries)
        if self.tournament.third_place and len(entries) < 4:
            raise ValidationError(_("A third-place match needs at least four pairs."))

    def round_count(self, field_size: int) -> int:
        return max(1, (field_size - 1).bit_length())

    def state(self, field: Sequence[Entry] | None = None):
        field = self.field() if field is None else field
        matches = Match.objects.filter(tournament=self.tournament).select_related("round")
        return knockout_state(self.tournament, field, matches)

    def next_round(self, number: int) -> RoundPlan:
        """The next stage of the seeded bracket (``core.knockout``); byes go to the top seeds."""
        field = self.field()
        check_round_number(number, self.round_count(len(field)))
        bracket, _games = self.state(field)
        stage = list(bracket.rounds[number - 1])
        if number == len(bracket.rounds) and bracket.third_place is not None:
            stage.append(bracket.third_place)
        plan = RoundPlan()
        table = 0
        for km in stage:
            if km.bye:
                plan.games.append(Game(km.winner, None, slot=km.slot))
                continue
            table += 1
            plan.games.append(Game(km.top, km.bottom, table=table, slot=km.slot))
        return plan

    def tie_best_of(self, match: Match) -> int:
        final = match.slot == 0 and match.round.number == self.round_count(self.field_size())
        return tie_length(self.tournament, match.round.best_of, final=final)

    def bracket_places(self, field):
        return bracket_places(self.state(field)[0])
