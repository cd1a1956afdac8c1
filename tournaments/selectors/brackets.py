"""Bracket pages: the knockout's bracket, both brackets of double elimination, the groups and their playoff.

Cells and columns are one shape for every bracket, so the same ``_tie.html`` draws them; places
come from the format (``formats``). A fixed number of queries whatever the number of pairs.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.utils.translation import gettext as _

from ..formats import format_of
from ..formats.brackets import GROUP, PLAYOFF, ties_of
from ..formats.places import place_labels
from ..formats.series import tie_length
from ..formats.single_elim import bracket_places
from ..models import Entry, Match, MatchStatus, Tournament, TournamentStatus
from .prizes import entry_prizes
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
    best_of: int = 1
    """A best-of-N series shows its score in games won, then each game's eyes (top first)."""

    @property
    def series(self) -> bool:
        return self.best_of > 1

    @property
    def won_score(self) -> str:
        """The series score as its winner says it ("2–1"), lost_score as the loser does ("1–2")."""
        return f"{max(self.top_wins, self.bottom_wins)}–{min(self.top_wins, self.bottom_wins)}"

    @property
    def lost_score(self) -> str:
        return f"{min(self.top_wins, self.bottom_wins)}–{max(self.top_wins, self.bottom_wins)}"


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
    final: BracketCell | None = None


@dataclass
class DoubleElimView:
    winners: list[BracketColumn]
    losers: list[BracketColumn]
    finals: list[BracketCell]
    champion: Entry | None
    places: list[tuple[int, Entry]]

    @property
    def final(self) -> BracketCell:
        """The match that decided the title: the reset when it was played."""
        return self.finals[-1]

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

    @property
    def final(self) -> BracketCell | None:
        return self.playoff[-1].cells[0] if self.playoff else None


def round_title(number: int, total: int) -> str:
    left = total - number
    if left == 0:
        return _("Final")
    if left == 1:
        return _("Semifinals")
    if left == 2:
        return _("Quarterfinals")
    return _("Round of %(n)d") % {"n": 2 ** (left + 1)}


def _cell(by_id, km, tie: list[Match], best_of: int = 1) -> BracketCell:
    """One tie of the bracket; its series score counts the confirmed games each side won."""
    games = sorted(tie, key=lambda g: g.game)
    cell = BracketCell(
        round=km.round,
        slot=km.slot,
        top=by_id.get(km.top),
        bottom=by_id.get(km.bottom),
        winner=by_id.get(km.winner),
        bye=km.bye,
        games=games,
        best_of=games[0].round.best_of or best_of if games else best_of,
    )
    for g in games:
        if g.status == MatchStatus.CONFIRMED:
            cell.top_wins += g.winner_id == km.top
            cell.bottom_wins += g.winner_id == km.bottom
    return cell


def _columns(by_id, rounds, tie_of, title, length=lambda km: 1) -> list[BracketColumn]:
    return [
        BracketColumn(
            number=i + 1, title=title(i + 1), cells=[_cell(by_id, km, tie_of(km), length(km)) for km in r]
        )
        for i, r in enumerate(rounds)
    ]


def _lengths(tournament: Tournament, final_round: int):
    """A tie's length as the event sets it: the final's for (``final_round``, slot 0)."""

    def length(km) -> int:
        return tie_length(tournament, None, final=(km.round, km.slot) == (final_round, 0))

    return length


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
        return games.get((km.round, km.slot), [])

    length = _lengths(tournament, total)
    columns = _columns(by_id, core.rounds, tie_of, lambda n: round_title(n, total), length)
    third = None
    if core.third_place is not None:
        third = _cell(by_id, core.third_place, tie_of(core.third_place), length(core.third_place))
    won = entry_prizes(tournament)
    places = [(place, by_id[e], won.get(e, "")) for place, e in bracket_places(core)]
    return BracketView(
        columns=columns,
        third_place=third,
        champion=by_id.get(core.champion),
        places=places,
        final=columns[-1].cells[0],
    )


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
    games = ties_of(matches, ("winners", "losers", "final"))

    def tie_in(bracket_name: str):
        def tie_of(km) -> list[Match]:
            return games.get((bracket_name, km.round, km.slot), [])

        return tie_of

    def length(km) -> int:
        return tie_length(tournament, None, final=False)

    final_length = tie_length(tournament, None, final=True)

    total = len(state.winners_rounds)
    winners = _columns(
        by_id,
        state.winners_rounds,
        tie_in("winners"),
        lambda n: round_title(n, total) if n < total else _("Winners' final"),
        length,
    )
    losers = _columns(
        by_id,
        state.losers_rounds,
        tie_in("losers"),
        lambda n: (
            _("Losers' final") if n == len(state.losers_rounds) else _("Losers' round %(n)d") % {"n": n}
        ),
        length,
    )
    finals = [_cell(by_id, state.grand_final, tie_in("final")(state.grand_final), final_length)]
    if state.reset is not None:
        finals.append(_cell(by_id, state.reset, tie_in("final")(state.reset), final_length))
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
        games = ties_of(matches, (PLAYOFF,))

        def tie_of(km) -> list[Match]:
            return games.get((PLAYOFF, km.round, km.slot), [])

        total = len(state.playoff.rounds)
        length = _lengths(tournament, total)
        playoff = _columns(by_id, state.playoff.rounds, tie_of, lambda n: round_title(n, total), length)
        if state.playoff.third_place is not None:
            km = state.playoff.third_place
            third = _cell(by_id, km, tie_of(km), length(km))
        champion = by_id.get(state.playoff.champion)
        places = [(p, by_id[e]) for p, e in bracket_places(state.playoff)]
    return GroupsView(groups, tournament.group_qualifiers, playoff, third, champion, places)
