"""Single elimination: seeded brackets with byes to the top seeds, a third-place match, best-of-N series."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from tournaments.core.ids import EntryId

Side = Literal["top", "bottom"]
MatchKey = tuple[int, int]
"""(round, slot): round 1 is the first, slot 0 the top match of its round. The final is
(last round, 0) and the third-place match (last round, 1)."""


@dataclass(frozen=True)
class KnockoutMatch:
    """One match of the bracket. ``None`` for a side means not yet known (or, with ``bye``, nobody)."""

    round: int
    slot: int
    top: EntryId | None
    bottom: EntryId | None
    winner: EntryId | None
    bye: bool = False

    @property
    def loser(self) -> EntryId | None:
        if self.winner is None or self.bye:
            return None
        return self.bottom if self.winner == self.top else self.top


@dataclass(frozen=True)
class Bracket:
    """The whole bracket as far as the winners are known; rebuilt from scratch after every result."""

    size: int
    rounds: tuple[tuple[KnockoutMatch, ...], ...]
    third_place: KnockoutMatch | None

    @property
    def final(self) -> KnockoutMatch:
        return self.rounds[-1][0]

    @property
    def champion(self) -> EntryId | None:
        return self.final.winner

    def pending(self) -> list[KnockoutMatch]:
        """Matches whose two entries are known and whose winner is not: what can be played now."""
        matches = [m for r in self.rounds for m in r]
        if self.third_place is not None:
            matches.append(self.third_place)
        return [m for m in matches if m.top is not None and m.bottom is not None and m.winner is None]


def bracket_size(entries: int) -> int:
    """The next power of two at or above the number of entries (byes fill the rest)."""
    if entries < 2:
        raise ValueError("a knockout needs at least two entries")
    return 1 << (entries - 1).bit_length()


def seed_positions(size: int) -> list[int]:
    """Seeds in bracket order from top to bottom, e.g. 8 → [1, 8, 4, 5, 2, 7, 3, 6].

    Rule: the standard seeded draw (as in tennis and in FIDE knockout events): each first-round
    match pairs seeds adding up to size + 1 (1 v 16, 8 v 9, ...), and the halves, quarters, ...
    are arranged so that seeds 1 and 2 can meet only in the final, 1-4 only in the semifinals,
    and in general the favourite wins every match when the higher seed always wins.
    Built by doubling: each seed s of the bracket of size k is followed by k*2 + 1 - s.
    """
    if size < 2 or size & (size - 1):
        raise ValueError(f"a bracket size is a power of two of at least 2, not {size}")
    order = [1]
    while len(order) < size:
        k = len(order) * 2
        order = [x for s in order for x in (s, k + 1 - s)]
    return order


def seed_by_rating(ratings: Mapping[EntryId, float | None], rng: random.Random) -> list[EntryId]:
    """Seeding order: rated entries by rating (highest first), then unrated ones in random order.

    Seeding is by rating where known, else manual or random. Ties in rating are broken
    at random too, so the order never depends on database ids. Manual seeding needs no helper:
    the organiser's list is the order.
    """
    rated = [e for e, r in ratings.items() if r is not None]
    unrated = [e for e, r in ratings.items() if r is None]
    rng.shuffle(rated)
    rated.sort(key=lambda e: -(ratings[e] or 0))  # stable: equal ratings keep the shuffled order
    rng.shuffle(unrated)
    return rated + unrated


def knockout_bracket(
    seeded: Sequence[EntryId],
    winners: Mapping[MatchKey, EntryId] | None = None,
    *,
    third_place: bool = False,
) -> Bracket:
    """The bracket for entries in seeding order, advanced by the winners known so far.

    Rules: bracket size is the next power of two; the missing seeds (the highest numbers) are
    byes, so the byes fall to the top seeds (seed 1 meets "seed 16", who does not exist). A bye
    advances its entry at once. With ``third_place`` the two semifinal losers meet in the
    third-place match, keyed (last round, 1). The caller decides each winner (from a single
    match, or from a best-of-N series, see ``series_outcome``); a winner must be one of the two
    entries of a match whose entries are both known.
    """
    ids = list(seeded)
    if len(set(ids)) != len(ids):
        raise ValueError("an entry is seeded twice")
    size = bracket_size(len(ids))
    rounds_count = size.bit_length() - 1
    known = dict(winners or {})
    if third_place and len(ids) < 4:  # with three, one semifinal is a bye and has no loser
        raise ValueError("a third-place match needs at least four entries")

    def decide(key: MatchKey, top: EntryId | None, bottom: EntryId | None) -> KnockoutMatch:
        winner = known.pop(key, None)
        if winner is not None and (top is None or bottom is None):
            raise ValueError(f"match {key} has no winner yet: its entries are not both known")
        if winner is not None and winner not in (top, bottom):
            raise ValueError(f"entry {winner} is not playing in match {key}")
        return KnockoutMatch(round=key[0], slot=key[1], top=top, bottom=bottom, winner=winner)

    positions = seed_positions(size)
    slots: list[EntryId | None] = [ids[s - 1] if s <= len(ids) else None for s in positions]
    first: list[KnockoutMatch] = []
    for slot in range(size // 2):
        top, bottom = slots[2 * slot], slots[2 * slot + 1]
        if top is None or bottom is None:
            present = top if top is not None else bottom
            if (1, slot) in known:
                raise ValueError(f"match (1, {slot}) is a bye and takes no result")
            first.append(KnockoutMatch(round=1, slot=slot, top=top, bottom=bottom, winner=present, bye=True))
        else:
            first.append(decide((1, slot), top, bottom))
    rounds = [tuple(first)]
    for number in range(2, rounds_count + 1):
        previous = rounds[-1]
        rounds.append(
            tuple(
                decide((number, slot), previous[2 * slot].winner, previous[2 * slot + 1].winner)
                for slot in range(len(previous) // 2)
            )
        )
    bronze: KnockoutMatch | None = None
    if third_place:
        semis = rounds[-2]
        bronze = decide((rounds_count, 1), semis[0].loser, semis[1].loser)
    if known:
        raise ValueError(f"results for matches that do not exist: {sorted(known)}")
    return Bracket(size=size, rounds=tuple(rounds), third_place=bronze)


@dataclass(frozen=True)
class SeriesOutcome:
    """Where a best-of-N series stands: wins per side, the winner if decided, or a decider needed."""

    top_wins: int
    bottom_wins: int
    winner: Side | None
    needs_decider: bool


def series_outcome(matches: Sequence[tuple[int, int]], best_of: int) -> SeriesOutcome:
    """Decide a best-of-N series from its matches' final eyes (top, bottom), in playing order.

    A forfeit or a no-show counts as the 12:0 it is written as: it loses that one match, not the
    series (as a walkover of one rubber in team play), so a pair that missed match 2 of a best of
    3 at 1:0 up still plays match 3. A pair that leaves the event loses each match still to come
    by forfeit (``services.progress``), which ends the series the same way.

    Rule: the first side to win a majority (N // 2 + 1 matches) wins the series; there are no
    drawn matches in Bilka, so an odd N always ends. For an even N that ends level (e.g. 1:1 in a
    best of 2), our decision: the eye difference over the whole series decides, and if that is
    level too, one deciding match is played (``needs_decider``), whose winner takes the series.
    Matches after the series is decided are refused.
    """
    if best_of < 1:
        raise ValueError("a series has at least one match")
    top = bottom = difference = 0
    for number, (top_eyes, bottom_eyes) in enumerate(matches, start=1):
        if top_eyes == bottom_eyes:
            raise ValueError(f"match {number} of the series has no winner ({top_eyes}:{bottom_eyes})")
        before = _series_status(top, bottom, difference, number - 1, best_of)
        if before.winner is not None:
            raise ValueError(f"match {number} was played after the series was decided")
        if before.needs_decider:
            decider: Side = "top" if top_eyes > bottom_eyes else "bottom"
            if number != len(matches):
                raise ValueError(f"match {number + 1} was played after the series was decided")
            return SeriesOutcome(top, bottom, decider, needs_decider=False)
        top += top_eyes > bottom_eyes
        bottom += bottom_eyes > top_eyes
        difference += top_eyes - bottom_eyes
    return _series_status(top, bottom, difference, len(matches), best_of)


def _series_status(top: int, bottom: int, difference: int, played: int, best_of: int) -> SeriesOutcome:
    """The series after ``played`` regular matches (see ``series_outcome`` for the rule)."""
    needed = best_of // 2 + 1
    if top >= needed or bottom >= needed:
        return SeriesOutcome(top, bottom, "top" if top >= needed else "bottom", needs_decider=False)
    if played == best_of:  # an even N, level on matches
        if difference:
            return SeriesOutcome(top, bottom, "top" if difference > 0 else "bottom", needs_decider=False)
        return SeriesOutcome(top, bottom, None, needs_decider=True)
    return SeriesOutcome(top, bottom, None, needs_decider=False)
