"""The prize list: the one allocation (``core.prizes.allocate``) every page, export and print reads.

``prize_list`` is the entry point; ``entry_prizes`` gives each entry's prizes as text for the
standings lines, the bracket and the exports. Both read the standings' final places, who withdrew,
and, only when a category asks for them, the players' facts (a fixed number of queries).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Q
from django.utils.translation import gettext as _

from clubs.models import ClubPlayer, Player

from ..core import prizes as core
from ..formats import Standings, format_of
from ..models import (
    WAITING_STATUSES,
    Entry,
    EntryStatus,
    IndividualEntry,
    PlayerDetails,
    Tournament,
    TournamentStatus,
    money_text,
)


def prize_setup(tournament: Tournament) -> core.PrizeSetup:
    """The event's prizes, categories and options, whichever shape they were stored in."""
    return core.setup_from_json(tournament.prizes)


def prize_text(prize: core.Prize, currency: str) -> str:
    """A prize as people read it: its label, or its money ("30 000 ₸")."""
    return prize.label or (money_text(prize.amount, currency) if prize.amount is not None else "")


@dataclass
class PrizeLine:
    """A line of the prize list. ``place``: the place a place prize is for, or the rank within its
    category; ``prize``: what is won, as read (a category's prize names the category); ``winners``:
    the entries taking it (several when tied entries split it), ``shares`` their money when split;
    ``withheld``: a withdrawn entry's prize the organiser gives to nobody."""

    place: int
    prize: str
    winners: list
    category: str = ""
    label: str = ""
    shares: list[tuple[object, str]] = field(default_factory=list)
    withheld: bool = False


def _players(entry) -> list[Player]:
    return [entry.player] if isinstance(entry, IndividualEntry) else [entry.player_a, entry.player_b]


def _facts(tournament: Tournament, entries: list, setup: core.PrizeSetup) -> dict[int, core.Player]:
    """Each player's facts the categories ask for, by player id; none loaded when no category asks."""
    rules = [c.rule for c in setup.categories]
    ids = {p.pk for e in entries for p in _players(e)}
    clubs: dict[int, set[int]] = {}
    if any(r.club is not None for r in rules):
        for player, club in ClubPlayer.objects.filter(player__in=ids, active=True).values_list(
            "player", "club"
        ):
            clubs.setdefault(player, set()).add(club)
    details = {}
    if any(r.city or r.gender or r.born_from or r.born_to for r in rules):
        details = {
            d.player_id: d for d in PlayerDetails.objects.filter(tournament=tournament, player__in=ids)
        }
    played: set[int] = set()
    if any(r.newcomer for r in rules):
        played = earlier_players(tournament, ids)
    facts = {}
    for e in entries:
        for p in _players(e):
            d = details.get(p.pk)
            facts[p.pk] = core.Player(
                clubs=frozenset(clubs.get(p.pk, ())),
                city=(d.city if d and d.city else p.city) or "",
                birth_year=d.birth_year if d else None,
                gender=d.gender if d else "",
                newcomer=p.pk not in played,
            )
    return facts


def earlier_players(tournament: Tournament, ids: set[int]) -> set[int]:
    """Which of the players played a finished event on the site that started before this one: the
    others are its newcomers (something the site can check, unlike "never played anywhere")."""
    earlier = Q(tournament__status=TournamentStatus.FINISHED, tournament__starts_on__lt=tournament.starts_on)
    pairs = (
        Entry.objects.filter(earlier, Q(player_a__in=ids) | Q(player_b__in=ids))
        .exclude(status=EntryStatus.WITHDRAWN)
        .values_list("player_a", "player_b")
    )
    alone = IndividualEntry.objects.filter(earlier, player__in=ids).values_list("player", flat=True)
    return ({a for a, _b in pairs} | {b for _a, b in pairs} | set(alone)) & ids


def _places(tournament: Tournament, table: Standings | None) -> list[tuple[int, object]]:
    fmt = format_of(tournament)
    if table is not None and not fmt.places_from_bracket:
        return [(line.row.place, line.entry) for line in table.lines]
    return fmt.places()


def allocation(tournament: Tournament, table: Standings | None = None) -> tuple[core.Allocation, dict]:
    """The event's one allocation and its entries by id; empty until the event is finished."""
    if tournament.status != TournamentStatus.FINISHED:
        return core.Allocation(), {}
    setup = prize_setup(tournament)
    if not setup.places and not setup.categories:
        return core.Allocation(), {}
    places = _places(tournament, table)
    entries = [e for _p, e in places]
    facts = _facts(tournament, entries, setup) if setup.categories else {}
    contenders = [
        core.Contender(
            entry=e.pk,
            place=place,
            order=i,
            eligible=e.status != EntryStatus.WITHDRAWN,
            players=tuple(facts[p.pk] for p in _players(e)) if facts else (),
        )
        for i, (place, e) in enumerate(places)
    ]
    result = core.allocate(contenders, setup.places, setup.categories, setup.options)
    return result, {e.pk: e for e in entries}


def _shown(award: core.Award, currency: str) -> str:
    text = prize_text(award.prize, currency)
    return f"{award.category}: {text}" if award.category else text


def entry_prizes(tournament: Tournament, table: Standings | None = None) -> dict[int, str]:
    """Each entry's prizes as one text: "Конь", "Women: 5 000 ₸", and the money tied entries split,
    summed by ladder ("20 001 ₸ (shared)")."""
    result, _entries = allocation(tournament, table)
    currency = tournament.fee_currency
    items: dict[int, list[str | tuple[str | None]]] = {}
    shared: dict[tuple[int, str | None], int] = {}
    for award in result.awards:
        split = len(award.shares) > 1 and any(s.amount != award.prize.amount for s in award.shares)
        for share in award.shares:
            if share.withheld:
                continue
            if split and share.amount is not None:
                key = (share.entry, award.category)
                if key not in shared:
                    items.setdefault(share.entry, []).append((award.category,))
                shared[key] = shared.get(key, 0) + share.amount
            else:
                items.setdefault(share.entry, []).append(_shown(award, currency))

    def text(entry: int, item: str | tuple[str | None]) -> str:
        if isinstance(item, str):
            return item
        money = _("%(money)s (shared)") % {"money": money_text(shared[entry, item[0]], currency)}
        return f"{item[0]}: {money}" if item[0] else money

    return {entry: "; ".join(text(entry, i) for i in entry_items) for entry, entry_items in items.items()}


def prize_list(*, tournament: Tournament, table: Standings | None = None) -> list[PrizeLine]:
    """The prize list: the place prizes, then each category's, with their winners once the event is
    finished (tied entries share a prize they split). Without any prize announced, the first three
    places of a finished event."""
    setup = prize_setup(tournament)
    currency = tournament.fee_currency
    finished = tournament.status == TournamentStatus.FINISHED
    if not setup.places and not setup.categories:
        if not finished:
            return []
        by_place: dict[int, list] = {}
        for place, entry in _places(tournament, table):
            by_place.setdefault(place, []).append(entry)
        return [
            PrizeLine(place=p, prize="", winners=by_place.get(p, []))
            for p in range(1, 4)
            if p in by_place or p == 1
        ]
    result, entries = allocation(tournament, table)
    awarded = {(a.category, a.rank): a for a in result.awards}
    ladders = [(None, setup.places), *((c.name, c.prizes) for c in setup.categories)]
    lines = []
    for category, prizes in ladders:
        for rank, prize in enumerate(prizes, start=1):
            award = awarded.get((category, rank))
            shares = [s for s in award.shares if not s.withheld] if award else []
            label = prize_text(prize, currency)
            split = len(shares) > 1 and any(s.amount != prize.amount for s in shares)
            lines.append(
                PrizeLine(
                    place=rank,
                    prize=f"{category}: {label}" if category else label,
                    winners=[entries[s.entry] for s in shares],
                    category=category or "",
                    label=label,
                    shares=[
                        (entries[s.entry], money_text(s.amount, currency))
                        for s in shares
                        if split and s.amount is not None
                    ],
                    withheld=bool(award and not shares),
                )
            )
    return lines


def playing_for(tournament: Tournament, place: int) -> str:
    """What a place plays for while the event runs (its place prize), for the hall screen."""
    places = prize_setup(tournament).places
    return prize_text(places[place - 1], tournament.fee_currency) if 0 < place <= len(places) else ""


def prize_clubs(*, tournament: Tournament) -> list[tuple[int, str]]:
    """The clubs a category may name: the event's own, and those whose rosters hold its players."""
    ids = set(Entry.objects.filter(tournament=tournament).values_list("player_a", flat=True))
    ids |= set(Entry.objects.filter(tournament=tournament).values_list("player_b", flat=True))
    ids |= set(IndividualEntry.objects.filter(tournament=tournament).values_list("player", flat=True))
    rows = ClubPlayer.objects.filter(player__in=ids, active=True).values_list("club", "club__name").distinct()
    clubs = {tournament.club_id: tournament.club.name, **dict(rows)}
    return sorted(clubs.items(), key=lambda c: (c[0] != tournament.club_id, c[1].casefold()))


def event_players(*, tournament: Tournament) -> list[Player]:
    """The players of the event's entries (not those still waiting for a partner or approval), by name."""
    if tournament.is_individual:
        ids = IndividualEntry.objects.filter(tournament=tournament).values_list("player", flat=True)
        ids = set(ids)
    else:
        pairs = Entry.objects.filter(tournament=tournament).exclude(status__in=WAITING_STATUSES)
        ids = {p for pair in pairs.values_list("player_a", "player_b") for p in pair}
    return list(Player.objects.filter(pk__in=ids).order_by("display_name", "pk"))


@dataclass
class DetailsRow:
    """A player on the details page: what is written for this event, or else what the same club's
    last event wrote (``earlier``: shown as a suggestion the organiser saves or corrects)."""

    player: Player
    birth_year: int | None
    gender: str
    city: str
    earlier: bool


def details_rows(*, tournament: Tournament) -> list[DetailsRow]:
    players = event_players(tournament=tournament)
    ids = [p.pk for p in players]
    own = {d.player_id: d for d in PlayerDetails.objects.filter(tournament=tournament, player__in=ids)}
    before = {}
    for d in (
        PlayerDetails.objects.filter(tournament__club=tournament.club_id, player__in=ids)
        .exclude(tournament=tournament)
        .order_by("tournament__starts_on", "pk")
    ):
        before[d.player_id] = d  # the latest wins
    rows = []
    for p in players:
        d = own.get(p.pk) or before.get(p.pk)
        rows.append(
            DetailsRow(
                player=p,
                birth_year=d.birth_year if d else None,
                gender=d.gender if d else "",
                city=d.city if d else "",
                earlier=d is not None and p.pk not in own,
            )
        )
    return rows
