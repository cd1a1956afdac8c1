"""Card-string helpers for the tests of Kozyol and Bilka for two (docs/other-games.md)."""

from __future__ import annotations

import random

from gameplay.engine.cards import PASS, card_from_str, card_to_str, deck_cards, mask_cards

VALUES = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}


def mask(text: str) -> int:
    return sum(1 << card_from_str(c) for c in text.split())


def ids(text: str) -> list[int]:
    return [card_from_str(c) for c in text.split()]


def strings(m: int) -> set[str]:
    return {card_to_str(c) for c in mask_cards(m)}


def points(cards: list[str] | set[str]) -> int:
    return sum(VALUES.get(c[0], 0) for c in cards)


def fill_hands(fixed: dict[int, str], deck: str, seed: int = 0, seats: int = 4) -> list[int]:
    """Hands of `seats` players: the cards in `fixed` (seat -> cards) and the rest of the deck at
    random, every hand the same size."""
    used = {c for text in fixed.values() for c in text.split()}
    rest = [card_to_str(c) for c in deck_cards(deck) if card_to_str(c) not in used]
    random.Random(seed).shuffle(rest)
    size = len(deck_cards(deck)) // 4
    out = []
    for seat in range(seats):
        have = fixed.get(seat, "").split()
        need = size - len(have)
        out.append(mask(" ".join(have + rest[:need])))
        rest = rest[need:]
    return out


def play_all_passing(state, rng: random.Random) -> None:
    """Random legal play to the end of the match, every redeal question answered "play"."""
    while state.winner is None:
        actions = state.legal_actions()
        state.apply(PASS if actions[-1] == PASS else rng.choice(actions))
