"""Read-only queries for tournament pages: load rows, call the pure core, return plain view data.

Each selector runs a fixed number of SQL queries whatever the number of entries (tested).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import Prefetch, Q, QuerySet
from django.utils.translation import gettext as _

from clubs.models import Club

from . import permissions
from .core.roundrobin import round_robin
from .core.standings import MatchPoints, MatchResult, StandingRow, Tiebreak, compute_standings
from .models import Entry, EntryStatus, Match, MatchStatus, Round, Substitution, Tournament, TournamentStatus
from .services import default_tiebreaks, knockout_state, matchday_deadline

ENTRY_PLAYERS = ("player_a", "player_b")
MATCH_RELATED = (
    "round",
    "tournament",
    "home__player_a",
    "home__player_b",
    "away__player_a",
    "away__player_b",
)


def tournament_by_slug(slug: str) -> Tournament:
    return Tournament.objects.select_related("club").get(slug=slug)


def club_tournaments(*, club: Club) -> list[Tournament]:
    return list(club.tournaments.order_by("-starts_on", "-id"))


def club_events(*, club: Club, limit: int = 5) -> dict[str, list[Tournament]]:
    """Upcoming (registration or running) and recent (finished) events for the club page."""
    qs = club.tournaments.order_by("-starts_on", "-id")
    return {
        "upcoming": list(qs.exclude(status=TournamentStatus.FINISHED)[:limit]),
        "recent": list(qs.filter(status=TournamentStatus.FINISHED)[:limit]),
    }


def entries(*, tournament: Tournament) -> list[Entry]:
    return list(tournament.entries.select_related(*ENTRY_PLAYERS).order_by("seed", "id"))


def _ranked_entries(tournament: Tournament) -> list[Entry]:
    """Entries that belong in the table: the seeded field once started, else every approved pair."""
    qs = tournament.entries.select_related(*ENTRY_PLAYERS).exclude(status=EntryStatus.PENDING)
    if tournament.status == TournamentStatus.REGISTRATION:
        qs = qs.exclude(status=EntryStatus.WITHDRAWN)
    else:
        qs = qs.filter(seed__gt=0)
    return list(qs.order_by("seed", "id"))


def _results(matches: list[Match]) -> list[MatchResult]:
    results = []
    for m in matches:
        if m.status != MatchStatus.CONFIRMED:
            continue
        if m.bye:
            results.append(MatchResult(home=m.home_id, away=None, bye=True))
        else:
            results.append(
                MatchResult(
                    home=m.home_id,
                    away=m.away_id,
                    home_eyes=m.home_eyes,
                    away_eyes=m.away_eyes,
                    winner=m.winner_id,
                    home_lucy=m.home_lucy,
                    away_lucy=m.away_lucy,
                    forfeit=m.forfeit,
                )
            )
    return results


@dataclass
class StandingLine:
    row: StandingRow
    entry: Entry
    prize: str = ""


@dataclass
class Standings:
    lines: list[StandingLine]
    tiebreaks: list[str]
    final: bool


def tiebreak_order(tournament: Tournament) -> list[Tiebreak]:
    return [Tiebreak(t) for t in (tournament.tiebreaks or default_tiebreaks(tournament.format))]


def standings(*, tournament: Tournament) -> Standings:
    """The table by match points and the tournament's tiebreak order (core.standings). Two queries."""
    field_entries = _ranked_entries(tournament)
    by_id = {e.pk: e for e in field_entries}
    matches = [
        m
        for m in Match.objects.filter(tournament=tournament, status=MatchStatus.CONFIRMED)
        if m.home_id in by_id and (m.away_id is None or m.away_id in by_id)
    ]
    order = tiebreak_order(tournament)
    rows = compute_standings(
        [e.pk for e in field_entries],
        _results(matches),
        points=MatchPoints(win=tournament.points_win, loss=tournament.points_loss, bye=tournament.points_bye),
        tiebreaks=order,
        withdrawn=[e.pk for e in field_entries if e.status == EntryStatus.WITHDRAWN],
    )
    final = tournament.status == TournamentStatus.FINISHED
    prizes = tournament.prizes or []
    lines = []
    for row in rows:
        prize = prizes[row.place - 1] if final and row.place <= len(prizes) else ""
        lines.append(StandingLine(row=row, entry=by_id[row.entry], prize=prize))
    return Standings(lines=lines, tiebreaks=[t.value for t in order], final=final)


def rounds_with_matches(*, tournament: Tournament) -> list[Round]:
    """Every round with its matches and the players at each table. Three queries."""
    return list(
        tournament.rounds.order_by("number").prefetch_related(
            Prefetch(
                "matches",
                queryset=Match.objects.select_related(*MATCH_RELATED).order_by(
                    "bye", "table", "slot", "game"
                ),
            )
        )
    )


def round_detail(*, tournament: Tournament, number: int) -> Round:
    return tournament.rounds.prefetch_related(
        Prefetch(
            "matches",
            queryset=Match.objects.select_related(*MATCH_RELATED).order_by("bye", "table", "slot", "game"),
        ),
        Prefetch("substitutions", queryset=Substitution.objects.select_related("player_in", "player_out")),
    ).get(number=number)


def match_detail(*, tournament: Tournament, pk: int) -> Match:
    return (
        Match.objects.select_related(*MATCH_RELATED, "reported_by__player", "confirmed_by__player")
        .prefetch_related(
            "deals",
            "corrections__actor",
            Prefetch(
                "home__substitutions", queryset=Substitution.objects.select_related("player_in", "player_out")
            ),
            Prefetch(
                "away__substitutions", queryset=Substitution.objects.select_related("player_in", "player_out")
            ),
        )
        .get(tournament=tournament, pk=pk)
    )


@dataclass
class Crosstable:
    entries: list[Entry]
    cells: dict[tuple[int, int], list[str]]
    rows: list[tuple[StandingLine, list[list[str]]]] = field(default_factory=list)


def crosstable(*, tournament: Tournament) -> Crosstable:
    """All-play-all grid in standings order; each cell lists the row pair's scores against the column."""
    table = standings(tournament=tournament)
    cells: dict[tuple[int, int], list[str]] = defaultdict(list)
    for m in Match.objects.filter(tournament=tournament, bye=False, status=MatchStatus.CONFIRMED).order_by(
        "round__number"
    ):
        cells[(m.home_id, m.away_id)].append(f"{m.home_eyes}:{m.away_eyes}")
        cells[(m.away_id, m.home_id)].append(f"{m.away_eyes}:{m.home_eyes}")
    order = [line.entry for line in table.lines]
    result = Crosstable(entries=order, cells=cells)
    for line in table.lines:
        result.rows.append((line, [cells.get((line.entry.pk, other.pk), []) for other in order]))
    return result


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


def round_title(number: int, total: int) -> str:
    left = total - number
    if left == 0:
        return _("Final")
    if left == 1:
        return _("Semifinals")
    if left == 2:
        return _("Quarterfinals")
    return _("Round of %(n)d") % {"n": 2 ** (left + 1)}


def bracket(*, tournament: Tournament) -> BracketView | None:
    """The knockout bracket (core.knockout) with each tie's games. Two queries; None before the draw."""
    field_entries = _ranked_entries(tournament)
    if tournament.status == TournamentStatus.REGISTRATION or len(field_entries) < 2:
        return None
    by_id = {e.pk: e for e in field_entries}
    matches = list(Match.objects.filter(tournament=tournament).select_related("round"))
    core, games = knockout_state(tournament, field_entries, matches)
    total = len(core.rounds)

    def cell(km) -> BracketCell:
        tie = sorted(games.get((km.round, km.slot), []), key=lambda g: g.game)
        c = BracketCell(
            round=km.round,
            slot=km.slot,
            top=by_id.get(km.top),
            bottom=by_id.get(km.bottom),
            winner=by_id.get(km.winner),
            bye=km.bye,
            games=tie,
        )
        for g in tie:
            if g.status == MatchStatus.CONFIRMED:
                c.top_wins += g.winner_id == km.top
                c.bottom_wins += g.winner_id == km.bottom
        return c

    columns = [
        BracketColumn(number=i + 1, title=round_title(i + 1, total), cells=[cell(km) for km in r])
        for i, r in enumerate(core.rounds)
    ]
    third = cell(core.third_place) if core.third_place is not None else None
    places: list[tuple[int, Entry, str]] = []
    final = core.final
    prizes = tournament.prizes or []

    def add(place: int, entry_id) -> None:
        if entry_id is not None:
            places.append((place, by_id[entry_id], prizes[place - 1] if place <= len(prizes) else ""))

    if final.winner is not None:
        add(1, final.winner)
        add(2, final.loser)
        if core.third_place is not None:
            if core.third_place.winner is not None:
                add(3, core.third_place.winner)
                add(4, core.third_place.loser)
        elif total >= 2:
            for semi in core.rounds[-2]:
                add(3, semi.loser)
    return BracketView(columns=columns, third_place=third, champion=by_id.get(core.champion), places=places)


@dataclass
class PrizeLine:
    place: int
    prize: str
    winners: list[Entry]


def prize_list(*, tournament: Tournament) -> list[PrizeLine]:
    """The prizes by place with their winners once the tournament is finished (shared places share)."""
    prizes = tournament.prizes or []
    winners: dict[int, list[Entry]] = defaultdict(list)
    if tournament.status == TournamentStatus.FINISHED:
        if tournament.is_knockout:
            view = bracket(tournament=tournament)
            for place, entry, _prize in view.places if view else []:
                winners[place].append(entry)
        else:
            for line in standings(tournament=tournament).lines:
                winners[line.row.place].append(line.entry)
    count = max(len(prizes), 3 if winners else 0)
    return [
        PrizeLine(place=p, prize=prizes[p - 1] if p <= len(prizes) else "", winners=winners.get(p, []))
        for p in range(1, count + 1)
    ]


def results(*, tournament: Tournament) -> QuerySet[Match]:
    return (
        Match.objects.filter(tournament=tournament)
        .select_related(*MATCH_RELATED)
        .order_by("round__number", "bye", "table", "slot", "game")
    )


def my_matches(*, user) -> list[Match]:
    """The user's matches in every tournament (his pairs, and rounds he plays as a substitute)."""
    pid = permissions.player_id_of(user)
    if pid is None:
        return []
    subs = Substitution.objects.filter(player_in_id=pid).values_list("entry_id", "round_id")
    sub_q = Q()
    for entry_id, round_id in subs:
        sub_q |= Q(round_id=round_id) & (Q(home_id=entry_id) | Q(away_id=entry_id))
    mine = (
        Q(home__player_a_id=pid)
        | Q(home__player_b_id=pid)
        | Q(away__player_a_id=pid)
        | Q(away__player_b_id=pid)
    )
    return list(
        Match.objects.filter(mine | sub_q)
        .select_related("tournament", *MATCH_RELATED)
        .prefetch_related("home__substitutions", "away__substitutions")
        .order_by("-tournament__starts_on", "tournament_id", "round__number", "game")
    )


def pending_entries(*, tournament: Tournament) -> list[Entry]:
    return list(tournament.entries.filter(status=EntryStatus.PENDING).select_related(*ENTRY_PLAYERS))


def open_matches(*, tournament: Tournament) -> list[Match]:
    """Results the organiser should look at: disputed first, then waiting for confirmation."""
    return list(
        Match.objects.filter(
            tournament=tournament, status__in=(MatchStatus.DISPUTED, MatchStatus.UNCONFIRMED)
        )
        .select_related(*MATCH_RELATED)
        .order_by("status", "round__number", "table")
    )


@dataclass
class Fixture:
    number: int
    deadline: object
    games: list[tuple[Entry, Entry]]
    bye: Entry | None


def coming_matchdays(*, tournament: Tournament) -> list[Fixture]:
    """A league's matchdays not paired yet, from the same Berger table the pairing will use.

    Games of withdrawn pairs are left out, as the pairing will leave them out. Two queries.
    """
    if tournament.format != "round_robin" or tournament.status != TournamentStatus.RUNNING:
        return []
    field_entries = _ranked_entries(tournament)
    by_id = {e.pk: e for e in field_entries}
    out = {e.pk for e in field_entries if e.status == EntryStatus.WITHDRAWN}
    paired = tournament.rounds.count()
    schedule = round_robin([e.pk for e in field_entries], double=tournament.double_round_robin)
    return [
        Fixture(
            number=r.number,
            deadline=matchday_deadline(tournament, r.number),
            games=[(by_id[h], by_id[a]) for h, a in r.games if h not in out and a not in out],
            bye=by_id[r.bye] if r.bye is not None and r.bye not in out else None,
        )
        for r in schedule[paired:]
    ]
