"""Standings from match results: match points, then a configurable, documented tiebreak order."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from enum import StrEnum

from tournaments.core.ids import EntryId


class Tiebreak(StrEnum):
    """The tiebreaks an organiser can order. Each is "more is better"."""

    HEAD_TO_HEAD = "head_to_head"
    EYE_DIFFERENCE = "eye_difference"
    EYES_SCORED = "eyes_scored"
    BUCHHOLZ = "buchholz"
    SONNEBORN_BERGER = "sonneborn_berger"
    LUCY = "lucy"


ROUND_ROBIN_TIEBREAKS: tuple[Tiebreak, ...] = (
    Tiebreak.HEAD_TO_HEAD,
    Tiebreak.EYE_DIFFERENCE,
    Tiebreak.EYES_SCORED,
    Tiebreak.LUCY,
)
"""Default for round robins and leagues: everyone meets everyone, so the direct matches say most
(as in football leagues and FIDE C.07's recommendation of Direct Encounter first for all-play-all)."""

SWISS_TIEBREAKS: tuple[Tiebreak, ...] = (
    Tiebreak.BUCHHOLZ,
    Tiebreak.SONNEBORN_BERGER,
    Tiebreak.EYE_DIFFERENCE,
    Tiebreak.EYES_SCORED,
    Tiebreak.LUCY,
)
"""Default for Swiss events: entries met different opponents, so the strength of those opponents
comes first (FIDE Tie-Break Regulations C.07, recommended order for individual Swiss)."""


@dataclass(frozen=True)
class MatchPoints:
    """Match points per result (issue 5: win 1, loss 0, bye 1 by default). No draws in Bilka."""

    win: int = 1
    loss: int = 0
    bye: int = 1
    forfeit_loss: int = 0
    forfeit_eyes_count: bool = True
    """A forfeit is entered as 12:0 (issue 5). True: those eyes count in eye tiebreaks like any
    result; False: a forfeit counts for match points only, like a bye."""


@dataclass(frozen=True)
class MatchResult:
    """One confirmed result, or a bye (``bye=True``, ``away=None``; its eyes are ignored).

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
    buchholz: int
    sonneborn_berger: int
    lucy: int
    withdrawn: bool

    @property
    def eye_difference(self) -> int:
        return self.eyes_for - self.eyes_against


@dataclass
class _Tally:
    match_points: int = 0
    played: int = 0
    wins: int = 0
    losses: int = 0
    byes: int = 0
    eyes_for: int = 0
    eyes_against: int = 0
    lucy: int = 0


def compute_standings(
    entries: Sequence[EntryId],
    results: Sequence[MatchResult],
    *,
    points: MatchPoints | None = None,
    tiebreaks: Sequence[Tiebreak] = SWISS_TIEBREAKS,
    withdrawn: Collection[EntryId] = (),
) -> list[StandingRow]:
    """Rank ``entries`` (given in seeding order) by match points, then by ``tiebreaks`` in order.

    Decisions, with the rules they follow:

    - **Eyes**: eye difference and eyes scored count played matches only; a bye's eyes do not
      count (issue 5). Forfeits count as 12:0 unless ``MatchPoints.forfeit_eyes_count`` is off.
    - **Head-to-head** (FIDE C.07 §6 Direct Encounter; UEFA's re-application rule): the tied
      entries' mini-table — match points from their mutual matches only. It applies only when
      every two of them have met (otherwise it cannot be fair and separates nobody). If it
      separates some but not all, it is applied again to each still-tied subgroup, using only
      the matches among that subgroup, before going on to the next tiebreak.
    - **Buchholz** (FIDE C.07 §8.1): the sum of the match points of every opponent met. A
      withdrawn opponent counts with the points he actually has (his unplayed rounds add
      nothing; FIDE's "count as draws" has no meaning without draws). Each of the entry's own
      byes counts as a dummy opponent with the entry's own match points (FIDE C.07 §16, 2023:
      an unplayed round is scored against a dummy opponent with the participant's own points),
      so a bye neither helps nor hurts. A forfeit counts as a match against the real opponent.
    - **Sonneborn-Berger** (FIDE C.07 §9.1 without draws): the sum of the match points of the
      opponents beaten; each bye adds the entry's own points (the same dummy opponent).
    - **Lucy**: Lucy deals scored, where known.
    - **Withdrawn entries** stay in the table with the results they played (issue 5:
      "played results stay"), flagged ``withdrawn``; the prize list decides what to do with them.
    - **Shared places**: entries equal on everything share a place ("1, 1, 3"), listed in
      seeding order.
    """
    config = points or MatchPoints()
    known = list(entries)
    if len(set(known)) != len(known):
        raise ValueError("an entry is listed twice")
    known_set = set(known)
    tally = {e: _Tally() for e in known}
    opponents: dict[EntryId, list[EntryId]] = defaultdict(list)
    beaten: dict[EntryId, list[EntryId]] = defaultdict(list)
    mutual: dict[tuple[EntryId, EntryId], int] = defaultdict(int)  # (a, b) -> a's points against b
    met: set[frozenset[EntryId]] = set()

    for r in results:
        for e in (r.home, r.away):
            if e is not None and e not in known_set:
                raise ValueError(f"a result names entry {e}, which is not in this tournament")
        if r.bye or r.away is None:  # MatchResult allows no opponent only for a bye
            t = tally[r.home]
            t.byes += 1
            t.match_points += config.bye
            continue
        loser = r.away if r.winner == r.home else r.home
        winner = r.home if loser == r.away else r.away
        count_eyes = not r.forfeit or config.forfeit_eyes_count
        for side, other, eyes, other_eyes, lucy in (
            (r.home, r.away, r.home_eyes, r.away_eyes, r.home_lucy),
            (r.away, r.home, r.away_eyes, r.home_eyes, r.away_lucy),
        ):
            t = tally[side]
            t.played += 1
            if count_eyes:
                t.eyes_for += eyes
                t.eyes_against += other_eyes
            t.lucy += lucy or 0
            opponents[side].append(other)
        tally[winner].wins += 1
        tally[winner].match_points += config.win
        tally[loser].losses += 1
        tally[loser].match_points += config.forfeit_loss if r.forfeit else config.loss
        beaten[winner].append(loser)
        mutual[(winner, loser)] += config.win
        mutual[(loser, winner)] += config.forfeit_loss if r.forfeit else config.loss
        met.add(frozenset((winner, loser)))

    mp = {e: t.match_points for e, t in tally.items()}
    buchholz = {e: sum(mp[o] for o in opponents[e]) + tally[e].byes * mp[e] for e in known}
    sonneborn = {e: sum(mp[o] for o in beaten[e]) + tally[e].byes * mp[e] for e in known}
    fixed: dict[Tiebreak, dict[EntryId, int]] = {
        Tiebreak.EYE_DIFFERENCE: {e: t.eyes_for - t.eyes_against for e, t in tally.items()},
        Tiebreak.EYES_SCORED: {e: t.eyes_for for e, t in tally.items()},
        Tiebreak.BUCHHOLZ: buchholz,
        Tiebreak.SONNEBORN_BERGER: sonneborn,
        Tiebreak.LUCY: {e: t.lucy for e, t in tally.items()},
    }

    def head_to_head(group: list[EntryId]) -> list[list[EntryId]]:
        complete = all(frozenset((a, b)) in met for i, a in enumerate(group) for b in group[i + 1 :])
        if not complete:
            return [group]
        mini = {a: sum(mutual[(a, b)] for b in group if b != a) for a in group}
        blocks = _split(group, mini)
        if len(blocks) == 1:
            return blocks
        return [sub for block in blocks for sub in (head_to_head(block) if len(block) > 1 else [block])]

    def rank(group: list[EntryId], criteria: Sequence[Tiebreak]) -> list[list[EntryId]]:
        if len(group) == 1 or not criteria:
            return [group]
        first, rest = criteria[0], criteria[1:]
        blocks = head_to_head(group) if first is Tiebreak.HEAD_TO_HEAD else _split(group, fixed[first])
        return [sub for block in blocks for sub in rank(block, rest)]

    rows: list[StandingRow] = []
    for block in (b for group in _split(known, mp) for b in rank(group, tiebreaks)):
        place = len(rows) + 1
        for e in block:
            t = tally[e]
            rows.append(
                StandingRow(
                    place=place,
                    shared=len(block) > 1,
                    entry=e,
                    match_points=t.match_points,
                    played=t.played,
                    wins=t.wins,
                    losses=t.losses,
                    byes=t.byes,
                    eyes_for=t.eyes_for,
                    eyes_against=t.eyes_against,
                    buchholz=buchholz[e],
                    sonneborn_berger=sonneborn[e],
                    lucy=t.lucy,
                    withdrawn=e in withdrawn,
                )
            )
    return rows


def _split(group: list[EntryId], value: dict[EntryId, int]) -> list[list[EntryId]]:
    """Blocks of equal value, best (highest) first; each block keeps the group's order."""
    levels = sorted({value[e] for e in group}, reverse=True)
    return [[e for e in group if value[e] == level] for level in levels]
