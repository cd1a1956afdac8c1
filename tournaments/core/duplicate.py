"""Duplicate Bilka: boards scored by matchpoints, and the movements that seat the pairs (pure).

docs/duplicate.md writes the form down with a worked example. In short:

- A **board** is a fixed deal. At each table that plays it, its result is the card points NS took
  (0-120), or, when the organiser chooses eyes, the eyes the deal opens by the duty rule (NS minus
  EW; see `board_value`).
- **Matchpoints** (bridge's): on each board a pair's result is compared with every other pair that
  sat the same direction with the same cards: 2 for each it beat, 1 for each tie. The top is
  ``2 (n - 1)`` for ``n`` results. A board played fewer times than the most played board is
  brought to that scale by the Neuberg formula (the World Bridge Federation's Code of Practice,
  "the standard correction"): ``MP' = (MP + 1) * N / n - 1``, ``N`` the largest count, ``n`` the
  board's. Percentages are of the (corrected) top.
- A table that could not play a board gets an **adjusted score**: average plus 60 % to a pair not at
  fault, average minus 40 % to one at fault (the ACBL's and EBU's customary values).
- A pair's **event score** is the mean of its percentages over the boards it played or was
  adjusted on. In an individual event each player gets his side's percentage on every board he
  played (``sides``), and his score is their mean.

Movements (`mitchell`, `howell`) return one `Seat` per table and round; `table_cards` turns them into
each pair's card ("round 3: table 5, EW, boards 9-12, against pair 4").
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from gameplay.engine.cards import deck_cards
from gameplay.engine.rules import Rules
from gameplay.engine.scoring import score_deal

NS, EW = "NS", "EW"
#: Average plus and average minus, in percent of the top.
AVERAGE_PLUS = Fraction(60)
AVERAGE_MINUS = Fraction(40)


# --- a board's result -------------------------------------------------------------------------------

def board_value(ns_points: int, *, scale: str, rules: Rules | None = None, ns_on_duty: bool = True,
                ns_tricks: int | None = None) -> int:
    """The number a table's result on a board is compared by, from NS's side (higher is better for
    NS): the card points NS took (``scale="points"``), or the eyes the deal opens, NS's minus EW's,
    by the duty rule and the rout and Lucy rules of ``rules`` (``scale="eyes"``; eggs are 0)."""
    if not 0 <= ns_points <= 120:
        raise ValueError(f"a board's NS card points are 0 to 120, not {ns_points}")
    if scale == "points":
        return ns_points
    if scale != "eyes" or rules is None:
        raise ValueError(f"a board is scored by points or eyes (with the rules), not {scale!r}")
    every = len_tricks(rules)
    if ns_tricks is not None:
        tricks = (ns_tricks, every - ns_tricks)
    else:  # unknown: every trick only with every card point (Lucy by tricks needs them known)
        tricks = (every, 0) if ns_points == 120 else ((0, every) if ns_points == 0 else (1, every - 1))
    deal = score_deal(rules, (ns_points, 120 - ns_points), tricks, 0 if ns_on_duty else 1, 0, False, (0, 0))
    return deal.eyes[0] - deal.eyes[1]


def len_tricks(rules: Rules) -> int:
    """Tricks in a deal of these rules: a quarter of the deck."""
    return len(deck_cards(rules.deck)) // 4


# --- matchpoints ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class BoardScore:
    """One pair's score on one board: matchpoints on the board's own top, the top, and the
    percentage after the Neuberg correction to the event's largest count."""

    pair: int
    direction: str
    matchpoints: Fraction
    top: int
    percent: Fraction
    adjusted: bool = False


def matchpoints(ns_values: Mapping[int, int]) -> dict[int, Fraction]:
    """Matchpoints of each result among those of one direction on one board: 2 for each result it
    beat, 1 for each tie. ``ns_values``: table (or any key) -> value from NS's side."""
    values = list(ns_values.values())
    return {key: Fraction(2 * sum(v < mine for v in values) + sum(v == mine for v in values) - 1)
            for key, mine in ns_values.items()}


def neuberg(mp: Fraction, played: int, most: int) -> Fraction:
    """Matchpoints of a board played ``played`` times brought to the scale of one played ``most``
    times (2 per result beaten): ``(MP + 1) * most / played - 1``."""
    if played < 1 or most < played:
        raise ValueError("a board is played at least once and at most as often as the most played")
    return (mp + 1) * Fraction(most, played) - 1


@dataclass(frozen=True)
class TableResult:
    """A table's result on a board: the NS and EW pairs and the value from NS's side, or an
    adjusted score (``value`` None) with each side's share: "plus", "average" or "minus"."""

    board: int
    ns: int
    ew: int
    value: int | None
    adjusted: tuple[str, str] | None = None


_ADJUSTED = {"plus": AVERAGE_PLUS, "average": Fraction(50), "minus": AVERAGE_MINUS}


def score_boards(results: Iterable[TableResult]) -> dict[int, list[BoardScore]]:
    """Every pair's score on every board, from all tables' results (a board's adjusted scores
    take no part in its comparison). The top of the most played board is the event's scale."""
    by_board: dict[int, list[TableResult]] = defaultdict(list)
    for r in results:
        by_board[r.board].append(r)
    most = max((sum(r.value is not None for r in rs) for rs in by_board.values()), default=0)
    out: dict[int, list[BoardScore]] = {}
    for board, rs in sorted(by_board.items()):
        played = [r for r in rs if r.value is not None]
        ns_mp = matchpoints({i: r.value for i, r in enumerate(played) if r.value is not None})
        n = len(played)
        top = 2 * (most - 1)
        scores: list[BoardScore] = []
        for i, r in enumerate(played):
            if n == 1:  # nobody to compare with: an average for both
                ns_pct = Fraction(50)
                mp = Fraction(0)
            else:
                mp = neuberg(ns_mp[i], n, most)
                ns_pct = mp / top * 100
            scores.append(BoardScore(r.ns, NS, mp, top, ns_pct))
            scores.append(BoardScore(r.ew, EW, top - mp if n > 1 else Fraction(0), top, 100 - ns_pct))
        for r in rs:
            if r.value is None:
                ns_share, ew_share = r.adjusted or ("average", "average")
                for pair, direction, share in ((r.ns, NS, ns_share), (r.ew, EW, ew_share)):
                    pct = _ADJUSTED[share]
                    scores.append(BoardScore(pair, direction, pct * top / 100, top, pct, adjusted=True))
        out[board] = scores
    return out


Sides = Mapping[int, Sequence[int]]
"""An individual event's sides: each side's (a partnership of one table) two players. A pair
event passes none: there the side is the pair."""


def percentages(results: Iterable[TableResult], sides: Sides | None = None,
                absent: Mapping[int, Collection[int]] | None = None) -> dict[int, list[Fraction]]:
    """Each pair's percentages, one for each board it played or was adjusted on; with ``sides``
    each player's instead: on every board he gets his side's percentage. ``absent``: a side's
    players who left its table unplayed (a withdrawal); on its adjusted boards the side's other
    player, not at fault, gets average plus, as his opponents do."""
    out: dict[int, list[Fraction]] = defaultdict(list)
    for scores in score_boards(results).values():
        for s in scores:
            gone = (absent or {}).get(s.pair, ())
            for who in (sides.get(s.pair, ()) if sides is not None else (s.pair,)):
                out[who].append(AVERAGE_PLUS if s.adjusted and gone and who not in gone else s.percent)
    return dict(out)


def event_scores(results: Iterable[TableResult], sides: Sides | None = None,
                 absent: Mapping[int, Collection[int]] | None = None) -> dict[int, Fraction]:
    """Each pair's event score (each player's, with ``sides``): the mean of its percentages over
    its boards. A player who sat a round out has no boards in it, so it neither helps nor harms."""
    return {who: sum(pcts, Fraction(0)) / len(pcts)
            for who, pcts in percentages(results, sides, absent).items()}


def finished(results: Iterable[TableResult], plays: Mapping[int, int]) -> set[int]:
    """The boards with a result at every table that plays them (``plays``: board -> tables): no
    table is still to play them, so their results may be shown and counted while the event runs."""
    done: dict[int, int] = defaultdict(int)
    for r in results:
        done[r.board] += 1
    return {b for b, n in plays.items() if n > 0 and done[b] >= n}


# --- movements -------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Seat:
    """Who plays what at one table in one round (rounds, tables, sets and pairs from 1): the NS
    pair and the EW pair (None: that side sits out, so the table does not play), and the set of
    boards."""

    round: int
    table: int
    ns: int | None
    ew: int | None
    set: int

    def boards(self, per_set: int) -> range:
        return range((self.set - 1) * per_set + 1, self.set * per_set + 1)


def mitchell(pairs: int, rounds: int | None = None) -> list[Seat]:
    """A Mitchell movement: NS pairs 1..T stay at their tables, EW pairs T+1..2T move up a table each
    round and the sets move down one. With T odd the EW pairs meet every NS pair and every set once
    in T rounds; with T even they would meet a set again after T/2 rounds, so they skip a table
    there (the skip Mitchell), for at most T - 1 rounds. An odd number of pairs gets a phantom EW
    pair: the table it visits sits out that round."""
    if pairs < 4:
        raise ValueError("a Mitchell needs at least four pairs (two tables)")
    tables = (pairs + 1) // 2
    most = tables if tables % 2 else tables - 1
    rounds = most if rounds is None else rounds
    if not 1 <= rounds <= most:
        raise ValueError(f"a Mitchell of {tables} tables has 1 to {most} rounds")
    seats: list[Seat] = []
    for r in range(rounds):
        for e in range(tables):
            skip = 1 if tables % 2 == 0 and r >= tables // 2 else 0
            t = (e + r + skip) % tables
            ew = tables + 1 + e
            seats.append(Seat(r + 1, t + 1, t + 1, ew if ew <= pairs else None, (t + r) % tables + 1))
    return sorted(seats, key=lambda s: (s.round, s.table))


def howell(pairs: int, rounds: int | None = None) -> list[Seat]:
    """Every pair meets a new pair each round, as many as the rounds allow (the circle method of a
    round robin, n - 1 rounds for n pairs, a phantom where n is odd), and every table of a round
    plays the same set, one set a round: so no pair plays a board twice, every board is played by
    every pair that is not sitting out (the same number of times), and every result on a board is
    compared with all the others. Over the board each table deals from the printed hand records.
    Directions alternate so that each pair sits NS about half the time."""
    if pairs < 4:
        raise ValueError("a duplicate event needs at least four pairs")
    n = pairs + pairs % 2
    most = n - 1
    rounds = most if rounds is None else rounds
    if not 1 <= rounds <= most:
        raise ValueError(f"{pairs} pairs meet each other in at most {most} rounds")
    ring = list(range(2, n + 1))  # pair 1 stays, the others turn
    seats: list[Seat] = []
    for r in range(rounds):
        order = [1, *ring]
        meetings = [(order[i], order[n - 1 - i]) for i in range(n // 2)]
        table = 0
        sitting: list[int] = []
        for k, (a, b) in enumerate(meetings):
            # A pair moves one place along the ring a round, so "the even place sits NS" alternates
            # its direction (once in a lap it sits the same way twice); pair 1 stays at place 0 and
            # alternates by the round.
            a_ns = r % 2 == 0 if k == 0 else k % 2 == 0
            first, second = (a, b) if a_ns else (b, a)
            if max(a, b) > pairs:  # the phantom: its opponent sits out
                sitting.append(min(a, b))
                continue
            table += 1
            seats.append(Seat(r + 1, table, first, second, r + 1))
        for idle in sitting:
            seats.append(Seat(r + 1, 0, idle, None, r + 1))  # table 0: sits out
        ring = ring[-1:] + ring[:-1]
    return sorted(seats, key=lambda s: (s.round, s.table))


def check_movement(seats: Sequence[Seat]) -> dict[int, int]:
    """Raise ValueError if a pair plays a set twice, meets a pair twice or sits twice in a round;
    otherwise how many times each set is played (at tables with both pairs)."""
    played: dict[int, set[int]] = defaultdict(set)
    met: set[frozenset[int]] = set()
    in_round: set[tuple[int, int]] = set()
    counts: dict[int, int] = defaultdict(int)
    for s in seats:
        pairs = [p for p in (s.ns, s.ew) if p is not None]
        for p in pairs:
            if (s.round, p) in in_round:
                raise ValueError(f"pair {p} has two seats in round {s.round}")
            in_round.add((s.round, p))
        if len(pairs) < 2:
            continue
        meeting = frozenset(pairs)
        if meeting in met:
            raise ValueError(f"pairs {sorted(meeting)} meet twice")
        met.add(meeting)
        for p in pairs:
            if s.set in played[p]:
                raise ValueError(f"pair {p} plays set {s.set} twice")
            played[p].add(s.set)
        counts[s.set] += 1
    return dict(counts)


@dataclass(frozen=True)
class CardLine:
    """One line of a pair's table card: its round, table, direction, boards and opponent (None
    with table 0: it sits out that round)."""

    round: int
    table: int
    direction: str | None
    boards: range
    against: int | None


def table_cards(seats: Sequence[Seat], per_set: int) -> dict[int, list[CardLine]]:
    """Each pair's card: where it sits and what it plays in every round."""
    cards: dict[int, list[CardLine]] = defaultdict(list)
    for s in seats:
        playing = s.ns is not None and s.ew is not None
        for pair, direction, other in ((s.ns, NS, s.ew), (s.ew, EW, s.ns)):
            if pair is None:
                continue
            if playing:
                cards[pair].append(CardLine(s.round, s.table, direction, s.boards(per_set), other))
            else:
                cards[pair].append(CardLine(s.round, 0, None, range(0), None))
    return {p: sorted(lines, key=lambda c: c.round) for p, lines in sorted(cards.items())}
