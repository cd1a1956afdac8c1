"""Builders for scripted deals and matches: hands chosen by hand or found by a seeded search.

A test states the deal (hands, plays) or the property the deal must have (e.g. "the pair on
duty takes exactly 68"), gets a bilka-record/1 document and scores it with the real scorer.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gameplay.engine.cards import (
    CLUBS,
    DIAMONDS,
    HEARTS,
    PASS,
    SEATS,
    SPADES,
    card_from_str,
    card_to_str,
    deck_cards,
    mask_cards,
)
from gameplay.engine.deal import DealLog, hand_qualifies
from gameplay.engine.match import MatchState
from gameplay.engine.record import score_record
from gameplay.engine.rules import Rules

REPO = Path(__file__).resolve().parents[3]
_VENV_PYTHON = REPO / ".venv" / "bin" / "python"
PYTHON = str(_VENV_PYTHON) if _VENV_PYTHON.exists() else sys.executable


def cards(text: str) -> list[str]:
    return text.split()


def deal(dealer: str, hands: dict[str, str], plays: str | list[str] | None = None,
         redeal: str | None = None) -> dict[str, Any]:
    d: dict[str, Any] = {"dealer": dealer, "hands": {s: cards(h) for s, h in hands.items()}}
    if redeal is not None:
        d["redeal"] = redeal
    else:
        d["plays"] = cards(plays) if isinstance(plays, str) else list(plays or [])
    return d


def record(deals: list[dict[str, Any]], rules: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    rec: dict[str, Any] = {"format": "bilka-record/1", "rules": rules or {}, "deals": deals}
    rec.update(extra)
    return rec


def score(rec: dict[str, Any]) -> dict[str, Any]:
    return score_record(json.dumps(rec))


def hands_json(masks: tuple[int, ...] | list[int]) -> dict[str, str]:
    return {SEATS[s]: " ".join(card_to_str(c) for c in mask_cards(masks[s])) for s in range(4)}


def masks_of(hands: dict[str, str]) -> tuple[int, int, int, int]:
    out = [0, 0, 0, 0]
    for s, text in hands.items():
        for c in cards(text):
            out[SEATS.index(s)] |= 1 << card_from_str(c)
    return (out[0], out[1], out[2], out[3])


def suits_after_first(jack_holder: int, direction: str = "clockwise") -> tuple[int, int, int, int]:
    """RULES.md: JC holder clubs, next hearts, partner spades, fourth diamonds."""
    step = 1 if direction == "clockwise" else 3
    suits = [0, 0, 0, 0]
    suits[jack_holder] = CLUBS
    suits[(jack_holder + step) % 4] = HEARTS
    suits[(jack_holder + 2) % 4] = SPADES
    suits[(jack_holder + 3 * step) % 4] = DIAMONDS
    return (suits[0], suits[1], suits[2], suits[3])


def random_masks(rng: random.Random, deck: str = "32") -> tuple[int, int, int, int]:
    cs = deck_cards(deck)
    rng.shuffle(cs)
    n = len(cs) // 4
    m = [sum(1 << c for c in cs[i * n:(i + 1) * n]) for i in range(4)]
    return (m[0], m[1], m[2], m[3])


def play_deal(rules: Rules, dealer: int, suits: tuple[int, int, int, int] | None, masks: tuple[int, ...],
              rng: random.Random) -> tuple[DealLog, list[int]]:
    """Play one deal with random legal cards (every redeal passed)."""
    st = MatchState(rules, auto_deal=False, first_dealer=dealer, rng=rng)
    st.suit_of_seat = suits
    st.start_deal((masks[0], masks[1], masks[2], masks[3]))
    while st.to_move is not None:
        acts = st.legal_actions()
        st.apply(PASS if acts[-1] == PASS else rng.choice(acts))
    log = st.deals[-1]
    return log, list(log.plays)


def find_deal(predicate: Callable[[DealLog], bool], rules: Rules | None = None, dealer: int = 0,
              suits: tuple[int, int, int, int] | None = None, seed: int = 0, tries: int = 50000,
              masks: tuple[int, int, int, int] | None = None) -> tuple[dict[str, str], list[str], DealLog]:
    """A random deal (or random play of the given hands) whose finished log satisfies `predicate`."""
    rules = rules or Rules()
    rng = random.Random(seed)
    for _ in range(tries):
        hands = masks or random_masks(rng, rules.deck)
        log, plays = play_deal(rules, dealer, suits, hands, rng)
        if predicate(log):
            return hands_json(hands), [card_to_str(c) for c in plays], log
    raise AssertionError("no deal found; widen the search")


class MatchBuilder:
    """Chains deals into a legal match record: dealers rotate, suits fixed by the first played deal."""

    def __init__(self, rules: dict[str, Any] | None = None, first_dealer: int = 3, seed: int = 0) -> None:
        self.rules_json = rules or {}
        self.rules = Rules.from_json(self.rules_json)
        self.dealer = first_dealer
        self.suits: tuple[int, int, int, int] | None = None
        self.deals: list[dict[str, Any]] = []
        self.logs: list[DealLog | None] = []
        self.rng = random.Random(seed)

    def _step(self) -> int:
        return 1 if self.rules.direction == "clockwise" else 3

    def played(self, predicate: Callable[[DealLog], bool] = lambda d: True) -> DealLog:
        hands, plays, log = find_deal(predicate, self.rules, self.dealer, self.suits,
                                      seed=self.rng.randrange(10**9))
        self.deals.append(deal(SEATS[self.dealer], hands, plays))
        self.logs.append(log)
        if self.suits is None:
            self.suits = suits_after_first(log.jack_holder, self.rules.direction)
        self.dealer = (self.dealer + self._step()) % 4
        return log

    def redeal(self) -> str:
        while True:
            masks = random_masks(self.rng, self.rules.deck)
            for seat in range(4):
                if hand_qualifies(self.rules, masks[seat]):
                    self.deals.append(deal(SEATS[self.dealer], hands_json(masks), redeal=SEATS[seat]))
                    self.logs.append(None)
                    return SEATS[seat]

    def record(self, **extra: Any) -> dict[str, Any]:
        return record(self.deals, self.rules_json, **extra)


def run_scorer(tmp_path: Path, content: str | bytes | dict[str, Any]) -> subprocess.CompletedProcess[str]:
    """Run `python -m gameplay.engine score FILE` as an organiser would."""
    path = tmp_path / "match.json"
    if isinstance(content, dict):
        content = json.dumps(content)
    if isinstance(content, str):
        content = content.encode()
    path.write_bytes(content)
    return subprocess.run([PYTHON, "-m", "gameplay.engine", "score", str(path)], cwd=REPO,
                          capture_output=True, text=True, timeout=60, check=False)


def complete_hands(fixed: dict[str, str], seed: int = 0, deck: str = "32",
                   jc_with: str | None = None) -> dict[str, str]:
    """Deal the cards not in `fixed` at random to the other seats (JC to `jc_with` if free)."""
    rng = random.Random(seed)
    used = {c for text in fixed.values() for c in cards(text)}
    rest = [card_to_str(c) for c in deck_cards(deck) if card_to_str(c) not in used]
    rng.shuffle(rest)
    n = len(deck_cards(deck)) // 4
    out = dict(fixed)
    free = [s for s in SEATS if s not in fixed]
    if jc_with is not None and "JC" in rest:
        rest.remove("JC")
        rest.insert(free.index(jc_with) * n, "JC")
    for i, s in enumerate(free):
        out[s] = " ".join(rest[i * n:(i + 1) * n])
    return out


# N holds the eight top trumps and leads them: NS take every trick and all 120 points.
LUCY_ALL_TRICKS = deal(
    "W",
    {
        "N": "JC JS JH JD AC TC KC QC",
        "E": "9C AS TS KS QS 9S 8S 7S",
        "S": "AH TH KH QH AD TD KD QD",
        "W": "8C 7C 9H 8H 7H 9D 8D 7D",
    },
    "JC 9C AH 8C  JS AS TH 7C  JH TS KH 9H  JD KS QH 8H "
    "AC QS AD 7H  TC 9S TD 9D  KC 8S KD 8D  QC 7S QD 7D",
)

# NS take all 120 points, but E wins the last trick, which holds no points.
LUCY_POINTS_ONLY = deal(
    "W",
    {
        "N": "JC JS JH JD AC TC KC 7D",
        "E": "AS TS KS QS QH QD 9D 8D",
        "S": "AH TH KH AD TD KD QC 7S",
        "W": "9C 8C 7C 9H 8H 7H 9S 8S",
    },
    "JC AS QC 9C  JS TS AH 8C  JH KS TH 7C  JD QS KH 9H "
    "AC QH AD 8H  TC QD TD 7H  KC 8D KD 9S  7D 9D 7S 8S",
)


def fingerprint(state: MatchState):
    """Everything that makes two match states the same."""
    return (
        state.rules, state.score, state.winner, state.end, state.penalties, state.suit_of_seat,
        state.eggs, state.redeal_streak, state.dealer, state.phase, state.hands, state.trick,
        state.to_move, state.legal_actions(), state.points, state.last_trick, state.players,
        [(d.dealer, d.hands, d.plays, d.redeal, d.trump, d.jack_holder, d.leader, d.trick_winners,
          d.outcome, d.points, d.eyes, d.score_after) for d in state.deals],
    )
