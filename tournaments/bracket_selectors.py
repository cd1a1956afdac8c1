"""Read-only views of double elimination and groups then playoff: bracket drawings, group tables, places.

Cells and columns are the knockout's (``selectors.BracketCell``), so the same ``_tie.html``
draws them. A fixed number of queries whatever the number of pairs.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.utils.translation import gettext as _

from .bracket_services import GROUP, PLAYOFF, double_elim_state, groups_state
from .models import Entry, Format, Match, Tournament, TournamentStatus
from .selectors import BracketCell, BracketColumn, PrizeLine, StandingLine, _ranked_entries, round_title


@dataclass
class DoubleElimView:
    winners: list[BracketColumn]
    losers: list[BracketColumn]
    finals: list[BracketCell]
    champion: Entry | None
    places: list[tuple[int, Entry]]


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


def _load(tournament: Tournament):
    field = _ranked_entries(tournament)
    matches = list(
        Match.objects.filter(tournament=tournament).select_related(
            "round", "home__player_a", "home__player_b", "away__player_a", "away__player_b"
        )
    )
    return field, {e.pk: e for e in field}, matches


def _cell(by_id, games, km, bracket: str) -> BracketCell:
    tie = [games[(bracket, km.round, km.slot)]] if (bracket, km.round, km.slot) in games else []
    return BracketCell(
        round=km.round,
        slot=km.slot,
        top=by_id.get(km.top),
        bottom=by_id.get(km.bottom),
        winner=by_id.get(km.winner),
        bye=km.bye,
        games=tie,
    )


def double_elim_view(*, tournament: Tournament) -> DoubleElimView | None:
    """Both brackets and the final(s), and the places: champion, runner-up, then by the losers'
    round in which a pair went out (pairs out in the same round share the place)."""
    field, by_id, matches = _load(tournament)
    if tournament.status == TournamentStatus.REGISTRATION or len(field) < 2:
        return None
    state = double_elim_state(tournament, field, matches)
    games = {(m.bracket, m.stage, m.slot): m for m in matches if not m.bye}
    total = len(state.winners_rounds)
    winners = [
        BracketColumn(number=i + 1, title=round_title(i + 1, total) if i + 1 < total else _("Winners' final"),
                      cells=[_cell(by_id, games, m, "winners") for m in r])
        for i, r in enumerate(state.winners_rounds)
    ]  # fmt: skip
    losers = [
        BracketColumn(
            number=i + 1,
            title=_("Losers' final")
            if i + 1 == len(state.losers_rounds)
            else _("Losers' round %(n)d") % {"n": i + 1},
            cells=[_cell(by_id, games, m, "losers") for m in r],
        )
        for i, r in enumerate(state.losers_rounds)
    ]
    finals = [_cell(by_id, games, state.grand_final, "final")]
    if state.reset is not None:
        finals.append(_cell(by_id, games, state.reset, "final"))
    places: list[tuple[int, Entry]] = []
    if state.champion is not None:
        last = state.reset or state.grand_final
        places += [(1, by_id[state.champion]), (2, by_id[last.loser])]
        place = 3
        for r in reversed(state.losers_rounds):
            out = [m.loser for m in r if m.loser is not None]
            places += [(place, by_id[e]) for e in out]
            place += len(out)
    return DoubleElimView(winners, losers, finals, by_id.get(state.champion), places)


def groups_view(*, tournament: Tournament) -> GroupsView | None:
    field, by_id, matches = _load(tournament)
    if tournament.status == TournamentStatus.REGISTRATION or len(field) < 2:
        return None
    state = groups_state(tournament, field, matches)
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
        games = {(PLAYOFF, m.stage, m.slot): m for m in matches if m.bracket == PLAYOFF and not m.bye}
        total = len(state.playoff.rounds)
        playoff = [
            BracketColumn(number=i + 1, title=round_title(i + 1, total),
                          cells=[_cell(by_id, games, km, PLAYOFF) for km in r])
            for i, r in enumerate(state.playoff.rounds)
        ]  # fmt: skip
        if state.playoff.third_place is not None:
            third = _cell(by_id, games, state.playoff.third_place, PLAYOFF)
        final = state.playoff.final
        champion = by_id.get(state.playoff.champion)
        if final.winner is not None:
            places += [(1, by_id[final.winner]), (2, by_id[final.loser])]
            tp = state.playoff.third_place
            if tp is not None and tp.winner is not None:
                places += [(3, by_id[tp.winner]), (4, by_id[tp.loser])]
            elif tp is None and total >= 2:
                places += [(3, by_id[s.loser]) for s in state.playoff.rounds[-2] if s.loser is not None]
    return GroupsView(groups, tournament.group_qualifiers, playoff, third, champion, places)


def prize_list(*, tournament: Tournament) -> list[PrizeLine]:
    prizes = tournament.prizes or []
    winners: dict[int, list[Entry]] = defaultdict(list)
    if tournament.status == TournamentStatus.FINISHED:
        view = (double_elim_view if tournament.format == Format.DOUBLE_ELIM else groups_view)(
            tournament=tournament
        )
        for place, entry in view.places if view else []:
            winners[place].append(entry)
    count = max(len(prizes), 3 if winners else 0)
    return [
        PrizeLine(place=p, prize=prizes[p - 1] if p <= len(prizes) else "", winners=winners.get(p, []))
        for p in range(1, count + 1)
    ]
