"""Bracket pages: the knockout's bracket, both brackets of double elimination, the groups and their playoff.

Cells and columns are one shape for every bracket, so the same ``_tie.html`` draws them; places
come from the format (``formats``). A fixed number of queries whatever the number of pairs.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.utils.translation import gettext as _

from ..formats import format_of
from ..formats.base import prize_of
from ..formats.brackets import GROUP, PLAYOFF
from ..formats.places import place_labels
from ..formats.single_elim import bracket_places
from ..models import Entry, Match, MatchStatus, Tournament, TournamentStatus
from .standings import StandingLine


@dataclass
class BracketCell:
    round: int
    slot: int
    top: Entry | None
    bottom: Entry | None
    winner: Entry | None
    bye: bool
    games: list[Match]
    top_wins: int = 0
    bottom_wins: int = 0


@dataclass
class BracketColumn:
    number: int
    title: str
    cells: list[BracketCell]


@dataclass
class BracketView:
    columns: list[BracketColumn]
    third_place: BracketCell | None
    champion: Entry | None
    places: list[tuple[int, Entry, str]]


@dataclass
class DoubleElimView:
    winners: list[BracketColumn]
    losers: list[BracketColumn]
    finals: list[BracketCell]
    champion: Entry | None
    places: list[tuple[int, Entry]]

    @property
    def labelled_places(self) -> list[tuple[str, Entry]]:
        """The places as shown ("5–6" where pairs out in the same losers' round share one)."""
        return list(zip(place_labels(self.places), (e for _p, e in self.places), strict=True))


@dataclass
class GroupTable:
    letter: str
    lines: list[StandingLine]
    matches: list[Match]


@dataclass
class GroupsView:
    groups: list[GroupTable]
    qualifiers: int
    playoff: list[BracketColumn]
    third_place: BracketCell | None
    champion: Entry | None
    places: list[tuple[int, Entry]]


def round_title(number: int, total: int) -> str:
    left = total - number
    if left == 0:
        return _("Final")
    if left == 1:
        return _("Semifinals")
    if left == 2:
        return _("Quarterfinals")
    return _("Round of %(n)d") % {"n": 2 ** (left + 1)}


def _cell(by_id, km, tie: list[Match]) -> BracketCell:
    return BracketCell(
        round=km.round,
        slot=km.slot,
        top=by_id.get(km.top),
        bottom=by_id.get(km.bottom),
        winner=by_id.get(km.winner),
        bye=km.bye,
        games=tie,
    )


def _columns(by_id, rounds, tie_of, title) -> list[BracketColumn]:
    return [
        BracketColumn(number=i + 1, title=title(i + 1), cells=[_cell(by_id, km, tie_of(km)) for km in r])
        for i, r in enumerate(rounds)
    ]


def bracket(*, tournament: Tournament) -> BracketView | None:
    """The knockout bracket (core.knockout) with each tie's games. Two queries; None before the draw."""
    fmt = format_of(tournament)
    field_entries = fmt.ranked_entries()
    if tournament.status == TournamentStatus.REGISTRATION or len(field_entries) < 2:
        return None
    by_id = {e.pk: e for e in field_entries}
    core, games = fmt.state(field_entries)
    total = len(core.rounds)

    def tie_of(km) -> list[Match]:
        return sorted(games.get((km.round, km.slot), []), key=lambda g: g.game)

    def cell(km) -> BracketCell:
        c = _cell(by_id, km, tie_of(km))
        for g in c.games:
            if g.status == MatchStatus.CONFIRMED:
                c.top_wins += g.winner_id == km.top
                c.bottom_wins += g.winner_id == km.bottom
        return c

    columns = [
        BracketColumn(number=i + 1, title=round_title(i + 1, total), cells=[cell(km) for km in r])
        for i, r in enumerate(core.rounds)
    ]
    third = cell(core.third_place) if core.third_place is not None else None
    places = [(place, by_id[e], prize_of(tournament, place)) for place, e in bracket_places(core)]
    return BracketView(columns=columns, third_place=third, champion=by_id.get(core.champion), places=places)


def _load(tournament: Tournament):
    fmt = format_of(tournament)
    field = fmt.ranked_entries()
    matches = list(
        Match.objects.filter(tournament=tournament).select_related(
            "round", "home__player_a", "home__player_b", "away__player_a", "away__player_b"
        )
    )
    return fmt, field, {e.pk: e for e in field}, matches


def double_elim_view(*, tournament: Tournament) -> DoubleElimView | None:
    """Both brackets and the final(s), and the places: champion, runner-up, then by the losers'
    round in which a pair went out (pairs out in the same round share the place)."""
    fmt, field, by_id, matches = _load(tournament)
    if tournament.status == TournamentStatus.REGISTRATION or len(field) < 2:
        return None
    state = fmt.state(field, matches)
    games = {(m.bracket, m.stage, m.slot): m for m in matches if not m.bye}

    def tie_in(bracket_name: str):
        def tie_of(km) -> list[Match]:
            key = (bracket_name, km.round, km.slot)
            return [games[key]] if key in games else []

        return tie_of

    total = len(state.winners_rounds)
    winners = _columns(
        by_id,
        state.winners_rounds,
        tie_in("winners"),
        lambda n: round_title(n, total) if n < total else _("Winners' final"),
    )
    losers = _columns(
        by_id,
        state.losers_rounds,
        tie_in("losers"),
        lambda n: (
            _("Losers' final") if n == len(state.losers_rounds) else _("Losers' round %(n)d") % {"n": n}
        ),
    )
    finals = [_cell(by_id, state.grand_final, tie_in("final")(state.grand_final))]
    if state.reset is not None:
        finals.append(_cell(by_id, state.reset, tie_in("final")(state.reset)))
    places = [(p, by_id[e]) for p, e in fmt.places_of(state)]
    return DoubleElimView(winners, losers, finals, by_id.get(state.champion), places)


def groups_view(*, tournament: Tournament) -> GroupsView | None:
    fmt, field, by_id, matches = _load(tournament)
    if tournament.status == TournamentStatus.REGISTRATION or len(field) < 2:
        return None
    state = fmt.state(field, matches)
    per_group: dict[int, list[Match]] = defaultdict(list)
    for m in sorted(matches, key=lambda m: (m.round.number, m.table)):
        if m.bracket == GROUP:
            per_group[m.slot].append(m)
    groups = [
        GroupTable(
            letter=chr(ord("A") + g),
            lines=[StandingLine(row=row, entry=by_id[row.entry]) for row in state.tables[g]],
            matches=per_group[g],
        )
        for g in range(len(state.groups))
    ]
    playoff: list[BracketColumn] = []
    third = None
    champion = None
    places: list[tuple[int, Entry]] = []
    if state.playoff is not None:
        games = {(m.stage, m.slot): m for m in matches if m.bracket == PLAYOFF and not m.bye}

        def tie_of(km) -> list[Match]:
            return [games[(km.round, km.slot)]] if (km.round, km.slot) in games else []

        total = len(state.playoff.rounds)
        playoff = _columns(by_id, state.playoff.rounds, tie_of, lambda n: round_title(n, total))
        if state.playoff.third_place is not None:
            third = _cell(by_id, state.playoff.third_place, tie_of(state.playoff.third_place))
        champion = by_id.get(state.playoff.champion)
        places = [(p, by_id[e]) for p, e in bracket_places(state.playoff)]
    return GroupsView(groups, tournament.group_qualifiers, playoff, third, champion, places)
