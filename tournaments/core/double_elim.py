"""Double elimination: a winners' bracket, a losers' bracket fed by its losers, a grand final, a reset.

The winners' bracket is the single-elimination bracket of ``knockout`` (same seeding,
``seed_positions``, byes to the top seeds). An entry that loses there drops into the losers'
bracket; a second loss eliminates. The structure is the standard one (as drawn by challonge,
start.gg and the World Series of Poker-style brackets), for a bracket of size 2^k:

- Losers' round 1 (a *minor* round) pairs the losers of winners' round 1 among themselves.
- Losers' round 2j (a *major* round, j = 1..k-1) sets the winners of losers' round 2j-1
  against the losers of winners' round j+1 dropping in.
- Losers' round 2j+1 (minor) pairs the winners of losers' round 2j among themselves.
- The losers' champion (winner of losers' round 2(k-1)) meets the winners' champion in the
  grand final. With ``grand_final_reset``, if the losers' champion wins it, both have lost once
  and a second final (the reset) decides; without it the first final decides.

**Drop placement (crossover).** Losers of winners' round r drop in reversed order when r is
even and with their halves swapped when r is odd (r >= 3): the usual alternation, which keeps an
entry from meeting, straight away, the entry that just beat it or the one it just beat (the
loser of winners' match i in round 2 would otherwise meet the winner of losers' match i, who
lost in round 1 to one of that same match's entries). It cannot always be avoided (with four
entries the winners' final loser may meet again whomever it beat in round 1).

**Byes.** Missing seeds are byes in winners' round 1 (to the top seeds); a bye has no loser, so
the losers' match it would feed has nobody on one side and its other entry goes through (also a
bye), and a losers' match with nobody on both sides is empty.

Keys are (bracket, round, slot) with bracket "winners", "losers" or "final"; the grand final is
("final", 1, 0) and the reset ("final", 2, 0). Like ``knockout_bracket`` the bracket is rebuilt
from the winners stored so far; every entry loses at most twice, and an event of n entries
plays 2n-2 matches, or 2n-1 when the reset is played.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Literal

from tournaments.core.ids import EntryId
from tournaments.core.knockout import KnockoutMatch, bracket_size, seed_positions

BracketName = Literal["winners", "losers", "final"]
DoubleElimKey = tuple[BracketName, int, int]


class _Nobody(Enum):
    """A side that will never be filled: a bye, or the loser of a bye."""

    NOBODY = "nobody"


_NOBODY = _Nobody.NOBODY
_Slot = EntryId | None | _Nobody
"""An entry, not known yet (None), or nobody ever."""


@dataclass(frozen=True)
class DoubleElimMatch(KnockoutMatch):
    """A knockout match with the bracket it is in. ``None`` for a side: not yet known, or with
    ``bye``, nobody (the match is not played)."""

    bracket: BracketName = "winners"

    @property
    def key(self) -> DoubleElimKey:
        return (self.bracket, self.round, self.slot)


@dataclass(frozen=True)
class DoubleElimBracket:
    """Both brackets and the final(s) as far as the winners are known; rebuilt after every result."""

    size: int
    winners_rounds: tuple[tuple[DoubleElimMatch, ...], ...]
    losers_rounds: tuple[tuple[DoubleElimMatch, ...], ...]
    grand_final: DoubleElimMatch
    reset: DoubleElimMatch | None
    """The second final: present once it is to be played (the losers' champion won the first)."""

    @property
    def champion(self) -> EntryId | None:
        if self.reset is not None:
            return self.reset.winner
        return self.grand_final.winner

    def matches(self) -> list[DoubleElimMatch]:
        """Every match in playing order: winners' and losers' rounds, then the final(s)."""
        out = [m for r in self.winners_rounds for m in r] + [m for r in self.losers_rounds for m in r]
        out.append(self.grand_final)
        if self.reset is not None:
            out.append(self.reset)
        return out

    def pending(self) -> list[DoubleElimMatch]:
        """Matches whose two entries are known and whose winner is not: what can be played now."""
        return [
            m
            for m in self.matches()
            if not m.bye and m.top is not None and m.bottom is not None and m.winner is None
        ]


def _public(side: _Slot) -> EntryId | None:
    return None if side is _NOBODY else side


def double_elim_bracket(
    seeded: Sequence[EntryId],
    winners: Mapping[DoubleElimKey, EntryId] | None = None,
    *,
    grand_final_reset: bool = True,
) -> DoubleElimBracket:
    """The double-elimination bracket for entries in seeding order, advanced by the winners known so far.

    Rules as in the module docstring. A winner must be one of the two entries of a match whose
    entries are both known; a result for a bye or for a match that does not exist is refused.
    """
    ids = list(seeded)
    if len(set(ids)) != len(ids):
        raise ValueError("an entry is seeded twice")
    size = bracket_size(len(ids))
    k = size.bit_length() - 1
    known = dict(winners or {})

    def decide(key: DoubleElimKey, top: _Slot, bottom: _Slot) -> tuple[DoubleElimMatch, _Slot, _Slot]:
        """The match, its winner and its loser (each an entry, None while unknown, or nobody)."""
        bracket, rnd, slot = key
        if top is _NOBODY or bottom is _NOBODY:
            if key in known:
                raise ValueError(f"match {key} is a bye and takes no result")
            other = bottom if top is _NOBODY else top
            winner: _Slot = other  # nobody if both are nobody; None while the other is unknown
            match = DoubleElimMatch(rnd, slot, _public(top), _public(bottom), _public(other), True, bracket)
            return match, winner, _NOBODY  # a bye has no loser
        result = known.pop(key, None)
        if result is not None and (top is None or bottom is None):
            raise ValueError(f"match {key} has no winner yet: its entries are not both known")
        if result is not None and result not in (top, bottom):
            raise ValueError(f"entry {result} is not playing in match {key}")
        match = DoubleElimMatch(rnd, slot, top, bottom, result, bracket=bracket)
        if result is None:
            return match, None, None
        return match, result, (bottom if result == top else top)

    # Winners' bracket, as knockout_bracket.
    positions = seed_positions(size)
    slots: list[_Slot] = [ids[s - 1] if s <= len(ids) else _NOBODY for s in positions]
    w_rounds: list[tuple[DoubleElimMatch, ...]] = []
    w_losers: list[list[_Slot]] = []
    current = slots
    for rnd in range(1, k + 1):
        decided = [
            decide(("winners", rnd, i), current[2 * i], current[2 * i + 1]) for i in range(len(current) // 2)
        ]
        w_rounds.append(tuple(m for m, _, _ in decided))
        w_losers.append([lo for _, _, lo in decided])
        current = [w for _, w, _ in decided]
    winners_champion = current[0]

    # Losers' bracket.
    l_rounds: list[tuple[DoubleElimMatch, ...]] = []
    if k == 1:
        losers_champion = w_losers[0][0]
    else:
        first = w_losers[0]
        decided = [decide(("losers", 1, i), first[2 * i], first[2 * i + 1]) for i in range(len(first) // 2)]
        l_rounds.append(tuple(m for m, _, _ in decided))
        alive = [w for _, w, _ in decided]
        for j in range(1, k):
            drops = _crossover(w_losers[j], j + 1)
            number = 2 * j
            decided = [decide(("losers", number, i), alive[i], drops[i]) for i in range(len(alive))]
            l_rounds.append(tuple(m for m, _, _ in decided))
            alive = [w for _, w, _ in decided]
            if j < k - 1:
                decided = [
                    decide(("losers", number + 1, i), alive[2 * i], alive[2 * i + 1])
                    for i in range(len(alive) // 2)
                ]
                l_rounds.append(tuple(m for m, _, _ in decided))
                alive = [w for _, w, _ in decided]
        losers_champion = alive[0]

    final, final_winner, _ = decide(("final", 1, 0), winners_champion, losers_champion)
    reset: DoubleElimMatch | None = None
    if grand_final_reset and final_winner is not None and final_winner == losers_champion:
        reset, _, _ = decide(("final", 2, 0), winners_champion, losers_champion)
    if known:
        raise ValueError(f"results for matches that do not exist: {sorted(known)}")
    return DoubleElimBracket(
        size=size,
        winners_rounds=tuple(w_rounds),
        losers_rounds=tuple(l_rounds),
        grand_final=final,
        reset=reset,
    )


def _crossover(losers: list[_Slot], winners_round: int) -> list[_Slot]:
    """The order in which the losers of a winners' round drop in (see the module docstring)."""
    if len(losers) < 2:
        return list(losers)
    if winners_round % 2 == 0:
        return losers[::-1]
    half = len(losers) // 2
    return losers[half:] + losers[:half]
