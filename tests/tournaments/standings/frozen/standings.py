"""The standings as they were before requested byes (a frozen copy of ``tournaments.core.standings``):
what every existing event's table must stay. Do not edit it to follow the site's code."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

from tournaments.core.ids import EntryId
from tournaments.core.seating import Pair, PlayerId, Table

from .tiebreaks import (
    INDIVIDUAL_TIEBREAKS,
    ROUND_ROBIN_TIEBREAKS,
    SWISS_TIEBREAKS,
    Buchholz,
    SonnebornBerger,
    Tiebreak,
    VirtualOpponents,
    rank,
    shown,
)

__all__ = [
    "INDIVIDUAL_TIEBREAKS",
    "ROUND_ROBIN_TIEBREAKS",
    "SWISS_TIEBREAKS",
    "MatchPoints",
    "MatchResult",
    "StandingRow",
    "Tally",
    "TableResult",
    "Tiebreak",
    "compute_standings",
    "individual_standings",
]


@dataclass(frozen=True)
class MatchPoints:
    """Match points per result (win 1, loss 0, bye 1 by default). No draws in Bilka."""

    win: int = 1
    loss: int = 0
    bye: int = 1
    forfeit_loss: int = 0
    forfeit_eyes_count: bool = True
    """A forfeit is entered as 12:0. True: those eyes count in eye tiebreaks like any result;
    False: a forfeit counts for match points only, like a bye."""


@dataclass(frozen=True)
class MatchResult:
    """One confirmed result between two pairs, or a bye (``bye=True``, ``away=None``; its eyes are ignored).

    ``home_lucy`` / ``away_lucy`` count the Lucy deals of each pair where the score sheet was
    kept deal by deal; ``None`` means not known (counts as 0).
    """

    home: EntryId
    away: EntryId | None
    home_eyes: int = 0
    away_eyes: int = 0
    winner: EntryId | None = None
    home_lucy: int | None = None
    away_lucy: int | None = None
    bye: bool = False
    forfeit: bool = False
    round: int = 0
    """The round number (from 1): a bye's virtual opponent starts with the pair's points before it."""

    def __post_init__(self) -> None:
        if self.bye:
            if self.away is not None or self.winner not in (None, self.home) or self.forfeit:
                raise ValueError(f"a bye has one entry ({self.home}) and no opponent, result or forfeit")
            return
        if self.away is None or self.away == self.home:
            raise ValueError(f"a match needs two different entries, not {self.home} and {self.away}")
        if self.winner not in (self.home, self.away):
            raise ValueError(f"the winner {self.winner} is not one of {self.home} and {self.away}")
        if not (0 <= self.home_eyes <= 12 and 0 <= self.away_eyes <= 12):
            raise ValueError(f"eyes run from 0 to 12, not {self.home_eyes}:{self.away_eyes}")
        winner_eyes, loser_eyes = (
            (self.home_eyes, self.away_eyes) if self.winner == self.home else (self.away_eyes, self.home_eyes)
        )
        if winner_eyes <= loser_eyes:
            raise ValueError(f"the winner has fewer eyes than the loser ({self.home_eyes}:{self.away_eyes})")
        for lucy in (self.home_lucy, self.away_lucy):
            if lucy is not None and lucy < 0:
                raise ValueError("a Lucy count cannot be negative")


@dataclass(frozen=True)
class TableResult:
    """One table of an individual event: the pairs' final eyes and the winning pair, or a forfeit.

    ``absent`` names players who did not show: then the table is not played, every present
    player at it is scored a win and each absentee a forfeit loss (a no-show's partner is scored
    a win and the absentee a forfeit; the opponents of an absentee win too, as in any forfeit).
    Eyes and winner are ignored for such a table.
    """

    table: Table
    ns_eyes: int = 0
    ew_eyes: int = 0
    winner: Pair | None = None
    absent: frozenset[PlayerId] = frozenset()
    round: int = 0

    def __post_init__(self) -> None:
        if not self.absent <= set(self.table.players):
            raise ValueError("an absentee must be seated at the table")
        if self.absent:
            return
        if self.winner is None:
            raise ValueError("a played table needs a winning pair")
        if not (0 <= self.ns_eyes <= 12 and 0 <= self.ew_eyes <= 12):
            raise ValueError(f"eyes run from 0 to 12, not {self.ns_eyes}:{self.ew_eyes}")
        if (self.ns_eyes > self.ew_eyes) != (self.winner == "NS") or self.ns_eyes == self.ew_eyes:
            raise ValueError(
                f"the winner {self.winner} does not have more eyes ({self.ns_eyes}:{self.ew_eyes})"
            )


@dataclass
class Tally:
    """Everything the standings and the tiebreaks need of one entry (a pair, or a player)."""

    match_points: int = 0
    played: int = 0
    wins: int = 0
    losses: int = 0
    byes: int = 0
    forfeits: int = 0
    eyes_for: int = 0
    eyes_against: int = 0
    lucy: int = 0
    bye_rounds: list[int] = field(default_factory=list)
    """The round of each bye, once per virtual opponent it stands for (two for a player's bye: a
    table has two opponents); see ``tiebreaks.VirtualOpponents``."""
    points_by_round: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    """Match points scored in each round (byes included), for the virtual opponents' start."""
    opponents: list[EntryId] = field(default_factory=list)
    beaten: list[EntryId] = field(default_factory=list)
    mutual: dict[EntryId, int] = field(default_factory=lambda: defaultdict(int))
    """Match points scored against each opponent met (head-to-head)."""

    def bye(self, config: MatchPoints, *, round: int, opponents: int) -> None:
        """A round sat out, scored ``config.bye``; it stands for ``opponents`` virtual opponents."""
        self.byes += 1
        self.match_points += config.bye
        self.points_by_round[round] += config.bye
        self.bye_rounds.extend([round] * opponents)

    def meet(self, opponents: Sequence[EntryId], eyes: tuple[int, int] | None) -> None:
        """A played (or forfeited) match against ``opponents``; ``eyes`` (for, against) when they count."""
        self.played += 1
        self.opponents.extend(opponents)
        if eyes is not None:
            self.eyes_for += eyes[0]
            self.eyes_against += eyes[1]

    def won(self, config: MatchPoints, beaten: Sequence[EntryId] = (), *, round: int = 0) -> None:
        self.wins += 1
        self.match_points += config.win
        self.points_by_round[round] += config.win
        self.beaten.extend(beaten)
        for o in beaten:
            self.mutual[o] += config.win

    def lost(
        self, config: MatchPoints, *, forfeit: bool, winners: Sequence[EntryId] = (), round: int = 0
    ) -> None:
        points = config.forfeit_loss if forfeit else config.loss
        self.losses += 1
        self.forfeits += forfeit
        self.match_points += points
        self.points_by_round[round] += points
        for o in winners:
            self.mutual[o] += points


@dataclass(frozen=True)
class StandingRow:
    """One line of the table. ``place`` is shared (``shared=True``) when everything ties."""

    place: int
    shared: bool
    entry: EntryId
    match_points: int
    played: int
    wins: int
    losses: int
    byes: int
    eyes_for: int
    eyes_against: int
    buchholz: int | float
    """Whole, or a half where a virtual opponent drew (``tiebreaks.VirtualOpponents``)."""
    sonneborn_berger: int | float
    lucy: int
    withdrawn: bool
    forfeits: int = 0

    @property
    def eye_difference(self) -> int:
        return self.eyes_for - self.eyes_against

    @property
    def player(self) -> PlayerId:
        """In an individual event each entry is one player."""
        return self.entry


TALLIED = ("match_points", "played", "wins", "losses", "byes", "eyes_for", "eyes_against", "lucy", "forfeits")
"""What a standings row takes from the entry's tally as it is."""


def _check_known(known: list[EntryId], what: str) -> dict[EntryId, Tally]:
    if len(set(known)) != len(known):
        raise ValueError(f"{what} is listed twice")
    return {e: Tally() for e in known}


def _rows(
    known: list[EntryId],
    tally: dict[EntryId, Tally],
    tiebreaks: Sequence[Tiebreak],
    withdrawn: Collection[EntryId],
    config: MatchPoints,
) -> list[StandingRow]:
    virtual = VirtualOpponents(win=config.win, loss=config.loss, bye=config.bye)
    buchholz = {e: shown(v) for e, v in Buchholz(virtual).values(tally).items()}
    sonneborn = {e: shown(v) for e, v in SonnebornBerger(virtual).values(tally).items()}
    rows: list[StandingRow] = []
    for block in rank(known, tally, tiebreaks, virtual):
        place = len(rows) + 1
        for e in block:
            rows.append(
                StandingRow(
                    place=place,
                    shared=len(block) > 1,
                    entry=e,
                    buchholz=buchholz[e],
                    sonneborn_berger=sonneborn[e],
                    withdrawn=e in withdrawn,
                    **{name: getattr(tally[e], name) for name in TALLIED},
                )
            )
    return rows


def compute_standings(
    entries: Sequence[EntryId],
    results: Sequence[MatchResult],
    *,
    points: MatchPoints | None = None,
    tiebreaks: Sequence[Tiebreak] = SWISS_TIEBREAKS,
    withdrawn: Collection[EntryId] = (),
) -> list[StandingRow]:
    """Rank pairs (``entries``, in seeding order) by match points, then by ``tiebreaks`` in order.

    Each of a pair's byes is one virtual opponent for Buchholz and Sonneborn-Berger
    (``tiebreaks.VirtualOpponents``: FIDE's rule for unplayed rounds), so a bye is never worth
    as much in the tiebreaks as a match won against a pair that went on scoring.
    """
    config = points or MatchPoints()
    known = list(entries)
    tally = _check_known(known, "an entry")
    for r in results:
        for e in (r.home, r.away):
            if e is not None and e not in tally:
                raise ValueError(f"a result names entry {e}, which is not in this tournament")
        if r.bye or r.away is None:  # MatchResult allows no opponent only for a bye
            tally[r.home].bye(config, round=r.round, opponents=1)
            continue
        loser = r.away if r.winner == r.home else r.home
        winner = r.home if loser == r.away else r.away
        count_eyes = not r.forfeit or config.forfeit_eyes_count
        for side, other, eyes, other_eyes, lucy in (
            (r.home, r.away, r.home_eyes, r.away_eyes, r.home_lucy),
            (r.away, r.home, r.away_eyes, r.home_eyes, r.away_lucy),
        ):
            tally[side].meet([other], (eyes, other_eyes) if count_eyes else None)
            tally[side].lucy += lucy or 0
        tally[winner].won(config, beaten=[loser], round=r.round)
        tally[loser].lost(config, forfeit=r.forfeit, winners=[winner], round=r.round)
    return _rows(known, tally, tiebreaks, withdrawn, config)


def individual_standings(
    players: Sequence[PlayerId],
    results: Sequence[TableResult],
    byes: Sequence[PlayerId | tuple[PlayerId, int]] = (),
    *,
    points: MatchPoints | None = None,
    withdrawn: Collection[PlayerId] = (),
    tiebreaks: Sequence[Tiebreak] = INDIVIDUAL_TIEBREAKS,
) -> list[StandingRow]:
    """Rank players (given in seeding order) by match points, then ``tiebreaks`` in the order the
    event states (eye difference, eyes scored, Buchholz by default).

    Each player scores what his pair scored. Buchholz counts both opponents of every table, and a
    bye sat out (one entry of ``byes`` per bye: the player, or (player, round)) as two virtual
    opponents (``tiebreaks.VirtualOpponents``); Sonneborn-Berger both opponents of every table won;
    head-to-head the tables where the tied players sat opposite each other (a forfeited table is no
    encounter). At a table with ``absent`` players the present ones win and each absentee takes
    ``forfeit_loss``; with ``MatchPoints.forfeit_eyes_count`` that counts 12:0 for the winners and
    0:12 for the absentee, as for pairs; otherwise match points only. Lucy deals are not known per player (0).
    """
    config = points or MatchPoints()
    known = list(players)
    tally = _check_known(known, "a player")

    def get(p: PlayerId) -> Tally:
        if p not in tally:
            raise ValueError(f"a result names player {p}, who is not in this event")
        return tally[p]

    for b in byes:
        p, rnd = b if isinstance(b, tuple) else (b, 0)
        get(p).bye(config, round=rnd, opponents=2)
    for r in results:
        ns, ew = r.table.partnerships
        for side, others, mine, theirs in ((ns, ew, r.ns_eyes, r.ew_eyes), (ew, ns, r.ew_eyes, r.ns_eyes)):
            for me in side:
                t = get(me)
                if r.absent:
                    forfeited = me in r.absent
                    eyes = (0, 12) if forfeited else (12, 0)
                    t.meet(others, eyes if config.forfeit_eyes_count else None)
                    if forfeited:
                        t.lost(config, forfeit=True, round=r.round)
                    else:
                        t.won(config, round=r.round)
                    continue
                t.meet(others, (mine, theirs))
                if (r.winner == "NS") == (side == ns):
                    t.won(config, beaten=others, round=r.round)
                else:
                    t.lost(config, forfeit=False, winners=others, round=r.round)
    return _rows(known, tally, tiebreaks, withdrawn, config)
