"""The `game` parameter: which engine plays a table (docs/other-games.md).

`bilka` (four-player Bilka, the default: a rules object without `game` is Bilka's, read by
`rules.Rules` exactly as before), `kozyol` (Kozyol khvalyony for four, `kozyol.py`) or
`bilka-2` (Bilka for two, `bilka2.py`).

    rules = rules_from_json({"game": "kozyol", "deck": "32"})
    state = new_match(rules, seed=7)       # KozyolMatchState
    state.legal_actions(); state.apply(card)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from gameplay.engine import bilka2, bilka2_rules, kozyol, kozyol_rules
from gameplay.engine import rules as bilka_rules
from gameplay.engine.bilka2 import Bilka2MatchState, Bilka2Rules
from gameplay.engine.errors import RulesError
from gameplay.engine.house_rules import show
from gameplay.engine.kozyol import KozyolMatchState, KozyolRules
from gameplay.engine.match import MatchState
from gameplay.engine.rules import Parameter, Rules

BILKA: Final = "bilka"
GAMES: Final = (BILKA, kozyol.GAME, bilka2.GAME)
#: Seats at a table of each game.
SEATS: Final = {BILKA: 4, kozyol.GAME: 4, bilka2.GAME: 2}

AnyRules = Rules | KozyolRules | Bilka2Rules
AnyMatch = MatchState | KozyolMatchState | Bilka2MatchState


def game_of(data: Any) -> str:
    """The `game` a rules object names; `bilka` when it names none."""
    if data is None or not isinstance(data, Mapping) or "game" not in data:
        return BILKA
    game = data["game"]
    if game not in GAMES:
        raise RulesError("game", f"must be one of {', '.join(GAMES)}; not {show(game)}")
    return str(game)


def rules_from_json(data: Any) -> AnyRules:
    """Parse a rules object of any game, its `game` key choosing the game (default `bilka`)."""
    game = game_of(data)
    if game == kozyol.GAME:
        return KozyolRules.from_json(data)
    if game == bilka2.GAME:
        return Bilka2Rules.from_json(data)
    if data is not None and isinstance(data, Mapping) and "game" in data:
        data = {k: v for k, v in data.items() if k != "game"}
    return Rules.from_json(data)


def rules_to_json(rules: AnyRules) -> dict[str, Any]:
    """A rules object as JSON. Bilka's stays exactly as `Rules.to_json` writes it (no `game`
    key, so nothing written before changes); the other games name themselves."""
    return rules.to_json()


def game_name(rules: AnyRules) -> str:
    if isinstance(rules, KozyolRules):
        return kozyol.GAME
    if isinstance(rules, Bilka2Rules):
        return bilka2.GAME
    return BILKA


def parameters(game: str = BILKA) -> tuple[Parameter, ...]:
    """The rule parameters of `game`, as `rules.parameters()` describes Bilka's."""
    if game == kozyol.GAME:
        return kozyol_rules.parameters()
    if game == bilka2.GAME:
        return bilka2_rules.parameters()
    if game == BILKA:
        return bilka_rules.parameters()
    raise RulesError("game", f"must be one of {', '.join(GAMES)}; not {show(game)}")


def new_match(rules: AnyRules | None = None, **kwargs: Any) -> AnyMatch:
    """A match of the game `rules` belong to (`seed=`, `rng=`, `first_dealer=`, `auto_deal=`
    as each state takes them); no rules: Bilka with its defaults."""
    if isinstance(rules, KozyolRules):
        return KozyolMatchState(rules, **kwargs)
    if isinstance(rules, Bilka2Rules):
        return Bilka2MatchState(rules, **kwargs)
    return MatchState(rules, **kwargs)


__all__ = ["BILKA", "GAMES", "SEATS", "AnyMatch", "AnyRules", "game_name", "game_of", "new_match",
           "parameters", "rules_from_json", "rules_to_json"]
