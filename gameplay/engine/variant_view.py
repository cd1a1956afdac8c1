"""What one seat of a Kozyol or Bilka-for-two table may see, with the ladder a bot needs.

Smaller than Bilka's `observation.Observation` (which stays Bilka's): the seat's own hand, the
trick on the table, the trumps, the scores; never another hand or the stock's cards. Like Bilka's
`Observation.history`, it carries every card played in the deal with who played it, what any seat
at the table has seen (the strong bot, `variant_strong_bot.py`, infers the hidden hands from it),
the rules object and the pairs whose leader must lead a plain card (`dealer_leads_plain`).
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
    #: (seat, card) for every card played in the deal so far, the trick on the table's included.
    history: tuple[tuple[int, int], ...] = ()
    #: The table's rules object (`KozyolRules` or `Bilka2Rules`), or None.
    rules: object = None
    #: Kozyol's `dealer_leads_plain`: bit p set if pair p's leader must lead a plain card he holds.
    lead_restricted: int = 0


def play_history(leader: int, plays: list[int], winners: list[int],
                 next_seat: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """(seat, card) for each card of a deal: `leader` leads the first trick, each trick's winner
    (`winners`) the next; `next_seat[s]` plays after s (a trick has `len(next_seat)` cards)."""
    per_trick = len(next_seat)
    out = []
    at = leader
    for i, card in enumerate(plays):
        if i and not i % per_trick:
            at = winners[i // per_trick - 1]
        out.append((at, card))
        at = next_seat[at]
    return tuple(out)
