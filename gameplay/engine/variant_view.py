"""What one seat of a Kozyol or Bilka-for-two table may see, with the ladder a bot needs.

Smaller than Bilka's `observation.Observation` (which stays Bilka's): the seat's own hand, the
trick on the table, the trumps, the scores; never another hand or the stock's cards.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class View:
    """One seat's view. `strength[lead_key[trick[0]]][card]`: higher wins the trick, -1 cannot;
    `partner` is the partner's seat (Kozyol) or None (Bilka for two)."""

    game: str
    seat: int
    partner: int | None
    hand: tuple[int, ...]
    legal: tuple[int, ...]
    redeal_phase: bool
    trick: tuple[int, ...]
    trick_seats: tuple[int, ...]
    trump: int
    trumps: int
    strength: tuple[tuple[int, ...], ...]
    lead_key: tuple[int, ...]
    points: tuple[int, int]
    score: tuple[int, int]
    stock_left: int = 0
