"""A beginner bot: legal, sensible and fast, deciding from one seat's observation only.

It follows low, wins cheaply, gives points (schmears) to a partner who is sure to take the
trick, keeps its jacks for tricks holding an ace or a ten, and asks for a redeal with a hand
that has almost no high cards. It sees exactly what a human at that seat sees.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from gameplay.engine.cards import JACK_RANK, PASS, REDEAL, VALUE
from gameplay.engine.ladder import LEAD_KEY, PLAIN_ORDER, STRENGTH
from gameplay.engine.observation import Observation

#: A partner's card at least this strong (JS, JC) cannot be beaten later in the trick... almost.
_SAFE_STRENGTH = 42


def _is_trump(card: int, trump: int) -> bool:
    return card % 9 == JACK_RANK or card // 9 == trump


def _low_key(trump: int) -> Callable[[int], tuple[int, int, int]]:
    def key(card: int) -> tuple[int, int, int]:
        trumpish = _is_trump(card, trump)
        rank = card % 9
        return (1 if trumpish else 0, VALUE[card], 9 if rank == JACK_RANK else PLAIN_ORDER[rank])

    return key


def wants_redeal(hand: tuple[int, ...], trump: int) -> bool:
    """Ask for a redeal when the hand holds at most one jack-or-ace and is not long in trumps."""
    high = sum(1 for c in hand if c % 9 == JACK_RANK or (c % 9 == 8 and c // 9 != trump))
    long_trumps = sum(1 for c in hand if _is_trump(c, trump)) >= 5
    return high <= 1 and not long_trumps


def choose_action(obs: Observation, rng: random.Random) -> int:
    """The bot's action for the seat of `obs` (which must be the seat to move)."""
    legal = obs.legal
    if not legal:
        raise ValueError("the observed seat has no action to take")
    if obs.redeal_phase:
        assert obs.hand is not None and obs.trump is not None  # noqa: S101
        return REDEAL if REDEAL in legal and wants_redeal(obs.hand, obs.trump) else PASS
    if len(legal) == 1:
        return legal[0]
    trump = obs.trump if obs.trump is not None else 0
    low = _low_key(trump)
    trick = obs.trick
    if not trick:
        return _lead(obs, legal, trump, rng)
    lead = LEAD_KEY[trump][trick[0]]
    row = STRENGTH[trump * 4 + lead]
    best_pos = max(range(len(trick)), key=lambda i: row[trick[i]])
    best = row[trick[best_pos]]
    me = len(trick)
    last = me == 3
    partner_winning = best_pos == me - 2
    trick_points = sum(VALUE[c] for c in trick)
    if partner_winning:
        if last or best >= _SAFE_STRENGTH:
            gifts = [c for c in legal if c % 9 != JACK_RANK]
            if gifts:
                return max(gifts, key=lambda c: (VALUE[c], -row[c] if row[c] >= 0 else 0))
        return min(legal, key=low)
    winners = [c for c in legal if row[c] > best]
    plain_winners = [c for c in winners if c % 9 != JACK_RANK]
    jack_winners = [c for c in winners if c % 9 == JACK_RANK]
    if last:
        if plain_winners:
            return min(plain_winners, key=lambda c: (row[c], VALUE[c]))
        if jack_winners and trick_points >= 10:
            return min(jack_winners, key=lambda c: row[c])
        return min(legal, key=low)
    # second or third to play: take the trick only when it is likely to hold
    if plain_winners:
        top = max(plain_winners, key=lambda c: row[c])
        if top // 9 == lead and top % 9 == 8 and lead != trump and best < 20:
            return top  # the ace of the led plain suit, nobody has trumped yet
        if best >= 20 or trick_points >= 10:
            cheap = min(plain_winners, key=lambda c: row[c])
            if _is_trump(cheap, trump):
                return cheap
    if jack_winners and trick_points >= 10:
        return min(jack_winners, key=lambda c: row[c])
    return min(legal, key=low)


def _lead(obs: Observation, legal: tuple[int, ...], trump: int, rng: random.Random) -> int:
    plain = [c for c in legal if not _is_trump(c, trump)]
    aces = [c for c in plain if c % 9 == 8]
    if aces:
        return rng.choice(aces)
    if plain:
        hand = obs.hand or ()

        def short_low(card: int) -> tuple[int, int, int]:
            suit_len = sum(1 for c in hand if c // 9 == card // 9 and c % 9 != JACK_RANK)
            return (VALUE[card], suit_len, PLAIN_ORDER[card % 9])

        return min(plain, key=short_low)
    # only trumps: lead the strongest jack to draw trumps, else the lowest trump
    row = STRENGTH[trump * 4 + trump]
    jacks = [c for c in legal if c % 9 == JACK_RANK]
    if jacks and max(row[c] for c in jacks) == 43:
        return max(jacks, key=lambda c: row[c])
    return min(legal, key=lambda c: (VALUE[c], row[c]))


class BeginnerBot:
    """Callable form for the live tables: `BeginnerBot(rng)(observation) -> action`."""

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random()  # noqa: S311 - play choices, not secrets

    def __call__(self, obs: Observation) -> int:
        return choose_action(obs, self.rng)


__all__ = ["BeginnerBot", "choose_action", "wants_redeal"]
