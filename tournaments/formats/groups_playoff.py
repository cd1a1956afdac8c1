"""Groups, then a knockout playoff: snake groups play round robins, their top pairs go through.

The seeded field is dealt into ``group_count`` groups by the snake; round r plays round r of
every group's Berger table; then the top ``group_qualifiers`` of each group go into the knockout
playoff, seeded so that group winners meet late (``core.groups.playoff_seeding``), with the
tournament's third-place option. Group matches are single matches; playoff ties may be best-of-N
series, the playoff final over the final's length (``final_best_of``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..core.groups import group_schedules, group_standings, playoff_bracket, snake_groups
from ..core.knockout import Bracket, bracket_size
from ..core.standings import StandingRow
from ..core.tiebreaks import ROUND_ROBIN_TIEBREAKS, Tiebreak
from ..models import Entry, EntryStatus, Format, Match, MatchStatus
from .base import Game, points_of, results_of
from .brackets import GROUP, PLAYOFF, BracketFormat, winners_of
from .series import tie_length
from .single_elim import bracket_places


@dataclass
class GroupsState:
    groups: list[list[int]]
    tables: list[list[StandingRow]]
    group_rounds: int
    complete: bool
    playoff: Bracket | None
    playoff_error: str = ""
    """Why no playoff can be drawn from complete groups (e.g. one pair going through in all)."""


class GroupsThenPlayoff(BracketFormat):
    code = Format.GROUPS_PLAYOFF

    def group_tiebreaks(self) -> list[Tiebreak]:
        """The event's order, unless it uses Buchholz (meaningless in a round robin): then the
        round-robin order, head-to-head first."""
        order = [Tiebreak(t) for t in self.tournament.tiebreaks or []]
        return order if order and Tiebreak.BUCHHOLZ not in order else list(ROUND_ROBIN_TIEBREAKS)

    def state(self, field: Sequence[Entry], matches: Sequence[Match]) -> GroupsState:
        """The groups, their tables from the confirmed group matches, and the playoff once they are done."""
        tournament = self.tournament
        groups = snake_groups([e.pk for e in field], min(tournament.group_count, max(1, len(field) // 2)))
        group_rounds = max((len(s) for s in group_schedules(groups)), default=0)
        group_matches = [m for m in matches if m.bracket == GROUP]
        withdrawn = [e.pk for e in field if e.status == EntryStatus.WITHDRAWN]
        tables = group_standings(
            groups,
            results_of(group_matches),
            points=points_of(tournament),
            tiebreaks=self.group_tiebreaks(),
            withdrawn=withdrawn,
        )
        stage_rounds = {m.round.number for m in group_matches}
        complete = len(stage_rounds) >= group_rounds and all(
            m.status == MatchStatus.CONFIRMED for m in group_matches
        )
        playoff = None
        if complete:
            orders = [[row.entry for row in table if row.entry not in withdrawn] for table in tables]
            through = sum(min(len(order), tournament.group_qualifiers) for order in orders)
            final_stage = (bracket_size(through).bit_length() - 1) if through >= 2 else 0

            def length(m: Match) -> int:
                return tie_length(tournament, m.round.best_of, final=(m.stage, m.slot) == (final_stage, 0))

            winners = {
                (stage, slot): w for (_b, stage, slot), w in winners_of(matches, (PLAYOFF,), length).items()
            }
            try:
                playoff = playoff_bracket(
                    orders, tournament.group_qualifiers, winners, third_place=tournament.third_place
                )
            except ValueError as error:
                return GroupsState(groups, tables, group_rounds, complete, None, str(error))
        return GroupsState(groups, tables, group_rounds, complete, playoff)

    def tie_best_of(self, match: Match) -> int:
        """Group matches are single; a playoff tie is the event's length, the final the final's."""
        if match.bracket != PLAYOFF:
            return 1
        state = self.state(self.field(), self.all_matches())
        final_stage = len(state.playoff.rounds) if state.playoff is not None else 0
        final = (match.stage, match.slot) == (final_stage, 0)
        return tie_length(self.tournament, match.round.best_of, final=final)

    def champion(self) -> int | None:
        field = self.field()
        if len(field) < 2:
            return None
        state = self.state(field, self.all_matches())
        return state.playoff.champion if state.playoff is not None else None

    def next_games(self, number: int, field, matches) -> list[Game]:
        gstate = self.state(field, matches)
        games: list[Game] = []
        if number <= gstate.group_rounds:
            out = {e.pk for e in field if e.status == EntryStatus.WITHDRAWN}
            for g, schedule in enumerate(group_schedules(gstate.groups)):
                if number > len(schedule):
                    continue
                rr = schedule[number - 1]
                games += [Game(h, a, slot=g, bracket=GROUP, stage=number) for h, a in rr.games]
                if rr.bye is not None and rr.bye not in out:
                    games.append(Game(rr.bye, None, slot=g, bracket=GROUP, stage=number))
        elif gstate.playoff_error:
            raise ValueError(gstate.playoff_error)
        elif gstate.playoff is not None:
            stage = number - gstate.group_rounds
            rounds = gstate.playoff.rounds
            if stage <= len(rounds):
                ties = list(rounds[stage - 1])
                if stage == len(rounds) and gstate.playoff.third_place is not None:
                    ties.append(gstate.playoff.third_place)
                for km in ties:
                    games.append(
                        Game(
                            km.winner if km.bye else km.top,
                            None if km.bye else km.bottom,
                            slot=km.slot,
                            bracket=PLAYOFF,
                            stage=stage,
                        )
                    )
        return games

    def bracket_places(self, field):
        playoff = self.state(field, self.all_matches()).playoff
        return [] if playoff is None else bracket_places(playoff)
