"""A deal at some card, as the solver sees it: the hands left, the trick on the table, the aces
still banned, the points taken; its legal cards and its next position follow the engine's rules.

Kept apart from the match state so that the solver and its tests can step through a deal
without a match around it; `tests/gameplay/engine/test_engine_solver.py` checks it card by
card against `state.py`.
"""

from __future__ import annotations

from dataclasses import dataclass

from gameplay.engine.cards import PLAIN_SUIT_MASK, VALUE
from gameplay.engine.ladder import FOLLOW, LEAD_KEY, PLAIN_ACES, STRENGTH4


@dataclass(frozen=True, slots=True)
class Position:
    """A deal at some card: what the solver needs, and nothing of the match around it.

    `hands` are the cards still held (N E S W); `trick` the cards on the table, in play order
    from `leader`; `unled_aces` the plain aces that may not be discarded yet (0 unless
    `ace_discard_ban`); `points` the points already taken in completed tricks (NS, EW);
    `next_seat` the play order (`direction`).
    """

    hands: tuple[int, int, int, int]
    trump: int
    leader: int
    trick: tuple[int, ...]
    unled_aces: int
    points: tuple[int, int]
    next_seat: tuple[int, int, int, int]

    @classmethod
    def start(cls, hands: tuple[int, int, int, int], trump: int, leader: int, *, ace_discard_ban: bool,
              next_seat: tuple[int, int, int, int] = (1, 2, 3, 0)) -> Position:
        """The deal before its first card."""
        unled = PLAIN_ACES[trump] if ace_discard_ban else 0
        return cls(hands, trump, leader, (), unled, (0, 0), next_seat)

    @property
    def to_move(self) -> int:
        seat = self.leader
        for _ in self.trick:
            seat = self.next_seat[seat]
        return seat

    @property
    def over(self) -> bool:
        return not (self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3])

    def legal_mask(self) -> int:
        """The cards the seat to move may play: the engine's rule (`state.apply`)."""
        hand = self.hands[self.to_move]
        if not self.trick:
            return hand
        follow = FOLLOW[self.trump * 4 + LEAD_KEY[self.trump][self.trick[0]]]
        return hand & follow or hand & ~self.unled_aces or hand

    def play(self, card: int) -> Position:
        """The position after the seat to move plays `card` (ValueError if it may not)."""
        if not self.legal_mask() >> card & 1:
            raise ValueError(f"card {card} is not legal here")
        seat = self.to_move
        hands = list(self.hands)
        hands[seat] ^= 1 << card
        unled = self.unled_aces
        trick = (*self.trick, card)
        lead = LEAD_KEY[self.trump][trick[0]]
        if len(trick) == 1 and lead != self.trump:
            unled &= ~PLAIN_SUIT_MASK[lead]
        hs = (hands[0], hands[1], hands[2], hands[3])
        if len(trick) < 4:
            return Position(hs, self.trump, self.leader, trick, unled, self.points, self.next_seat)
        winner = trick_winner(self.trump, self.leader, trick, self.next_seat)
        points = [self.points[0], self.points[1]]
        points[winner & 1] += sum(VALUE[c] for c in trick)
        return Position(hs, self.trump, winner, (), unled, (points[0], points[1]), self.next_seat)


def trick_winner(trump: int, leader: int, trick: tuple[int, ...], next_seat: tuple[int, ...]) -> int:
    """The seat that takes a complete trick (RULES.md, "Playing a trick")."""
    row = STRENGTH4[trump * 4 + LEAD_KEY[trump][trick[0]]]
    seat, best = leader, -1
    for card in trick:
        value = row[card] + seat
        if value > best:
            best = value
        seat = next_seat[seat]
    return best & 3
