"""The tiebreaks as they were before requested byes (a frozen copy of ``tournaments.core.tiebreaks``),
which the frozen standings rank by. Do not edit it to follow the site's code."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import TYPE_CHECKING, ClassVar

from tournaments.core.ids import EntryId

if TYPE_CHECKING:
    from .standings import Tally


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

INDIVIDUAL_TIEBREAKS: tuple[Tiebreak, ...] = (
    Tiebreak.EYE_DIFFERENCE,
    Tiebreak.EYES_SCORED,
    Tiebreak.BUCHHOLZ,
)
"""Individual events: partners differ every round, so head-to-head has no meaning; eyes first, then
the strength of the opponents met."""

Tallies = Mapping[EntryId, "Tally"]
Value = int | Fraction
"""A tiebreak's value: whole, or with a half where a virtual opponent drew."""


def shown(value: Value) -> int | float:
    """A value as the standings show and export it: 3, or 2.5."""
    return int(value) if Fraction(value).denominator == 1 else float(value)


@dataclass(frozen=True)
class VirtualOpponents:
    """FIDE's virtual opponent for a round without an opponent (FIDE Handbook C.07, tie-break
    regulations, "unplayed games", as adopted at the 2009 Congress and in force until June 2023):

    - for the entry itself, a bye counts as a match against a virtual opponent who had the entry's
      own points at the start of that round, took the opposite result in that round (the entry
      won its bye, so the virtual opponent lost) and drew every round after it:
      ``S_von = S_before + (win + loss - bye) + draw * (last_round - round)``
      (FIDE: ``Svon = SPR + (1 - SfPR) + 0.5 * (n - R)``);
    - for the opponents of an entry that had a bye, that bye counts as a draw in the entry's
      points.

    Bilka has no draws; a draw here is worth half a win and half a loss, ``(win + loss) / 2``, as
    in chess. FIDE's regulations from July 2023 (Article 16) replaced the virtual opponent by a
    "dummy opponent" with the entry's own final points; that gave a pair whose only result is a
    late bye the same Buchholz and Sonneborn-Berger as a pair that won a real match, which is why
    Bilka keeps the virtual opponent. Rounds an entry was not in at all (before a late entry,
    after a withdrawal) add nothing. Forfeits count as played matches against the real opponents.
    """

    win: int = 1
    loss: int = 0
    bye: int = 1

    @property
    def draw(self) -> Fraction:
        return Fraction(self.win + self.loss, 2)

    @staticmethod
    def last_round(tallies: Tallies) -> int:
        """The last round with a result: the "n completed rounds" of FIDE's formula."""
        return max((r for t in tallies.values() for r in (*t.points_by_round, *t.bye_rounds)), default=0)

    def scores(self, tally: Tally, last_round: int) -> list[Fraction]:
        """The points of each of the entry's virtual opponents after ``last_round``."""
        return [
            sum((p for r, p in tally.points_by_round.items() if r < bye_round), Fraction(0))
            + (self.win + self.loss - self.bye)
            + self.draw * max(0, last_round - bye_round)
            for bye_round in tally.bye_rounds
        ]

    def counted(self, tallies: Tallies) -> dict[EntryId, Value]:
        """Each entry's points as its opponents' tiebreaks count them: each of its byes as a draw."""
        # whole numbers stay ints (the same values: sums of Fractions were most of a 256-pair
        # table's ranking time)
        return {
            e: t.match_points - t.byes * (self.bye - self.draw) if t.byes else t.match_points
            for e, t in tallies.items()
        }

    @property
    def bye_is_win(self) -> bool:
        """A bye scoring a win beats its virtual opponent (Sonneborn-Berger counts it)."""
        return self.bye >= self.win


Known = dict[Tiebreak, Mapping[EntryId, Value]]
"""Each metric's values over the whole field, reckoned once for one ranking."""


def split(group: list[EntryId], value: Mapping[EntryId, Value]) -> list[list[EntryId]]:
    """Blocks of equal value, best (highest) first; each block keeps the group's order."""
    levels = sorted({value[e] for e in group}, reverse=True)
    return [[e for e in group if value[e] == level] for level in levels]


class Metric:
    """A tiebreak that gives every entry a number from the tallies (more is better)."""

    tiebreak: ClassVar[Tiebreak]

    def values(self, tallies: Tallies) -> Mapping[EntryId, Value]:
        raise NotImplementedError

    def split(
        self, group: list[EntryId], tallies: Tallies, known: Known | None = None
    ) -> list[list[EntryId]]:
        """``group`` in blocks by this metric; ``known`` keeps each metric's values over the whole
        field for one ranking, so a field of many tied groups reckons them once, not once a group."""
        if known is None:
            return split(group, self.values(tallies))
        if self.tiebreak not in known:
            known[self.tiebreak] = self.values(tallies)
        return split(group, known[self.tiebreak])


def _match_points(tallies: Tallies) -> dict[EntryId, int]:
    return {e: t.match_points for e, t in tallies.items()}


class EyeDifference(Metric):
    """Eyes for minus eyes against, over played matches only: a bye's eyes do not count; forfeits
    count as 12:0 unless ``MatchPoints.forfeit_eyes_count`` is off."""

    tiebreak = Tiebreak.EYE_DIFFERENCE

    def values(self, tallies: Tallies) -> dict[EntryId, int]:
        return {e: t.eyes_for - t.eyes_against for e, t in tallies.items()}


class EyesScored(Metric):
    """Eyes scored, over the same matches as the eye difference."""

    tiebreak = Tiebreak.EYES_SCORED

    def values(self, tallies: Tallies) -> dict[EntryId, int]:
        return {e: t.eyes_for for e, t in tallies.items()}


class Buchholz(Metric):
    """FIDE C.07 §8.1: the sum of the match points of every opponent met, each opponent's byes
    counted as draws, and one virtual opponent per bye (``VirtualOpponents``): one for a pair's
    bye, two for a player's (a table has two opponents).

    A withdrawn opponent counts with the points he actually has (rounds after he left add
    nothing). A forfeit counts as a match against the real opponents.
    """

    tiebreak = Tiebreak.BUCHHOLZ

    def __init__(self, virtual: VirtualOpponents | None = None) -> None:
        self.virtual = virtual or VirtualOpponents()

    def values(self, tallies: Tallies) -> dict[EntryId, Value]:
        counted = self.virtual.counted(tallies)
        n = self.virtual.last_round(tallies)
        return {
            e: sum((counted[o] for o in t.opponents), 0) + sum(self.virtual.scores(t, n))
            for e, t in tallies.items()
        }


class SonnebornBerger(Metric):
    """FIDE C.07 §9.1 without draws: the sum of the match points of the opponents beaten (their
    byes counted as draws, as for Buchholz), and each virtual opponent a bye beat."""

    tiebreak = Tiebreak.SONNEBORN_BERGER

    def __init__(self, virtual: VirtualOpponents | None = None) -> None:
        self.virtual = virtual or VirtualOpponents()

    def values(self, tallies: Tallies) -> dict[EntryId, Value]:
        counted = self.virtual.counted(tallies)
        n = self.virtual.last_round(tallies)
        beat_virtual = self.virtual.bye_is_win
        return {
            e: sum((counted[o] for o in t.beaten), 0)
            + (sum(self.virtual.scores(t, n)) if beat_virtual else 0)
            for e, t in tallies.items()
        }


class Lucy(Metric):
    """Lucy deals scored (RULES.md, "Lucy": every trick of a deal), where the sheet was kept."""

    tiebreak = Tiebreak.LUCY

    def values(self, tallies: Tallies) -> dict[EntryId, int]:
        return {e: t.lucy for e, t in tallies.items()}


class HeadToHead(Metric):
    """FIDE C.07 §6 Direct Encounter, with UEFA's re-application rule.

    The tied entries' mini-table: match points from their mutual matches only. It applies only when
    every two of them have met (otherwise it cannot be fair and separates nobody). If it separates
    some but not all, it is applied again to each still-tied subgroup, using only the matches among
    that subgroup, before going on to the next tiebreak.
    """

    tiebreak = Tiebreak.HEAD_TO_HEAD

    def split(
        self, group: list[EntryId], tallies: Tallies, known: Known | None = None
    ) -> list[list[EntryId]]:
        complete = all(b in tallies[a].mutual for i, a in enumerate(group) for b in group[i + 1 :])
        if not complete:
            return [group]
        mini = {a: sum(tallies[a].mutual[b] for b in group if b != a) for a in group}
        blocks = split(group, mini)
        if len(blocks) == 1:
            return blocks
        return [
            sub for block in blocks for sub in (self.split(block, tallies) if len(block) > 1 else [block])
        ]


def metrics(virtual: VirtualOpponents | None = None) -> dict[Tiebreak, Metric]:
    """One metric per tiebreak, the opponent-counting ones with the event's virtual opponents."""
    return {
        m.tiebreak: m
        for m in (
            HeadToHead(),
            EyeDifference(),
            EyesScored(),
            Buchholz(virtual),
            SonnebornBerger(virtual),
            Lucy(),
        )
    }


METRICS: dict[Tiebreak, Metric] = metrics()
"""The metrics for the default points (win 1, loss 0, bye 1)."""


def rank(
    entries: list[EntryId],
    tallies: Tallies,
    tiebreaks: Sequence[Tiebreak],
    virtual: VirtualOpponents | None = None,
) -> list[list[EntryId]]:
    """The entries in blocks of equal standing, best first: by match points, then each tiebreak in
    turn within a block still tied. Each block keeps the seeding order of ``entries``."""
    by_tiebreak = metrics(virtual)
    known: Known = {}

    def order(group: list[EntryId], criteria: Sequence[Tiebreak]) -> list[list[EntryId]]:
        if len(group) == 1 or not criteria:
            return [group]
        blocks = by_tiebreak[criteria[0]].split(group, tallies, known)
        return [sub for block in blocks for sub in order(block, criteria[1:])]

    return [block for group in split(entries, _match_points(tallies)) for block in order(group, tiebreaks)]
