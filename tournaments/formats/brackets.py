"""What double elimination and groups then playoff share: rounds drawn from a bracket the results give.

Like the knockout, nothing of the bracket is stored but who played whom and who won: each
``Match`` carries its place in the core's bracket (``bracket``, ``stage``, ``slot``) and the core
rebuilds the bracket from the confirmed winners. One match per tie (no best-of series), and a
withdrawn pair loses its later matches by forfeit as they come up, so the bracket goes on.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from ..models import Match, MatchStatus, TournamentStatus
from .base import Game, RoundPlan, TournamentFormat

GROUP = "group"
PLAYOFF = "playoff"


def winners_of(matches: Sequence[Match], brackets: Sequence[str]) -> dict[tuple[str, int, int], int]:
    """The confirmed winners keyed (bracket, stage, slot), as the core's bracket keys count them."""
    return {
        (m.bracket, m.stage, m.slot): m.winner_id
        for m in matches
        if m.bracket in brackets and not m.bye and m.status == MatchStatus.CONFIRMED and m.winner_id
    }


class BracketFormat(TournamentFormat):
    eliminates = True
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
