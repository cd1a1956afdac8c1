"""Checking and describing the house rules of the other games (docs/other-games.md).

Bilka's own `rules.Rules` keeps its tables; the rules objects of `kozyol.py` and `bilka2.py` are
frozen dataclasses checked here against a `Spec`, with the same error wording (`RulesError`
naming the key) and the same `rules.Parameter` description for a form or an API.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from typing import Any, TypeVar

from gameplay.engine.errors import RulesError
from gameplay.engine.rules import Parameter


@dataclass(frozen=True)
class Spec:
    """What each parameter of one game's rules object accepts."""

    choices: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    int_choices: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    int_ranges: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    bools: tuple[str, ...] = ()


def show(value: object) -> str:
    """A value as it looks in JSON (`true`, `"90"`), since organisers write JSON."""
    try:
        return json.dumps(value)
    except (TypeError, ValueError):
        return repr(value)


def check(obj: object, spec: Spec) -> None:
    """RulesError naming the first parameter of `obj` that `spec` does not accept."""
    for key, allowed in spec.choices.items():
        value = getattr(obj, key)
        if not isinstance(value, str):
            raise RulesError(key, f"must be a string, one of {', '.join(allowed)}; not {show(value)}")
        if value not in allowed:
            raise RulesError(key, f"must be one of {', '.join(allowed)}; not {show(value)}")
    for key, ints in spec.int_choices.items():
        value = getattr(obj, key)
        _check_int(key, value)
        if value not in ints:
            raise RulesError(key, f"must be one of {', '.join(map(str, ints))}, not {value}")
    for key, (low, high) in spec.int_ranges.items():
        value = getattr(obj, key)
        _check_int(key, value)
        if not low <= value <= high:
            raise RulesError(key, f"must be an integer from {low} to {high}, not {value}")
    for key in spec.bools:
        if not isinstance(getattr(obj, key), bool):
            raise RulesError(key, f"must be true or false, not {show(getattr(obj, key))}")


def _check_int(key: str, value: object) -> None:
    # JSON true/false are Python bools, which are ints: refuse them explicitly.
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(key, f"must be an integer, not {show(value)}")


T = TypeVar("T")


def from_json(cls: type[T], game: str, data: Any) -> T:
    """Parse a rules object of `game`: a missing key takes its default, `game` may be given (and
    must then name this game), anything unknown is an error."""
    if data is None:
        return cls()
    if not isinstance(data, Mapping):
        raise RulesError("rules", "must be a JSON object")
    known = {f.name for f in fields(cls)}  # type: ignore[arg-type]
    kwargs: dict[str, Any] = {}
    for key, value in data.items():
        if key == "game":
            if value != game:
                raise RulesError("game", f"must be {game} in this rules object, not {show(value)}")
            continue
        if key not in known:
            raise RulesError(str(key), f"is not a rule parameter of {game}")
        kwargs[key] = value
    return cls(**kwargs)


def to_json(obj: Any, game: str) -> dict[str, Any]:
    """Every parameter explicitly, `game` first, so a record names its game and its rules."""
    out: dict[str, Any] = {"game": game}
    out.update(asdict(obj))
    return out


def parameters(cls: type[Any], spec: Spec) -> tuple[Parameter, ...]:
    """Every parameter of `cls` in field order, with its default and what it accepts."""
    defaults = cls()
    out: list[Parameter] = []
    for f in fields(cls):
        key = f.name
        default = getattr(defaults, key)
        if key in spec.choices:
            out.append(Parameter(key, "choice", default, choices=spec.choices[key]))
        elif key in spec.int_choices:
            out.append(Parameter(key, "choice", default, choices=spec.int_choices[key]))
        elif key in spec.int_ranges:
            low, high = spec.int_ranges[key]
            out.append(Parameter(key, "range", default, low=low, high=high))
        else:
            out.append(Parameter(key, "bool", default))
    return tuple(out)
