"""What double elimination and groups then playoff share: rounds drawn from a bracket the results give.

Like the knockout, nothing of the bracket is stored but who played whom and who won: each
``Match`` carries its place in the core's bracket (``bracket``, ``stage``, ``slot``) and the core
rebuilds the bracket from the confirmed winners. A tie may be a best-of-N series (``series``): its
games share the place and the round, and its winner is the series'. A withdrawn pair loses its
later matches by forfeit as they come up (a forfeit ends a series), so the bracket goes on.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from ..models import Match, TournamentStatus
from .base import Game, RoundPlan, TournamentFormat
from .series import tie_winner

GROUP = "group"
PLAYOFF = "playoff"


TieKey = tuple[str, int, int]


def ties_of(matches: Sequence[Match], brackets: Sequence[str]) -> dict[TieKey, list[Match]]:
    """The games of each tie keyed (bracket, stage, slot), as the core's bracket keys count them,
    in playing order."""
    ties: dict[TieKey, list[Match]] = defaultdict(list)
    for m in sorted(matches, key=lambda m: m.game):
        if m.bracket in brackets and not m.bye:
            ties[(m.bracket, m.stage, m.slot)].append(m)
    return ties


def winners_of(
    matches: Sequence[Match], brackets: Sequence[str], length: Callable[[Match], int] = lambda m: 1
) -> dict[TieKey, int]:
    """The winners of the decided ties keyed (bracket, stage, slot); ``length`` gives a tie's games."""
    winners = {}
    for key, tie in ties_of(matches, brackets).items():
        winner = tie_winner(tie, length(tie[0]))
        if winner is not None:
            winners[key] = winner
    return winners


class BracketFormat(TournamentFormat):
    eliminates = True
    plays_series = True
    places_from_bracket = True
    standings_page = "bracket"
    pages = frozenset({"bracket"})

    def all_matches(self) -> list[Match]:
        return list(Match.objects.filter(tournament=self.tournament).select_related("round"))

    def champion(self) -> int | None:
        raise NotImplementedError

    def round_count(self, field_size: int) -> int:
        """How many rounds the event has, as far as one can tell: those played, and one more until
        the champion is known (the event finishes when all are complete)."""
        played = self.tournament.rounds.count()
        if self.tournament.status == TournamentStatus.REGISTRATION:
            return max(played, 1)
        return played if self.champion() is not None else played + 1

    def next_games(self, number: int, field, matches) -> list[Game]:
        raise NotImplementedError

    def next_round(self, number: int) -> RoundPlan:
        field = self.field()
        try:
            games = self.next_games(number, field, self.all_matches())
        except ValueError as error:  # e.g. a playoff of one pair, or a third-place match for three
            raise ValidationError(
                _(
                    "This event cannot go on as set up (%(error)s): change the groups or the pairs"
                    " going through."
                )
                % {"error": error}
            ) from error
        if not [g for g in games if g.away is not None]:
            raise ValidationError(_("There is no match left to pair: the bracket is complete."))
        plan = RoundPlan(
            audit={"number": number, "matches": [[g.bracket, g.stage, g.slot, g.home, g.away] for g in games]}
        )
        table = 0
        for g in games:
            table += g.away is not None
            numbered = table if g.away is not None else 0
            plan.games.append(Game(g.home, g.away, numbered, slot=g.slot, bracket=g.bracket, stage=g.stage))
        return plan
