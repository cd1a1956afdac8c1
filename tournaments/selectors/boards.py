"""A duplicate event's boards as its pages show them: the list, each board's traveller, the hand records.

The one visibility rule: a board's results and hands reach the public only once every table the
movement gives the board has a result on it (``Board.complete``); before that only the event's
organisers see them, so a table that has not played the board learns nothing of it.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction

from django.urls import reverse
from django.utils.translation import pgettext

from gameplay.engine.boards import board_dealer, board_hands, set_seat_suits
from gameplay.engine.cards import JACK_RANK, SEATS, hand_sort_key, mask_cards
from gameplay.engine.errors import RecordError
from gameplay.engine.record import read_hands
from gameplay.engine.rules import Rules
from gameplay.engine.shuffle import commitment_of
from gameplay.models import Table, TableStatus

from ..core import duplicate as core
from ..formats import format_of
from ..formats.duplicate import deal_key, event_results, event_seed, movement_of, set_boards, table_results
from ..models import BoardPar, BoardResult, Match, Tournament, TournamentStatus

ONLINE = "online"  # a board result a live table gave (``services.online_boards``)
SUIT_SIGNS = {0: "♣", 1: "♦", 2: "♥", 3: "♠"}
RANK_SHOWN = {"T": "10"}
ADJUSTED_SHORT = {"plus": "60%", "average": "50%", "minus": "40%"}
SUIT_ORDER = (3, 2, 1, 0)  # spades, hearts, diamonds, clubs: the order a hand record reads


@dataclass
class Hand:
    seat: str
    jacks: list[str]
    suits: list[tuple[str, str, list[str]]]  # (sign, colour class, ranks high to low)
    count: int
    suit: str = ""
    """The seat's suit for the board's set (its trump when it holds the jack of clubs)."""


@dataclass
class TableLine:
    table: int
    round: int
    ns: object
    ew: object
    ns_points: int | None
    adjusted: tuple[str, str] | None
    ns_percent: Fraction | None = None
    ew_percent: Fraction | None = None
    ns_mp: Fraction | None = None
    ew_mp: Fraction | None = None
    replay: str = ""
    """The replay of the live table that played the board, at the board (a board played online)."""
    adjusted_short: tuple[str, str] | None = None
    """The adjusted scores as percentages ("60%", "40%"), for a narrow column; ``adjusted`` words them."""
    par_gap: int | None = None
    """NS's card points less the board's par (EW's gap is the opposite): how far from best play."""


@dataclass
class Board:
    number: int
    to_play: int
    played: int
    dealer: str = ""
    hands: list[Hand] = field(default_factory=list)
    lines: list[TableLine] = field(default_factory=list)
    top: int = 0
    par: int | None = None
    """NS's card points with best play by all four (None: not worked out yet)."""

    @property
    def par_ew(self) -> int | None:
        return None if self.par is None else 120 - self.par

    @property
    def complete(self) -> bool:
        return self.to_play > 0 and self.played >= self.to_play


def _plays(tournament: Tournament) -> dict[int, int]:
    """How many tables play each board (the format's: the whole movement, or an individual event's
    tables round by round)."""
    return format_of(tournament).board_plays()  # type: ignore[attr-defined]


def board_list(*, tournament: Tournament) -> list[Board]:
    """Every board of the event with how many tables play it and how many have."""
    played: dict[int, int] = defaultdict(int)
    for b in BoardResult.objects.filter(match__tournament=tournament).values_list("board", flat=True):
        played[b] += 1
    return [Board(number=b, to_play=n, played=played[b]) for b, n in sorted(_plays(tournament).items())]


def _card(card: int) -> str:
    """A card's rank as the reader's language writes it (the picture cards' letters are translated)."""
    rank = "6789TJQKA"[card % 9]
    return pgettext("card rank", rank) if rank in "JQKA" else RANK_SHOWN.get(rank, rank)


def hands_of(tournament: Tournament, number: int) -> list[Hand]:
    """The four hands of board ``number`` (N E S W), by suit, with each seat's suit for its set."""
    seed = event_seed(tournament)
    if seed is None:
        return []
    deck = Rules.from_json(tournament.rules or {}).deck
    per = tournament.boards_per_round
    first = (number - 1) // per * per + 1
    direction = Rules.from_json(tournament.rules or {}).direction
    suits = set_seat_suits(board_hands(seed, first, deck), direction)
    hands = []
    for seat, mask in zip(SEATS, board_hands(seed, number, deck), strict=True):
        cards = sorted(mask_cards(mask), key=hand_sort_key)
        jacks = [_card(c) + SUIT_SIGNS[c // 9] for c in cards if c % 9 == JACK_RANK]
        by_suit = [
            (SUIT_SIGNS[s], "red" if s in (1, 2) else "black",
             [_card(c) for c in cards if c // 9 == s and c % 9 != JACK_RANK])
            for s in SUIT_ORDER
        ]  # fmt: skip
        hands.append(Hand(seat, jacks, by_suit, len(cards), SUIT_SIGNS[suits[SEATS.index(seat)]]))
    return hands


def traveller(*, tournament: Tournament, number: int) -> Board | None:
    """Board ``number`` with every table's result on it, matchpoints and percentages, and its hands
    (None: the event has no such board). Whether it may be shown is the caller's (``complete``)."""
    plays = _plays(tournament)
    if number not in plays:
        return None
    rows = [r for r in event_results(tournament) if r.board == number]
    matches = {r.match_id: r.match for r in rows}
    scores = core.score_boards(table_results(tournament, event_results(tournament))).get(number, [])
    by_pair = {(s.pair, s.direction): s for s in scores}
    entries = {e.pk: e for e in tournament.entries.filter(
        pk__in={m.home_id for m in matches.values()} | {m.away_id for m in matches.values()})}
    lines = []
    for r in sorted(rows, key=lambda r: (matches[r.match_id].table, r.match_id)):
        m = matches[r.match_id]
        ns, ew = by_pair.get((m.home_id, core.NS)), by_pair.get((m.away_id, core.EW))
        lines.append(TableLine(
            table=m.table, round=0, ns=entries.get(m.home_id), ew=entries.get(m.away_id),
            ns_points=r.ns_points, adjusted=(r.get_ns_adjusted_display(), r.get_ew_adjusted_display())
            if r.ns_points is None else None,
            ns_percent=ns.percent if ns else None, ew_percent=ew.percent if ew else None,
            ns_mp=ns.matchpoints if ns else None, ew_mp=ew.matchpoints if ew else None,
            replay=board_replay_url(tournament, m, number) if r.entered_how == ONLINE else "",
            adjusted_short=(ADJUSTED_SHORT.get(r.ns_adjusted, ""), ADJUSTED_SHORT.get(r.ew_adjusted, ""))
            if r.ns_points is None else None,
        ))  # fmt: skip
    board = Board(number=number, to_play=plays[number], played=len(rows), lines=lines,
                  top=scores[0].top if scores else 0, par=board_par(tournament, number))
    if board.par is not None:
        for line in lines:
            line.par_gap = None if line.ns_points is None else line.ns_points - board.par
    board.dealer = SEATS[board_dealer(number)]
    board.hands = hands_of(tournament, number)
    return board


def board_replay_url(tournament: Tournament, match, number: int) -> str:
    """The address of the replay of ``match``'s live table at board ``number`` (its deal in the set);
    "" for a match without a live table."""
    if match.live_table is None:
        return ""
    deal = list(set_boards(tournament, match.slot)).index(number) + 1
    url = reverse("tournaments:board_replay",
                  kwargs={"slug": tournament.slug, "number": number, "pk": match.pk})
    return f"{url}?deal={deal}"


def set_complete(*, tournament: Tournament, match) -> bool:
    """Whether every board of ``match``'s set has a result at every table the movement gives it, so
    the whole set may be shown (a table's replay holds all of its set's boards)."""
    plays = _plays(tournament)
    done: dict[int, int] = defaultdict(int)
    numbers = set(set_boards(tournament, match.slot))
    for board in BoardResult.objects.filter(match__tournament=tournament, board__in=numbers).values_list(
        "board", flat=True
    ):
        done[board] += 1
    return all(done[n] >= plays.get(n, 0) for n in numbers)


def board_replay_record(*, tournament: Tournament, match) -> dict | None:
    """The record of the live table whose boards ``match`` took (None: none, or not finished)."""
    if match.live_table is None or match.reported_side != "table":
        return None
    table = Table.objects.filter(pk=match.live_table, status=TableStatus.FINISHED).first()
    if table is None or not table.record or not table.boards:
        return None
    return table.record


def board_par(tournament: Tournament, number: int) -> int | None:
    """The board's par as kept for the deal the event gives it now (None: still being worked out)."""
    return (BoardPar.objects.filter(tournament=tournament, board=number, deal_key=deal_key(tournament))
            .values_list("ns_points", flat=True).first())


def hand_records(*, tournament: Tournament) -> list[Board]:
    """Every board of the event with its dealer and hands, for the tables to deal from."""
    out = []
    for b in sorted(_plays(tournament)):
        board = Board(number=b, to_play=0, played=0, dealer=SEATS[board_dealer(b)])
        board.hands = hands_of(tournament, b)
        out.append(board)
    return out


@dataclass
class PairCard:
    """A pair's card for the whole movement: its number (the seed), name and every round's line."""

    number: int
    entry: object
    lines: list[core.CardLine]


def pair_cards(*, tournament: Tournament) -> list[PairCard]:
    """Each pair's table card ("round 3: table 5, EW, boards 9-12, against pair 4"), from the
    event's movement over its seeded pairs (none before round 1 fixes the seeds)."""
    field = format_of(tournament).field()
    if len(field) < 4 or tournament.is_individual:  # a player's seats are on the round's pages
        return []
    cards = core.table_cards(movement_of(tournament, len(field)), tournament.boards_per_round)
    return [PairCard(number, field[number - 1], lines) for number, lines in cards.items()]


@dataclass
class LiveLine:
    """One pair's line on the hall screen: its place, its average percentage over the finished boards
    it played (or was adjusted on), and how many those are."""

    place: int
    shared: bool
    entry: object
    percent: Fraction
    boards: int


def finished_boards(*, tournament: Tournament) -> set[int]:
    """The boards every table the movement gives them has a result on: no table is still to play
    them, so their results may be shown (the traveller's rule, ``Board.complete``)."""
    return {b.number for b in board_list(tournament=tournament) if b.complete}


def live_percentages(*, tournament: Tournament) -> list[LiveLine]:
    """The running standings as the results come in, as a scoring terminal shows them in the hall:
    each pair's (each player's, in an individual event) average percentage over the finished boards
    only, so that no result of a board still in play reaches a table yet to play it (the format's
    ``running_scores``). Those with the same percentage share a place."""
    fmt = format_of(tournament)
    scores, boards = fmt.running_scores(finished_only=True)  # type: ignore[attr-defined]
    if not scores:
        return []
    entries = {e.pk: e for e in fmt.entry_rows().filter(pk__in=scores.keys())}
    order = sorted(scores, key=lambda pk: (-scores[pk], getattr(entries.get(pk), "seed", 0), pk))
    lines: list[LiveLine] = []
    for i, pk in enumerate(order):
        place = lines[-1].place if i and scores[order[i - 1]] == scores[pk] else i + 1
        shared = sum(1 for other in order if scores[other] == scores[pk]) > 1
        lines.append(LiveLine(place, shared, entries.get(pk), scores[pk], boards[pk]))
    return lines


@dataclass
class TableCheck:
    """One online table of a finished duplicate event: each board its record holds, and whether its
    hands are the ones the revealed seed deals (``bilka-board/1``)."""

    match: object
    boards: list[tuple[int, bool]]

    @property
    def ok(self) -> bool:
        return all(ok for _n, ok in self.boards)


def seed_check(*, tournament: Tournament) -> list[TableCheck] | None:
    """Once the event is finished and its seed revealed: every online table's boards, dealt again
    from the seed and compared with the hands its record holds (the record's commitment must be the
    seed's too). None before that: the seed is secret while any board may still be played."""
    if tournament.status != TournamentStatus.FINISHED or not tournament.board_seed:
        return None
    seed = bytes.fromhex(tournament.board_seed)
    deck = Rules.from_json(tournament.rules or {}).deck
    rows = []
    matches = list(Match.objects.filter(tournament=tournament, bye=False, live_table__isnull=False)
                   .select_related("round", "home", "away").order_by("round__number", "table"))
    # the finished tables in one query, and each board dealt from the seed once, not once per table
    finished = {t.pk: t.record for t in Table.objects.filter(
        pk__in=[m.live_table for m in matches if m.reported_side == "table"], status=TableStatus.FINISHED,
        boards__isnull=False).only("pk", "record") if t.record}
    dealt: dict[int, list[int]] = {}
    for match in matches:
        record = finished.get(match.live_table) if match.reported_side == "table" else None
        if record is None:
            continue
        committed = (record.get("duplicate") or {}).get("commitment") == commitment_of(seed)
        boards = []
        for number, deal in enumerate(record.get("deals") or [], start=1):
            board = deal.get("board")
            try:
                if committed and int(board) not in dealt:
                    dealt[int(board)] = list(board_hands(seed, int(board), deck))
                same = committed and read_hands(deal, number) == dealt[int(board)]
            except (RecordError, TypeError, ValueError):
                same = False
            boards.append((board, same))
        rows.append(TableCheck(match, boards))
    return rows
