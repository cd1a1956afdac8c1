"""The frozen table parameters of RULES.md: defaults, types, ranges, and errors naming the key.

Every disagreement between the seeds is a parameter here, so a club plays its own house
rules by changing data, never code.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any

from gameplay.engine.cards import DECK_RANKS
from gameplay.engine.errors import RulesError

_CHOICES: dict[str, tuple[str, ...]] = {
    "deck": tuple(DECK_RANKS),
    "direction": ("clockwise", "counterclockwise"),
    "first_lead": ("jack_holder", "after_dealer"),
    "lucy_by": ("tricks", "points"),
    "lucy": ("win", "zero"),
    "eggs": ("double", "four", "plus_four"),
    "review_tricks": ("last", "none"),
}
_INT_CHOICES: dict[str, tuple[int, ...]] = {"rout_at": (90, 91)}
_INT_RANGES: dict[str, tuple[int, int]] = {"redeal_below": (0, 30), "move_seconds": (60, 3600)}
_BOOLS = (
    "ace_discard_ban",
    "first_deal_two_eyes",
    "redeal_four_nines",
    "redeal_five_of_suit",
    "three_redeals_eye",
)


@dataclass(frozen=True, slots=True)
class Rules:
    """One table's rules. Build from JSON with `Rules.from_json`; `Rules()` is the default game."""

    deck: str = "32"
    direction: str = "clockwise"
    first_lead: str = "jack_holder"
    ace_discard_ban: bool = False
    rout_at: int = 90
    lucy_by: str = "tricks"
    lucy: str = "win"
    eggs: str = "double"
    first_deal_two_eyes: bool = False
    redeal_below: int = 14
    redeal_four_nines: bool = False
    redeal_five_of_suit: bool = False
    three_redeals_eye: bool = False
    move_seconds: int = 60
    review_tricks: str = "last"

    def __post_init__(self) -> None:
        for key in _CHOICES:
            _check_choice(key, getattr(self, key), _CHOICES[key])
        for key, allowed in _INT_CHOICES.items():
            value = getattr(self, key)
            _check_int(key, value)
            if value not in allowed:
                raise RulesError(key, f"must be one of {', '.join(map(str, allowed))}, not {value}")
        for key, (low, high) in _INT_RANGES.items():
            value = getattr(self, key)
            _check_int(key, value)
            if not low <= value <= high:
                raise RulesError(key, f"must be an integer from {low} to {high}, not {value}")
        for key in _BOOLS:
            if not isinstance(getattr(self, key), bool):
                raise RulesError(key, f"must be true or false, not {_show(getattr(self, key))}")

    @classmethod
    def from_json(cls, data: Any) -> Rules:
        """Parse a rules object; a missing key takes its default, anything unknown is an error."""
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise RulesError("rules", "must be a JSON object")
        known = {f.name for f in fields(cls)}
        for key in data:
            if key not in known:
                raise RulesError(str(key), "is not a rule parameter")
        return cls(**data)

    def to_json(self) -> dict[str, Any]:
        """Every parameter, explicitly, so a record means the same if a default ever changes."""
        return asdict(self)


def _show(value: object) -> str:
    """A value as it looks in JSON (`true`, `"90"`), since organisers write JSON."""
    try:
        return json.dumps(value)
    except (TypeError, ValueError):
        return repr(value)


def _check_choice(key: str, value: object, allowed: tuple[str, ...]) -> None:
    if not isinstance(value, str):
        raise RulesError(key, f"must be a string, one of {', '.join(allowed)}; not {_show(value)}")
    if value not in allowed:
        raise RulesError(key, f"must be one of {', '.join(allowed)}; not {_show(value)}")


def _check_int(key: str, value: object) -> None:
    # JSON true/false are Python bools, which are ints: refuse them explicitly.
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(key, f"must be an integer, not {_show(value)}")


@dataclass(frozen=True, slots=True)
class Parameter:
    """How one rule parameter is described to a form or an API: its name, kind, default and bounds.

    `kind` is "choice" (one of `choices`, strings or integers), "range" (an integer from `low`
    to `high`) or "bool".
    """

    name: str
    kind: str
    default: str | int | bool
    choices: tuple[str | int, ...] = ()
    low: int | None = None
    high: int | None = None


def parameters() -> tuple[Parameter, ...]:
    """Every rule parameter in the order of `Rules`, with its default and what it accepts."""
    defaults = Rules()
    out: list[Parameter] = []
    for f in fields(Rules):
        key = f.name
        default = getattr(defaults, key)
        if key in _CHOICES:
            out.append(Parameter(key, "choice", default, choices=_CHOICES[key]))
        elif key in _INT_CHOICES:
            out.append(Parameter(key, "choice", default, choices=_INT_CHOICES[key]))
        elif key in _INT_RANGES:
            low, high = _INT_RANGES[key]
            out.append(Parameter(key, "range", default, low=low, high=high))
        else:
            out.append(Parameter(key, "bool", default))
    return tuple(out)


#: Named sets of house rules a table starts from (RULES.md): the online platform's defaults of
#: seed 000, which are `Rules()`, and the classic rules of seeds 001, 002 and 004 — rout from 91
#: ("спас"), Lucy by all 120 points, eggs plus four, the first lead after the dealer.
PRESETS: dict[str, Rules] = {
    "online": Rules(),
    "classic": Rules(rout_at=91, lucy_by="points", eggs="plus_four", first_lead="after_dealer"),
}
