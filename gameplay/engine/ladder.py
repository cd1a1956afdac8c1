"""Precomputed trick ladders: per trump suit, card strengths and the masks that follow a lead.

Built once at import so that deciding a legal card is a couple of mask operations and
deciding a trick's winner is one table look-up per card (RULES.md, "Trumps: two levels").
"""

from __future__ import annotations

from typing import Final

from gameplay.engine.cards import JACK_RANK, JACKS, NUM_CARDS, PLAIN_SUIT_MASK, SUIT_MASK

#: Plain order A > 10 > K > Q > 9 > 8 > 7 > 6, indexed by rank id (6789TJQKA); jack unused.
PLAIN_ORDER: Final = (0, 1, 2, 3, 6, -1, 4, 5, 7)
#: Jacks JC > JS > JH > JD, indexed by suit id (C D H S).
JACK_ORDER: Final = (3, 0, 1, 2)


def _lead_key(trump: int, card: int) -> int:
    """The led "suit" of a trick: the trump suit for a trump lead, else the card's suit."""
    if card % 9 == JACK_RANK or card // 9 == trump:
        return trump
    return card // 9


def _strength(trump: int, lead: int, card: int) -> int:
    suit, rank = divmod(card, 9)
    if rank == JACK_RANK:
        return 40 + JACK_ORDER[suit]
    if suit == trump:
        return 20 + PLAIN_ORDER[rank]
    if suit == lead:
        return PLAIN_ORDER[rank]
    return -1


#: LEAD_KEY[trump][card]
LEAD_KEY: Final = tuple(tuple(_lead_key(t, c) for c in range(NUM_CARDS)) for t in range(4))
#: STRENGTH[trump * 4 + lead_key][card]: higher wins; -1 cannot win the trick.
STRENGTH: Final = tuple(
    tuple(_strength(t, lead, c) for c in range(NUM_CARDS)) for t in range(4) for lead in range(4)
)
#: STRENGTH4[i][card] = 4 * STRENGTH[i][card], so that strength * 4 + seat keeps the
#: trick's best card and its seat in one int (the seat is `& 3`).
STRENGTH4: Final = tuple(tuple(4 * s for s in row) for row in STRENGTH)
#: TRUMPS[trump]: the four jacks and the non-jack cards of the trump suit.
TRUMPS: Final = tuple(JACKS | (SUIT_MASK[t] & ~JACKS) for t in range(4))
#: FOLLOW[trump * 4 + lead_key]: the cards that follow that lead.
FOLLOW: Final = tuple(
    TRUMPS[t] if lead == t else PLAIN_SUIT_MASK[lead] for t in range(4) for lead in range(4)
)
#: PLAIN_ACES[trump]: aces of the three plain suits (ace_discard_ban).
PLAIN_ACES: Final = tuple(
    sum(1 << (s * 9 + 8) for s in range(4) if s != t) for t in range(4)
)
