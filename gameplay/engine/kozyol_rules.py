"""Kozyol khvalyony's rules object, trump ladder and redeal grounds (docs/other-games.md).

The шамок (the six of clubs, or the lowest club of the deck standing in for it), the queens
QC > QS > QH > QD and the jacks JC > JS > JH > JD are permanent trumps in that order, then the
diamonds A > 10 > K > 9 > 8 > 7 > 6; the plain suits are clubs, hearts and spades without their
permanent trumps. The tables are built once at import, as `ladder.py` builds Bilka's, so that a
legal card is a mask operation and a trick's winner one look-up per card. The match is `kozyol.py`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Final, NamedTuple

from gameplay.engine import house_rules
from gameplay.engine.cards import (
    ACE_RANK,
    CLUBS,
    DECK_RANKS,
    DIAMONDS,
    HEARTS,
    JACK_RANK,
    JACKS,
    NINES,
    NUM_CARDS,
    RANKS,
    SEATS,
    SPADES,
    SUIT_MASK,
    card_to_str,
    deck_cards,
    mask_cards,
    mask_points,
)
from gameplay.engine.errors import IllegalAction
from gameplay.engine.ladder import JACK_ORDER, PLAIN_ORDER
from gameplay.engine.rules import Parameter

GAME: Final = "kozyol"
QUEEN_RANK: Final = 6
QC: Final = CLUBS * 9 + QUEEN_RANK
AD: Final = DIAMONDS * 9 + ACE_RANK
QUEENS: Final = sum(1 << (s * 9 + QUEEN_RANK) for s in range(4))
#: A win and a rout, whichever pair takes it (nobody is on duty).
WIN_EYES: Final = 2
ROUT_EYES: Final = 4

SPEC: Final = house_rules.Spec(
    choices={
        "deck": ("36", "32-no-sevens", "32", "28"),
        "direction": ("clockwise", "counterclockwise"),
        "first_lead": ("ace_of_diamonds", "after_dealer"),
        "lucy_by": ("tricks", "points"),
        "lucy": ("win", "zero"),
        "eggs": ("double", "four", "plus_four"),
        "review_tricks": ("last", "none"),
    },
    int_choices={"rout_at": (90, 91)},
    int_ranges={"redeal_below": (0, 30), "move_seconds": (60, 3600)},
    bools=("six_of_clubs", "dealer_leads_plain", "first_catch_wins", "ace_discard_ban",
           "first_deal_two_eyes", "redeal_four_nines", "redeal_five_of_suit", "redeal_queens",
           "three_redeals_eye"),
)


@dataclass(frozen=True, slots=True)
class KozyolRules:
    """A Kozyol table's house rules (the table "House rules of Kozyol khvalyony")."""

    game: ClassVar[str] = GAME
    deck: str = "36"
    direction: str = "clockwise"
    six_of_clubs: bool = True
    first_lead: str = "ace_of_diamonds"
    dealer_leads_plain: bool = False
    first_catch_wins: bool = False
    ace_discard_ban: bool = False
    rout_at: int = 90
    lucy_by: str = "tricks"
    lucy: str = "win"
    eggs: str = "double"
    first_deal_two_eyes: bool = False
    redeal_below: int = 14
    redeal_four_nines: bool = False
    redeal_five_of_suit: bool = False
    redeal_queens: bool = False
    three_redeals_eye: bool = False
    move_seconds: int = 60
    review_tricks: str = "last"

    def __post_init__(self) -> None:
        house_rules.check(self, SPEC)

    @classmethod
    def from_json(cls, data: Any) -> KozyolRules:
        return house_rules.from_json(cls, GAME, data)

    def to_json(self) -> dict[str, Any]:
        return house_rules.to_json(self, GAME)


def parameters() -> tuple[Parameter, ...]:
    return house_rules.parameters(KozyolRules, SPEC)


# ---------------------------------------------------------------------- the ladder
def shamok_of(deck: str, six_of_clubs: bool) -> int | None:
    """The шамок: the lowest club of the deck (6C with 36 and 32-no-sevens, 7C with 32, 8C with
    28), or None with `six_of_clubs=false`."""
    if not six_of_clubs:
        return None
    return CLUBS * 9 + RANKS.index(DECK_RANKS[deck][0])


class Ladder(NamedTuple):
    """One шамок's tables: which cards are trumps, the lead key of each card (DIAMONDS for a
    trump lead), strengths by lead key (x4, so strength * 4 + seat keeps the seat), what follows."""

    shamok: int | None
    trumps: int
    plain: tuple[int, int, int, int]
    lead_key: tuple[int, ...]
    strength: tuple[tuple[int, ...], ...]
    strength4: tuple[tuple[int, ...], ...]
    follow: tuple[int, int, int, int]
    plain_aces: int


#: The шамок's strength in every row of `Ladder.strength`: above every other card.
SHAMOK_STRENGTH: Final = 100


def _strength(shamok: int | None, trumps: int, lead: int, card: int) -> int:
    suit, rank = divmod(card, 9)
    if card == shamok:
        return SHAMOK_STRENGTH
    if rank == QUEEN_RANK:
        return 90 + JACK_ORDER[suit]
    if rank == JACK_RANK:
        return 80 + JACK_ORDER[suit]
    if suit == DIAMONDS:
        return 60 + PLAIN_ORDER[rank]
    if suit == lead and not trumps >> card & 1:
        return PLAIN_ORDER[rank]
    return -1


def _ladder(shamok: int | None) -> Ladder:
    trumps = QUEENS | JACKS | SUIT_MASK[DIAMONDS] | (1 << shamok if shamok is not None else 0)
    plain = tuple(SUIT_MASK[s] & ~trumps for s in range(4))
    lead_key = tuple(DIAMONDS if trumps >> c & 1 else c // 9 for c in range(NUM_CARDS))
    strength = tuple(tuple(_strength(shamok, trumps, lead, c) for c in range(NUM_CARDS)) for lead in range(4))
    follow = tuple(trumps if lead == DIAMONDS else plain[lead] for lead in range(4))
    aces = sum(1 << (s * 9 + ACE_RANK) for s in (CLUBS, HEARTS, SPADES))
    return Ladder(shamok, trumps, (plain[0], plain[1], plain[2], plain[3]), lead_key, strength,
                  tuple(tuple(4 * v for v in row) for row in strength),
                  (follow[0], follow[1], follow[2], follow[3]), aces)


#: LADDERS[shamok]: None (no шамок), 6C, 7C or 8C.
LADDERS: Final[dict[int | None, Ladder]] = {s: _ladder(s) for s in (None, 0, 1, 2)}


def ladder_of(rules: KozyolRules) -> Ladder:
    return LADDERS[shamok_of(rules.deck, rules.six_of_clubs)]


def trump_order(rules: KozyolRules) -> list[int]:
    """The deck's trumps from the highest down (for the rules page and the tests)."""
    ladder = ladder_of(rules)
    cards = [c for c in deck_cards(rules.deck) if ladder.trumps >> c & 1]
    return sorted(cards, key=lambda c: -ladder.strength[DIAMONDS][c])


# ---------------------------------------------------------------------- the redeal
def redeal_grounds(rules: KozyolRules, hand: int) -> list[tuple[str, int]]:
    """Why a hand may ask for a redeal ("Redeal"): Bilka's points, four nines and five of a suit
    (permanent trumps not counted toward a suit, the diamonds counted), and `redeal_queens`."""
    grounds: list[tuple[str, int]] = []
    if rules.redeal_below:
        points = mask_points(hand)
        if points < rules.redeal_below:
            grounds.append(("points", points))
    if rules.redeal_four_nines and hand & NINES == NINES:
        grounds.append(("four_nines", 0))
    if rules.redeal_five_of_suit:
        ladder = ladder_of(rules)
        permanent = ladder.trumps & ~SUIT_MASK[DIAMONDS] | QUEENS | JACKS
        for suit in range(4):
            if (hand & SUIT_MASK[suit] & ~permanent).bit_count() >= 5:
                grounds.append(("five_of_suit", suit))
    if rules.redeal_queens:
        shamok = shamok_of(rules.deck, rules.six_of_clubs)
        top = QUEENS & ~(1 << (DIAMONDS * 9 + QUEEN_RANK))
        if hand & QUEENS == QUEENS or (shamok is not None and hand >> shamok & 1 and hand & top == top):
            grounds.append(("queens", 0))
    return grounds


def redeal_possible(rules: KozyolRules) -> bool:
    return bool(rules.redeal_below or rules.redeal_four_nines or rules.redeal_five_of_suit
                or rules.redeal_queens)


class KozyolDealLog:
    """One deal as it happened. `catch` is the seat whose шамок caught the queen of clubs."""

    __slots__ = ("dealer", "hands", "plays", "redeal", "passed", "leader", "trick_winners",
                 "outcome", "points", "eyes", "score_after", "catch")

    def __init__(self, dealer: int, hands: tuple[int, int, int, int], leader: int) -> None:
        self.dealer = dealer
        self.hands = hands
        self.plays: list[int] = []
        self.redeal: int | None = None
        self.passed: list[int] = []
        self.leader = leader
        self.trick_winners: list[int] = []
        self.outcome: str | None = None
        self.points: tuple[int, int] = (0, 0)
        self.eyes: tuple[int, int] = (0, 0)
        self.score_after: tuple[int, int] = (0, 0)
        self.catch: int | None = None

    @property
    def trump(self) -> int:
        return DIAMONDS


def check_hands(hands: tuple[int, ...] | list[int], deck: str, mask: int, size: int) -> None:
    if len(hands) != 4:
        raise IllegalAction("a deal needs four hands")
    seen = 0
    for seat, hand in enumerate(hands):
        if hand & ~mask:
            raise IllegalAction(f"{card_to_str(mask_cards(hand & ~mask)[0])} is not in the {deck} deck "
                                f"(hand of {SEATS[seat]})")
        if hand & seen:
            raise IllegalAction(f"{card_to_str(mask_cards(hand & seen)[0])} is dealt twice "
                                f"(hand of {SEATS[seat]})")
        if hand.bit_count() != size:
            raise IllegalAction(f"{SEATS[seat]} has {hand.bit_count()} cards, not {size}")
        seen |= hand


__all__ = ["AD", "GAME", "QC", "QUEENS", "QUEEN_RANK", "ROUT_EYES", "SHAMOK_STRENGTH", "SPEC", "WIN_EYES",
           "KozyolDealLog", "KozyolRules", "Ladder", "check_hands", "ladder_of", "parameters",
           "redeal_grounds", "redeal_possible", "shamok_of", "trump_order"]
