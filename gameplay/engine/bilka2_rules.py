"""The rules object and the deal log of Bilka for two (docs/other-games.md, "Bilka for two").

The match is `bilka2.py`; its play rules are Bilka's own tables (`ladder.py`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Final

from gameplay.engine import house_rules
from gameplay.engine.cards import DECK_RANKS
from gameplay.engine.rules import Parameter

GAME: Final = "bilka-2"
#: The two players' letters (a four-seat record's N and S).
PLAYERS: Final = "NS"
#: eyes house rule -> (a win, a rout).
EYES: Final = {"1-2": (1, 2), "2-3": (2, 3)}

SPEC: Final = house_rules.Spec(
    choices={
        "deck": tuple(DECK_RANKS),
        "stock": ("halves", "after_trick"),
        "eyes": tuple(EYES),
        "lucy_by": ("tricks", "points"),
        "lucy": ("win", "zero"),
        "eggs": ("double", "four", "plus_four"),
        "review_tricks": ("last", "none"),
    },
    int_choices={"rout_at": (90, 91)},
    int_ranges={"move_seconds": (60, 3600)},
    bools=("ace_discard_ban", "first_deal_two_eyes"),
)


@dataclass(frozen=True, slots=True)
class Bilka2Rules:
    """A Bilka-for-two table's house rules ("House rules of Bilka for two"). `direction`,
    `first_lead` and the redeal rules are not parameters here, so a rules object naming them is
    refused (`house_rules.from_json`)."""

    game: ClassVar[str] = GAME
    deck: str = "32"
    stock: str = "halves"
    eyes: str = "1-2"
    ace_discard_ban: bool = False
    rout_at: int = 90
    lucy_by: str = "tricks"
    lucy: str = "win"
    eggs: str = "double"
    first_deal_two_eyes: bool = False
    move_seconds: int = 60
    review_tricks: str = "last"

    def __post_init__(self) -> None:
        house_rules.check(self, SPEC)

    @classmethod
    def from_json(cls, data: Any) -> Bilka2Rules:
        return house_rules.from_json(cls, GAME, data)

    def to_json(self) -> dict[str, Any]:
        return house_rules.to_json(self, GAME)


def parameters() -> tuple[Parameter, ...]:
    return house_rules.parameters(Bilka2Rules, SPEC)


class Bilka2DealLog:
    """One deal as it happened: the first hands, the stock in the order it is dealt or drawn,
    and `draws`, (player, card) in the order the stock's cards reached the hands."""

    __slots__ = ("dealer", "hands", "stock", "trump", "leader", "plays", "trick_winners", "draws",
                 "outcome", "points", "eyes", "score_after")

    def __init__(self, dealer: int, hands: tuple[int, int], stock: tuple[int, ...], trump: int,
                 leader: int) -> None:
        self.dealer = dealer
        self.hands = hands
        self.stock = stock
        self.trump = trump
        self.leader = leader
        self.plays: list[int] = []
        self.trick_winners: list[int] = []
        self.draws: list[tuple[int, int]] = []
        self.outcome: str | None = None
        self.points: tuple[int, int] = (0, 0)
        self.eyes: tuple[int, int] = (0, 0)
        self.score_after: tuple[int, int] = (0, 0)


def next_trump(last_card: int) -> int:
    """The trump suit after a deal whose last card was `last_card`: its printed suit (a jack's
    too, "Trumps")."""
    return last_card // 9


__all__ = ["EYES", "GAME", "PLAYERS", "SPEC", "Bilka2DealLog", "Bilka2Rules", "next_trump", "parameters"]
