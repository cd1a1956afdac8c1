"""Swiss: pairs of equal score meet, nobody twice, for the number of rounds the organiser sets (FIDE C.04)."""

from __future__ import annotations

from collections import defaultdict

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from ..core.swiss import SwissEntry, pair_swiss_round
from ..models import ACTIVE_STATUSES, Format, Match, MatchStatus
from .base import Game, RoundPlan, TournamentFormat, check_round_number, points_of, requested_byes


class Swiss(TournamentFormat):
    code = Format.SWISS
    late_entries = True
    rounds_from_setting = True
    pages = frozenset({"crosstable"})
    grants_byes = True

    def round_count(self, field_size: int) -> int:
        return self.tournament.swiss_rounds

    def next_round(self, number: int) -> RoundPlan:
        """FIDE-style Swiss via ``core.swiss.pair_swiss_round``: withdrawn pairs are left out, and so
        are the pairs that asked to sit this round out, each given its requested bye."""
        tournament = self.tournament
        check_round_number(number, self.round_count(0))
        entries = list(
            tournament.entries.filter(status__in=ACTIVE_STATUSES, seed__gt=0).order_by("seed", "id")
        )
        asked = requested_byes(tournament, number, individual=False)
        sitting_out = [e.pk for e in entries if e.pk in asked]
        entries = [e for e in entries if e.pk not in asked]
        if len(entries) < 2:
            raise ValidationError(_("At least two pairs must still be playing."))
        points, opponents, had_bye = self._results_by_entry()
        pairing = pair_swiss_round(
            [
                SwissEntry(
                    id=e.pk,
                    score=points[e.pk],
                    seed=e.seed,
                    opponents=frozenset(opponents[e.pk]),
                    had_bye=e.pk in had_bye,
                )
                for e in entries
            ]
        )
        plan = RoundPlan(
            games=[Game(home, away, table=t) for t, (home, away) in enumerate(pairing.pairs, start=1)]
        )
        if pairing.bye is not None:
            plan.games.append(Game(pairing.bye, None))
        plan.games += [Game(pk, None, requested=asked[pk]) for pk in sitting_out]
        return plan

    def _results_by_entry(self):
        """Match points, opponents met and byes had, from the confirmed results: what the pairing needs.
        A requested bye is no pairing bye: the pair may still be given one."""
        tournament = self.tournament
        config = points_of(tournament)
        points: dict[int, int] = defaultdict(int)
        opponents: dict[int, set[int]] = defaultdict(set)
        had_bye: set[int] = set()
        rows = Match.objects.filter(tournament=tournament, status=MatchStatus.CONFIRMED).only(
            "home_id", "away_id", "winner_id", "bye", "requested_bye"
        )
        for m in rows:
            if m.requested_bye:
                points[m.home_id] += config.requested_bye(m.requested_bye)
                continue
            if m.bye:
                had_bye.add(m.home_id)
                points[m.home_id] += tournament.points_bye
                continue
            opponents[m.home_id].add(m.away_id)
            opponents[m.away_id].add(m.home_id)
            loser = m.away_id if m.winner_id == m.home_id else m.home_id
            points[m.winner_id] += tournament.points_win
            points[loser] += tournament.points_loss
        return points, opponents, had_bye
