"""Rounds of double elimination and of groups then playoff (issue 6), drawn from the bracket the results give.

Like the knockout, nothing of the bracket is stored but who played whom and who won: each
``Match`` carries its place in the core's bracket (``bracket``, ``stage``, ``slot``) and the
core rebuilds the bracket from the confirmed winners (``core.double_elim``, ``core.groups``).
``services.pair_next_round`` hands these formats to ``pair_next_bracket_round``, inside its
transaction and after its lock. One match per tie (no best-of series in these formats).

- **Double elimination:** each round plays every match whose two pairs are known and that has
  no winner yet (``DoubleElimBracket.pending``): round 1 is the winners' first round, round 2
  its second round and the losers' first, and so on, until the grand final (and its reset).
- **Groups then playoff:** the seeded field is dealt into ``group_count`` groups by the snake;
  round r plays round r of every group's Berger table; then the top ``group_qualifiers`` of
  each group go into the knockout playoff, seeded so that group winners meet late
  (``core.groups.playoff_seeding``), with the tournament's third-place option.

A withdrawn pair loses its later matches by forfeit as they come up, so the bracket goes on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from .core.double_elim import DoubleElimBracket, double_elim_bracket
from .core.groups import group_schedules, group_standings, playoff_bracket, snake_groups
from .core.knockout import Bracket
from .core.standings import ROUND_ROBIN_TIEBREAKS, StandingRow, Tiebreak
from .models import (
    Entry,
    EntryStatus,
    Format,
    Match,
    MatchStatus,
    Round,
    Tournament,
    TournamentStatus,
)
from .services import (
    _add_bye,
    _add_match,
    _audit,
    _field,
    _last_round_if_complete,
    _lock,
    _on_commit_task,
    _refresh_round,
    _require_manager,
    _set_forfeit,
    _start,
    matchday_deadline,
)

GROUP = "group"
PLAYOFF = "playoff"


def _winners(matches: Sequence[Match], brackets: Sequence[str]) -> dict[tuple[str, int, int], int]:
    return {
        (m.bracket, m.stage, m.slot): m.winner_id
        for m in matches
        if m.bracket in brackets and not m.bye and m.status == MatchStatus.CONFIRMED and m.winner_id
    }


def double_elim_state(
    tournament: Tournament, field: Sequence[Entry], matches: Sequence[Match]
) -> DoubleElimBracket:
    return double_elim_bracket(
        [e.pk for e in field],
        _winners(matches, ("winners", "losers", "final")),
        grand_final_reset=tournament.grand_final_reset,
    )


@dataclass
class GroupsState:
    groups: list[list[int]]
    tables: list[list[StandingRow]]
    group_rounds: int
    complete: bool
    playoff: Bracket | None
    playoff_error: str = ""
    """Why no playoff can be drawn from complete groups (e.g. one pair going through in all)."""


def _group_tiebreaks(tournament: Tournament) -> list[Tiebreak]:
    order = [Tiebreak(t) for t in tournament.tiebreaks or []]
    return order if order and Tiebreak.BUCHHOLZ not in order else list(ROUND_ROBIN_TIEBREAKS)


def groups_state(tournament: Tournament, field: Sequence[Entry], matches: Sequence[Match]) -> GroupsState:
    """The groups, their tables from the confirmed group matches, and the playoff once they are done."""
    from .selectors import _results

    groups = snake_groups([e.pk for e in field], min(tournament.group_count, max(1, len(field) // 2)))
    group_rounds = max((len(s) for s in group_schedules(groups)), default=0)
    group_matches = [m for m in matches if m.bracket == GROUP]
    withdrawn = [e.pk for e in field if e.status == EntryStatus.WITHDRAWN]
    tables = group_standings(
        groups,
        _results(group_matches),
        points=_points(tournament),
        tiebreaks=_group_tiebreaks(tournament),
        withdrawn=withdrawn,
    )
    stage_rounds = {m.round.number for m in group_matches}
    complete = len(stage_rounds) >= group_rounds and all(
        m.status == MatchStatus.CONFIRMED for m in group_matches
    )
    playoff = None
    if complete:
        orders = [[row.entry for row in table if row.entry not in withdrawn] for table in tables]
        winners = {(stage, slot): w for (_b, stage, slot), w in _winners(matches, (PLAYOFF,)).items()}
        try:
            playoff = playoff_bracket(
                orders, tournament.group_qualifiers, winners, third_place=tournament.third_place
            )
        except ValueError as error:
            return GroupsState(groups, tables, group_rounds, complete, None, str(error))
    return GroupsState(groups, tables, group_rounds, complete, playoff)


def _points(tournament: Tournament):
    from .core.standings import MatchPoints

    return MatchPoints(win=tournament.points_win, loss=tournament.points_loss, bye=tournament.points_bye)


def _all_matches(tournament: Tournament) -> list[Match]:
    return list(Match.objects.filter(tournament=tournament).select_related("round"))


def champion_of(tournament: Tournament) -> int | None:
    field = _field(tournament)
    if len(field) < 2:
        return None
    matches = _all_matches(tournament)
    if tournament.format == Format.DOUBLE_ELIM:
        return double_elim_state(tournament, field, matches).champion
    state = groups_state(tournament, field, matches)
    return state.playoff.champion if state.playoff is not None else None


def bracket_round_count(tournament: Tournament) -> int:
    """How many rounds the event has, as far as one can tell: those played, and one more until
    the champion is known (``services._maybe_finish`` finishes the event when all are complete)."""
    played = tournament.rounds.count()
    if tournament.status == TournamentStatus.REGISTRATION:
        return max(played, 1)
    return played if champion_of(tournament) is not None else played + 1


def _next_games(
    tournament: Tournament, number: int, field, matches
) -> list[tuple[str, int, int, int, int | None]]:
    """The next round's games as (bracket, stage, slot, top, bottom); bottom None for a bye."""
    games: list[tuple[str, int, int, int, int | None]] = []
    if tournament.format == Format.DOUBLE_ELIM:
        state = double_elim_state(tournament, field, matches)
        games = [(m.bracket, m.round, m.slot, m.top, m.bottom) for m in state.pending()]
    else:
        gstate = groups_state(tournament, field, matches)
        if number <= gstate.group_rounds:
            out = {e.pk for e in field if e.status == EntryStatus.WITHDRAWN}
            for g, schedule in enumerate(group_schedules(gstate.groups)):
                if number > len(schedule):
                    continue
                rr = schedule[number - 1]
                games += [(GROUP, number, g, h, a) for h, a in rr.games]
                if rr.bye is not None and rr.bye not in out:
                    games.append((GROUP, number, g, rr.bye, None))
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
                        (
                            PLAYOFF,
                            stage,
                            km.slot,
                            km.winner if km.bye else km.top,
                            None if km.bye else km.bottom,
                        )
                    )
    return games


def pair_next_bracket_round(*, actor, tournament: Tournament, system: bool = False) -> Round:
    tournament = _lock(tournament)
    if not system:
        _require_manager(actor, tournament)
    last = _last_round_if_complete(tournament)
    if last is None:
        _start(tournament, actor)
    number = (last.number if last else 0) + 1
    field = _field(tournament)
    matches = _all_matches(tournament)
    try:
        games = _next_games(tournament, number, field, matches)
    except ValueError as error:  # e.g. a playoff of one pair, or a third-place match for three
        raise ValidationError(
            _("This event cannot go on as set up (%(error)s): change the groups or the pairs going through.")
            % {"error": error}
        ) from error
    if not [g for g in games if g[4] is not None]:
        raise ValidationError(_("There is no match left to pair: the bracket is complete."))
    rnd = Round.objects.create(
        tournament=tournament, number=number, deadline=matchday_deadline(tournament, number)
    )
    withdrawn = {e.pk: e for e in field if e.status == EntryStatus.WITHDRAWN}
    table = 0
    for bracket, stage, slot, top, bottom in games:
        if bottom is None:
            bye = _add_bye(tournament, rnd, top, slot=slot)
            Match.objects.filter(pk=bye.pk).update(bracket=bracket, stage=stage)
            continue
        table += 1
        match = _add_match(tournament, rnd, table, top, bottom, slot=slot)
        match.bracket, match.stage = bracket, stage
        match.save(update_fields=["bracket", "stage"])
        for entry_id in (top, bottom):
            if entry_id in withdrawn and match.status != MatchStatus.CONFIRMED:
                _set_forfeit(match, loser=withdrawn[entry_id], actor=actor)
    _audit(
        actor=actor,
        action="round.pair",
        obj=rnd,
        tournament=tournament,
        after={"number": number, "matches": [list(g) for g in games]},
    )
    _refresh_round(rnd, tournament)
    _on_commit_task("notify_round_paired", rnd.pk)
    return rnd
