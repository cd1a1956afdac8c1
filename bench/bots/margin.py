"""Is the beginner bot sensible? Duplicate deals against a random-legal-card pair.

Each deal is played twice with the same hands: once with the bot pair on NS and the random
pair on EW, once the other way round. The bot pair's card-point margin over the two plays
(bot points minus random points, halved) cancels the luck of the cards. Prints the mean margin
with a 95% confidence interval (normal approximation), which must lie above 0.

Usage: .venv/bin/python -m bench.bots.margin [--deals 2000] [--seed 1]
"""

from __future__ import annotations

import argparse
import math
import random
import time

from gameplay.engine.bot import choose_action
from gameplay.engine.cards import (
    CLUBS,
    DIAMONDS,
    HEARTS,
    PASS,
    SPADES,
    deck_cards,
)
from gameplay.engine.match import MatchState
from gameplay.engine.rules import Rules


def play_once(hands: tuple[int, int, int, int], dealer: int, suits: tuple[int, int, int, int],
              bot_pair: int, rng: random.Random, rules: Rules) -> tuple[int, int]:
    """One deal; returns (NS points, EW points). Redeals are passed so both plays match."""
    state = MatchState(rules, auto_deal=False, first_dealer=dealer, rng=rng)
    state.suit_of_seat = suits
    state.start_deal(hands)
    log = state.deals[-1]
    while log.outcome is None:
        seat = state.to_move
        assert seat is not None
        actions = state.legal_actions()
        if actions[-1] == PASS:
            state.apply(PASS)
        elif seat & 1 == bot_pair:
            state.apply(choose_action(state.observation(seat), rng))
        else:
            state.apply(rng.choice(actions))
    return log.points


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    rules = Rules()
    deck = deck_cards(rules.deck)
    margins = []
    start = time.perf_counter()
    for _ in range(args.deals):
        cards = deck[:]
        rng.shuffle(cards)
        hands = tuple(sum(1 << c for c in cards[i * 8:(i + 1) * 8]) for i in range(4))
        dealer = rng.randrange(4)
        first_jack_holder = rng.randrange(4)  # whose suit is whose, as if fixed by an earlier deal
        suits = [0, 0, 0, 0]
        for offset, suit in enumerate((CLUBS, HEARTS, SPADES, DIAMONDS)):
            suits[(first_jack_holder + offset) % 4] = suit
        fixed = (suits[0], suits[1], suits[2], suits[3])
        ns_bot = play_once(hands, dealer, fixed, 0, rng, rules)  # type: ignore[arg-type]
        ew_bot = play_once(hands, dealer, fixed, 1, rng, rules)  # type: ignore[arg-type]
        margins.append(((ns_bot[0] - ns_bot[1]) + (ew_bot[1] - ew_bot[0])) / 2)
    n = len(margins)
    mean = sum(margins) / n
    sd = math.sqrt(sum((m - mean) ** 2 for m in margins) / (n - 1))
    half = 1.96 * sd / math.sqrt(n)
    elapsed = time.perf_counter() - start
    print(f"duplicate deals: {n} ({2 * n} plays) in {elapsed:.1f} s")
    print(f"bot pair card-point margin per deal: {mean:.2f} "
          f"(95% CI {mean - half:.2f} .. {mean + half:.2f}; sd {sd:.1f})")
    print("sensible: yes" if mean - half > 0 else "sensible: NO")


if __name__ == "__main__":
    main()
