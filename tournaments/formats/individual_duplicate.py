"""Individual duplicate: a new partner every round (the full movement), the same boards at every table.

The players are seated as in ``individual_movement`` (``core.movement``); each table is a match
between two partnerships, NS ``home`` and EW ``away``. In round r every table plays set r (boards
(r-1)*B+1 … r*B; the match's ``slot``), so the boards need not move between tables and the hand
records print one set a round. Each board is scored by matchpoints among all the tables that played
it (``core.duplicate``, Neuberg's correction where a board was played fewer times); a player gets
his side's percentage on every board he played, and his score is their mean. A player sitting a
round out has no boards in it: his average is over the boards he played.
"""

from __future__ import annotations

from collections import defaultdict

from django.db.models import Count

from ..models import ACTIVE_STATUSES, Format, Match, Seat, SeatName
from .duplicate import DuplicateScoring
from .individual_movement import IndividualMovement

HOME_SEATS = (SeatName.NORTH, SeatName.SOUTH)
SEAT_COLUMNS = ("match__home_id", "match__away_id", "seat", "entry_id")


class IndividualDuplicate(DuplicateScoring, IndividualMovement):
    code = Format.IND_DUPLICATE
    standings_page = "duplicate"
    pages = frozenset({"boards"})
    grants_byes = False
    """A requested bye scores nothing here (a player's score is an average over his boards), and the
    movement is fixed from round 1."""

    def board_plays(self) -> dict[int, int]:
        """Set r is played in round r by every table of the round: as many tables as were seated
        once the round is paired, else as many as the players still in the event fill."""
        t = self.tournament
        if self.field_size() < 4:
            return {}
        seated = dict(
            Match.objects.filter(tournament=t, bye=False)
            .values_list("round__number").annotate(n=Count("id")).values_list("round__number", "n")
        )  # fmt: skip
        expected = t.individual_entries.filter(status__in=ACTIVE_STATUSES, seed__gt=0).count() // 4
        per = t.boards_per_round
        out: dict[int, int] = {}
        for r in range(1, self.round_count(0) + 1):
            for b in range((r - 1) * per + 1, r * per + 1):
                out[b] = seated.get(r, expected)
        return out

    def sides(self) -> dict[int, tuple[int, ...]]:
        """Each table's partnerships (the match's home and away entries) and the players in them, from
        the seats: North and South are home, East and West away."""
        out: dict[int, list[int]] = defaultdict(list)
        rows = Seat.objects.filter(round__tournament=self.tournament, match__isnull=False).values_list(
            *SEAT_COLUMNS
        )
        for home, away, seat, player in rows:
            out[home if seat in HOME_SEATS else away].append(player)
        return {side: tuple(players) for side, players in out.items()}

    def absent(self) -> dict[int, frozenset[int]]:
        """The players marked absent at a table (a withdrawal left it unplayed), by their side."""
        out: dict[int, set[int]] = defaultdict(set)
        rows = Seat.objects.filter(round__tournament=self.tournament, match__isnull=False, absent=True)
        for home, away, seat, player in rows.values_list(*SEAT_COLUMNS):
            out[home if seat in HOME_SEATS else away].add(player)
        return {side: frozenset(players) for side, players in out.items()}
