"""Tiebreaks: one small class per rule, each citing the rule it implements, and the ranking they make.

A tiebreak is "more is better". The standings (``core.standings``) tally every entry (a pair, or in
an individual event a player) into one ``Tally``; ``rank`` orders the entries by match points, then
by the event's tiebreaks in order. Entries equal on everything share a place, in seeding order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import TYPE_CHECKING, ClassVar

from tournaments.core.ids import EntryId

if TYPE_CHECKING:
    from tournaments.core.standings import Tally


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


def split(group: list[EntryId], value: Mapping[EntryId, int]) -> list[list[EntryId]]:
    """Blocks of equal value, best (highest) first; each block keeps the group's order."""
    levels = sorted({value[e] for e in group}, reverse=True)
    return [[e for e in group if value[e] == level] for level in levels]


class Metric:
    """A tiebreak that gives every entry a number from the tallies (more is better)."""

    tiebreak: ClassVar[Tiebreak]

    def values(self, tallies: Tallies) -> dict[EntryId, int]:
        raise NotImplementedError

    def split(self, group: list[EntryId], tallies: Tallies) -> list[list[EntryId]]:
        return split(group, self.values(tallies))


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
    """FIDE C.07 §8.1: the sum of the match points of every opponent met.

    A withdrawn opponent counts with the points he actually has (his unplayed rounds add nothing;
    FIDE's "count as draws" has no meaning without draws). Each unplayed round is scored against
    a dummy opponent with the entry's own match points (FIDE C.07 §16, 2023), so a bye neither
    helps nor hurts: one dummy for a pair's bye, two for a player's (a table has two opponents).
    A forfeit counts as a match against the real opponents.
    """

    tiebreak = Tiebreak.BUCHHOLZ

    def values(self, tallies: Tallies) -> dict[EntryId, int]:
        mp = _match_points(tallies)
        return {e: sum(mp[o] for o in t.opponents) + t.dummy_opponents * mp[e] for e, t in tallies.items()}


class SonnebornBerger(Metric):
    """FIDE C.07 §9.1 without draws: the sum of the match points of the opponents beaten; each
    dummy opponent of an unplayed round adds the entry's own points (as for Buchholz)."""

    tiebreak = Tiebreak.SONNEBORN_BERGER

    def values(self, tallies: Tallies) -> dict[EntryId, int]:
        mp = _match_points(tallies)
        return {e: sum(mp[o] for o in t.beaten) + t.dummy_opponents * mp[e] for e, t in tallies.items()}


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

    def split(self, group: list[EntryId], tallies: Tallies) -> list[list[EntryId]]:
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


METRICS: dict[Tiebreak, Metric] = {
    m.tiebreak: m
    for m in (HeadToHead(), EyeDifference(), EyesScored(), Buchholz(), SonnebornBerger(), Lucy())
}


def rank(entries: list[EntryId], tallies: Tallies, tiebreaks: Sequence[Tiebreak]) -> list[list[EntryId]]:
    """The entries in blocks of equal standing, best first: by match points, then each tiebreak in
    turn within a block still tied. Each block keeps the seeding order of ``entries``."""

    def order(group: list[EntryId], criteria: Sequence[Tiebreak]) -> list[list[EntryId]]:
        if len(group) == 1 or not criteria:
            return [group]
        blocks = METRICS[criteria[0]].split(group, tallies)
        return [sub for block in blocks for sub in order(block, criteria[1:])]

    return [block for group in split(entries, _match_points(tallies)) for block in order(group, tiebreaks)]
