"""The archive's reads: who may see a match, finding matches, a player's figures, the record check.

Visibility is one rule for every page, list and download: a public match is anyone's; any other
is seen by the players who sat in it, its club's owners and organisers, and the staff. Everyone
else gets the 404 of a match that does not exist.

It runs past 400 lines because every read of a match's seats and result now knows three games
(Bilka's four seats, Kozyol's pairs, Bilka for two's two players); splitting the player's figures
into a module of their own is the next cut.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from django.db.models import Count, Max, Min, Q, QuerySet, Sum
from django.db.models.functions import Coalesce
from django.utils.translation import gettext as _

from archive.models import ArchivedDeal, ArchivedMatch, ArchivedSeat, SeatAnalysis, SeatKind
from clubs import text
from clubs.models import Club, Membership, Player
from clubs.permissions import ROSTER_ROLES
from clubs.translit import search_key
from gameplay.engine import EngineError, Phase, RecordError, read_record
from gameplay.engine.bilka2 import GAME as BILKA2
from gameplay.engine.bilka2 import Bilka2MatchState
from gameplay.engine.cards import SEATS
from gameplay.engine.games import BILKA
from gameplay.engine.record_games import read_game_record
from gameplay.words import BotLevel, bot_name


def visible_q(user: Any) -> Q:
    """The archived matches `user` may see, as a filter."""
    q = Q(public=True)
    if user is None or not user.is_authenticated:
        return q
    if user.is_staff and user.has_perm("archive.view_archivedmatch"):
        return Q()
    clubs = Membership.objects.filter(user=user, role__in=ROSTER_ROLES).values("club_id")
    return q | Q(pk__in=seated_matches(user)) | Q(club_id__in=clubs)


def seated_matches(user: Any) -> QuerySet[ArchivedSeat]:
    """The ids of the matches the signed-in user sat in (by his account or his player record)."""
    return ArchivedSeat.objects.filter(Q(user=user) | Q(player__user=user)).values("match_id")


def visible_matches(user: Any) -> QuerySet[ArchivedMatch]:
    return ArchivedMatch.objects.filter(visible_q(user))


def visible_match(user: Any, pk: int) -> ArchivedMatch | None:
    """The archived match `pk` if `user` may see it, with its seats and deals; None otherwise
    (the caller answers both "no such match" and "not yours" with the same 404)."""
    return (visible_matches(user).filter(pk=pk)
            .prefetch_related("seats__player", "deals").first())


def table_match(user: Any, table_id: int) -> tuple[int | None, bool]:
    """The archived match of a table (None if it has none) and whether `user` may see it."""
    pk = ArchivedMatch.objects.filter(table_id=table_id).values_list("pk", flat=True).first()
    return pk, pk is not None and visible_matches(user).filter(pk=pk).exists()


@dataclass(frozen=True)
class ArchiveFilter:
    player: int | None = None
    name: str = ""
    club: int | None = None
    tournament: int | None = None
    date_from: date | None = None
    date_to: date | None = None
    rules_key: str = ""
    bots: str = ""
    """"" every match; "none" those without a bot; "any" those with one; a level those with a bot
    of that level."""
    game: str = ""
    """"" every game; else the matches of that game (`gameplay.engine.games`: a record's rules name
    their game, Bilka's name none)."""


def find_matches(user: Any, f: ArchiveFilter) -> QuerySet[ArchivedMatch]:
    """The visible matches that pass the filter, newest first, with what a list shows fetched in
    a fixed number of queries whatever the page size."""
    qs = visible_matches(user)
    if f.player:
        qs = qs.filter(pk__in=ArchivedSeat.objects.filter(player_id=f.player).values("match_id"))
    if f.name:
        qs = qs.filter(pk__in=_seats_named(f.name).values("match_id"))
    if f.bots:
        bots = ArchivedSeat.objects.filter(kind=SeatKind.BOT)
        if f.bots == "none":
            qs = qs.exclude(pk__in=bots.values("match_id"))
        else:
            chosen = bots if f.bots == "any" else bots.filter(bot_level=f.bots)
            qs = qs.filter(pk__in=chosen.values("match_id"))
    if f.club:
        qs = qs.filter(club_id=f.club)
    if f.tournament:
        qs = qs.filter(tournament=f.tournament)
    if f.date_from:
        qs = qs.filter(played_at__date__gte=f.date_from)
    if f.date_to:
        qs = qs.filter(played_at__date__lte=f.date_to)
    if f.rules_key:
        qs = qs.filter(rules_key=f.rules_key)
    if f.game == BILKA:
        qs = qs.filter(Q(rules__game__isnull=True) | Q(rules__game=BILKA))
    elif f.game:
        qs = qs.filter(rules__game=f.game)
    return (qs.select_related("club").prefetch_related("seats__player").defer("record")
            .order_by("-played_at", "-id"))


def _seats_named(query: str) -> QuerySet[ArchivedSeat]:
    """Seats whose name (or whose player's, in any of its spellings) has every word of the query,
    in any alphabet: the players page's search, for the seats of guests and bots too."""
    words = search_key(query).split()
    if not words:  # nothing a key keeps (signs only): the name as typed
        return ArchivedSeat.objects.filter(
            Q(name__icontains=query) | Q(player__display_name__icontains=query)
        )
    named = Q()
    for word in words:
        named &= Q(search_name__contains=word) | Q(player__search_name__contains=word)
    return ArchivedSeat.objects.filter(named)


def rule_sets(user: Any) -> list[tuple[str, dict[str, Any]]]:
    """The distinct rule sets of the visible matches, with their rules, for the archive's filter
    (two queries, however many matches)."""
    firsts = (visible_matches(user).order_by().values("rules_key").annotate(first=Min("pk"))
              .values_list("first", flat=True))
    rows = ArchivedMatch.objects.filter(pk__in=list(firsts[:50])).order_by("rules_key")
    return [(m.rules_key, m.rules) for m in rows.only("rules_key", "rules")]


def tournaments_in_archive(user: Any) -> list[tuple[int, str]]:
    """The tournaments that have visible archived matches, newest first (one query)."""
    rows = (visible_matches(user).exclude(tournament=None).order_by().values("tournament", "event_name")
            .annotate(last=Max("played_at")).order_by("-last"))
    return [(r["tournament"], r["event_name"]) for r in rows[:100]]


def _check_board_set(match: ArchivedMatch, state: Any) -> str:
    """A duplicate table's board set played to its last board: no winner, the eyes as counted."""
    if state.boards is None or state.winner is not None or state.phase != Phase.OVER:
        return "stored a board set played out, the record is not one"
    if match.winner or (match.ns_eyes, match.ew_eyes) != state.capped_score:
        ns, ew = state.capped_score
        stored = f"{match.winner or 'no winner'} NS {match.ns_eyes}:{match.ew_eyes} EW"
        return f"stored {stored}, the record counts NS {ns}:{ew} EW"
    return ""


def check_record(match: ArchivedMatch) -> str:
    """What is wrong between an archived record and the result stored from its source, or "".

    The result is never derived from the record here: a table's outcome, an organiser's entry
    are what the match says, and the record must lead to exactly that. A match lost by
    resignation, the clock or a forfeit is scored 12:0 by a tournament, so there the winner,
    the reason and its seat are compared, not the eyes."""
    try:
        state = read_game_record(match.record or {})
    except EngineError as error:
        return f"the record does not replay: {error}"
    if match.reason == "boards":
        return _check_board_set(match, state)
    if state.winner is None:
        return "the record does not finish the match"
    # Bilka for two: the sides are the players N and S (table seats 0 and 2), not pairs
    two = isinstance(state, Bilka2MatchState)
    first, second = ("N", "S") if two else ("NS", "EW")
    winner = first if state.winner == 0 else second
    end_seat = None if not state.end else state.end[1] * 2 if two else state.end[1]
    reason = state.end[0] if state.end else "eyes"
    stored = f"{match.winner} won {first} {match.ns_eyes}:{match.ew_eyes} {second} ({match.reason})"
    replayed = (f"{winner} won {first} {state.capped_score[0]}:{state.capped_score[1]} {second} ({reason}"
                f"{' ' + SEATS[end_seat] if end_seat is not None else ''})")
    if winner != match.winner or reason != match.reason:
        return f"stored {stored}, the record gives {replayed}"
    # a pair loses by either player's resignation; a player of Bilka for two by his own
    side_of = (lambda seat: seat) if two else (lambda seat: seat % 2)
    seat = match.reason_seat
    if seat is not None and end_seat is not None and side_of(end_seat) != side_of(seat):
        return f"stored {stored} against seat {SEATS[match.reason_seat]}, the record gives {replayed}"
    if reason == "eyes" and (match.ns_eyes, match.ew_eyes) != state.capped_score:
        return f"stored {stored}, the record gives {replayed}"
    return ""


@dataclass(frozen=True)
class Figure:
    """One figure of a player page and what it counts from: "records", "sheets" or "both"."""

    value: Any
    source: str


def _source(records: int, sheets: int) -> str:
    if records and sheets:
        return "both"
    return "records" if records else ("sheets" if sheets else "none")


def _not_of_game(game: str) -> Q:
    """Seats of matches of any other game than ``game`` (``rules["game"]``), Bilka for four's, which
    has none, included: a key lookup (SQLite, under ``bin/site``, has no JSON ``contains``) is NULL
    where there is no key, and its negation alone would drop those rows too."""
    return Q(match__rules__game__isnull=True) | ~Q(match__rules__game=game)


def player_figures(player: Player, user: Any) -> dict[str, Any]:
    """A player's figures over the matches `user` may see, each saying what it counts from."""
    seats = ArchivedSeat.objects.filter(player=player, match__in=visible_matches(user))
    matches = seats.aggregate(
        total=Count("id"),
        records=Count("id", filter=Q(match__has_record=True)),
        won=Count("id", filter=Q(match__winner="NS", seat__in=(0, 2))
                  | Q(match__winner="EW", seat__in=(1, 3))
                  | Q(match__winner="N", seat=0) | Q(match__winner="S", seat=2)),
    )
    sheets = matches["total"] - matches["records"]
    per_pair = []
    # Bilka for two's S (seat 2) is the second side: his figures are the deals' ew_ columns
    two_s, not_two_s = Q(seat=2, match__rules__game=BILKA2), ~Q(seat=2) | _not_of_game(BILKA2)
    for pair in (0, 1):
        chairs = Q(seat__in=(0, 2)) & not_two_s if pair == 0 else Q(seat__in=(1, 3)) | two_s
        deals = ArchivedDeal.objects.filter(match__in=seats.filter(chairs).values("match_id"))
        per_pair.append((pair, deals))
    counted = {"deals": 0, "deals_records": 0, "on_duty": 0, "won_on_duty": 0, "against": 0,
               "won_against": 0, "points": 0, "pointed": 0, "lucy": 0, "eggs": 0, "jack": 0}
    for pair, deals in per_pair:
        mine = "ns" if pair == 0 else "ew"
        played = deals.exclude(outcome__in=("redeal", "unfinished"))
        row = played.aggregate(
            deals=Count("id"),
            deals_records=Count("id", filter=Q(match__has_record=True)),
            on_duty=Count("id", filter=Q(pair_on_duty=pair)),
            won_on_duty=Count("id", filter=Q(pair_on_duty=pair, **{f"{mine}_eyes__gt": 0})),
            against=Count("id", filter=Q(pair_on_duty=1 - pair)),
            won_against=Count("id", filter=Q(pair_on_duty=1 - pair, **{f"{mine}_eyes__gt": 0})),
            points=Coalesce(Sum(f"{mine}_points"), 0),
            pointed=Count(f"{mine}_points"),
            lucy=Count("id", filter=Q(outcome="lucy", **{f"{mine}_eyes__gt": 0})),
            eggs=Count("id", filter=Q(outcome="eggs")),
        )
        for key, value in row.items():
            counted[key] += value
    counted["jack"] = _jack_deals(seats)
    deal_sheets = counted["deals"] - counted["deals_records"]
    both = _source(counted["deals_records"], deal_sheets)
    return {
        "matches": Figure(matches["total"], _source(matches["records"], sheets)),
        "won": Figure(matches["won"], _source(matches["records"], sheets)),
        "deals": Figure(counted["deals"], both),
        "won_on_duty": Figure((counted["won_on_duty"], counted["on_duty"]), both),
        "won_against": Figure((counted["won_against"], counted["against"]), both),
        "average_points": Figure(
            round(counted["points"] / counted["pointed"], 1) if counted["pointed"] else None, both),
        "lucy": Figure(counted["lucy"], both),
        "eggs": Figure(counted["eggs"], both),
        "jack": Figure((counted["jack"], counted["deals_records"]), "records"),
        "partners": partners(player, seats),
        **play_figures(seats),
    }


def play_figures(seats: QuerySet[ArchivedSeat]) -> dict[str, Any]:
    """His play against double-dummy play, over his analysed matches (archive.services.analysis):
    points lost per deal, and the share of his cards that were a best card. Bilka's matches only:
    another game's analysis (Kozyol's) judges only the last cards of a deal, so it would skew both."""
    row = SeatAnalysis.objects.filter(archived_seat__in=seats).exclude(
        archived_seat__match__rules__has_key="game").aggregate(
        matches=Count("id"), deals=Coalesce(Sum("deals"), 0), cards=Coalesce(Sum("cards"), 0),
        best=Coalesce(Sum("best_cards"), 0), lost=Coalesce(Sum("points_lost"), 0))
    return {
        "analysed": row["matches"],
        "lost_per_deal": round(row["lost"] / row["deals"], 1) if row["deals"] else None,
        "best_share": round(100 * row["best"] / row["cards"]) if row["cards"] else None,
    }


def _jack_deals(seats: QuerySet[ArchivedSeat]) -> int:
    """Deals (played, from records) in which the player held the jack of clubs."""
    total = 0
    for seat in range(4):
        total += ArchivedDeal.objects.filter(
            match__in=seats.filter(seat=seat).values("match_id"), match__has_record=True, jack_holder=seat,
        ).exclude(outcome__in=("redeal", "unfinished")).count()
    return total


def partners(player: Player, seats: QuerySet[ArchivedSeat]) -> list[dict[str, Any]]:
    """His usual partners: who sat opposite him, most matches first (bots are not partners)."""
    rows: dict[tuple[int | None, str], int] = {}
    # Bilka for two has no partners: the player across the table is the opponent
    mine = {m: s for m, s in (seats.filter(_not_of_game(BILKA2)).values_list("match_id", "seat"))}
    across = (ArchivedSeat.objects.filter(match_id__in=list(mine)).exclude(player=player)
              .exclude(kind=SeatKind.BOT).values_list("match_id", "seat", "player_id", "name"))
    for match_id, seat, pid, name in across:
        if seat % 2 == mine[match_id] % 2:
            key = (pid, name if pid is None else "")
            rows[key] = rows.get(key, 0) + 1
    names = dict(Player.objects.filter(pk__in=[k[0] for k in rows if k[0]]).values_list("pk", "display_name"))
    out = [{"player_id": pid, "name": names.get(pid, label) if pid else label, "matches": n}
           for (pid, label), n in rows.items()]
    out.sort(key=lambda r: (-r["matches"], r["name"]))
    return out[:8]


def upload_clubs(user: Any) -> QuerySet[Club]:
    """The clubs whose matches `user` may upload: those he owns or organises."""
    if user is None or not user.is_authenticated:
        return Club.objects.none()
    mine = Membership.objects.filter(user=user, role__in=ROSTER_ROLES).values("club_id")
    return Club.objects.filter(pk__in=mine).order_by("name")


def finished_state(record: dict[str, Any], *, any_game: bool = False) -> tuple[Any, str]:
    """The engine's replay of a record and why it is refused ("" if it is not): the engine's own
    line (the deal, trick, seat and card at fault), or a match that has no winner yet. Bilka's
    records only, unless `any_game` (a tournament of Kozyol attaches Kozyol's records)."""
    try:
        state = read_game_record(record) if any_game else read_record(record)
    except RecordError as error:
        return None, _engine_line(error)
    except EngineError as error:
        return None, str(error)
    if state.winner is None:
        return None, _("The match is not finished: only the record of a match with a winner is taken.")
    return state, ""


def _engine_line(error: RecordError) -> str:
    """The engine's line with its place (deal, trick) in the reader's language, so an organiser
    finds the spot on the paper sheet; the engine's own reason follows as it wrote it."""
    if error.deal is None:
        return str(error)
    if error.trick is None:
        return _("deal %(deal)d: %(reason)s") % {"deal": error.deal, "reason": error.reason}
    return _("deal %(deal)d, trick %(trick)d: %(reason)s") % {
        "deal": error.deal, "trick": error.trick, "reason": error.reason}


def same_name(a: str, b: str) -> bool:
    """Two names typed by people are one when they read the same: they differ only in case,
    spaces, invisible characters or look-alike letters of another script (``clubs.text``)."""
    return text.same_name(a, b)


def seat_name(seat: ArchivedSeat) -> str:
    """A seat's name as the reader reads it: a bot by its seat in his language, a player by the
    name his club keeps now, a guest by the name he sat down with."""
    if seat.kind == SeatKind.BOT:
        level = BotLevel(seat.bot_level).label if seat.bot_level in BotLevel.values else ""
        return f"{bot_name(seat.seat)} ({level})" if level else bot_name(seat.seat)
    return seat.player.display_name if seat.player is not None else seat.name


def match_row(match: ArchivedMatch) -> dict[str, Any]:
    """What a list shows of a match (its seats prefetched)."""
    seats = sorted(match.seats.all(), key=lambda s: s.seat)
    names: dict[int, list[str]] = {0: [], 1: []}
    two = (match.rules or {}).get("game") == BILKA2  # sides N (seat 0) and S (seat 2), no pairs
    for s in seats:
        names[s.seat // 2 if two else s.seat % 2].append(seat_name(s))
    return {
        "match": match,
        "ns": " & ".join(names[0]),
        "ew": " & ".join(names[1]),
        "two": two,
        "players": {s.seat: s for s in seats},
        "seat_rows": [{"seat": s.seat, "name": seat_name(s), "kind": s.kind, "player": s.player}
                      for s in seats],
    }


#: How many of a player's casual games his matches page lists (the archive has the rest).
MY_CASUAL = 10


def my_casual_matches(user: Any) -> list[dict[str, Any]]:
    """The latest casual games (live tables, not tournaments) the user sat in, as list rows."""
    if not user.is_authenticated:
        return []
    mine = ArchivedMatch.objects.filter(pk__in=seated_matches(user), tournament_match=None, source="table")
    matches = (mine
               .select_related("club").prefetch_related("seats__player").defer("record")
               .order_by("-played_at", "-id")[:MY_CASUAL])
    return [match_row(m) for m in matches]


def sat_in(match: ArchivedMatch, user: Any) -> bool:
    """Whether the signed-in user sat at the match (by his account or his player record); reads
    the match's seats with their players (prefetched by ``visible_match``)."""
    if not user.is_authenticated:
        return False
    return any(s.user_id == user.pk or (s.player is not None and s.player.user_id == user.pk)
               for s in match.seats.all())


def against_bots(match: ArchivedMatch) -> bool:
    """A casual game (a live table, not a tournament's) with a bot at the table: its players decide
    whether everyone may see it."""
    return (match.source == "table" and match.tournament_match is None
            and any(s.kind == SeatKind.BOT for s in match.seats.all()))


def may_share(match: ArchivedMatch, user: Any) -> bool:
    """Whether the user may show this game to everyone, or hide it again (``services.share_casual_match``)."""
    return sat_in(match, user) and against_bots(match)
