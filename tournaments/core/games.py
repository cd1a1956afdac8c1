"""Which game a tournament plays, read from its rules (`Tournament.rules`): Bilka (no `game` key,
as every event before) or Kozyol khvalyony (`{"game": "kozyol", …}`), and each game's score sheet.

Pure: the engine's rules objects (`gameplay.engine.games`) and sheets (`sheets.py` for Bilka,
`kozyol_sheets.py` for Kozyol). Every reader of a tournament's rules that scores, checks or
compares them goes through here, so a Kozyol event is never read with Bilka's rules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from gameplay.engine.games import BILKA, game_of, rules_from_json
from gameplay.engine.kozyol import KozyolRules
from gameplay.engine.kozyol_rules import GAME as KOZYOL
from gameplay.engine.kozyol_sheets import KozyolDealSummary, KozyolScoreSheet, score_kozyol_sheet
from gameplay.engine.sheets import DealSummary, ScoreSheet, ScoringRules, score_sheet

#: The games a tournament may play (Bilka for two has no pairs, so no tournament format fits it).
TOURNAMENT_GAMES: Final = (BILKA, KOZYOL)
#: The games whose boards a duplicate event can deal: Bilka's (its boards fix the pair on duty,
#: the seats' suits and the jack of clubs' holder; Kozyol has none of them).
DUPLICATE_GAMES: Final = (BILKA,)


def tournament_game(rules: Mapping[str, Any] | None) -> str:
    """The game a tournament's rules name (`bilka` when they name none). RulesError for a game
    the engine does not know."""
    return game_of(rules or {})


def normalised_rules(data: Mapping[str, Any] | None) -> dict[str, Any]:
    """The rules object as the engine writes it, every key explicit (Bilka's without `game`);
    RulesError when it is not one."""
    return rules_from_json(data or {}).to_json()


def same_rules(a: Mapping[str, Any] | None, b: Mapping[str, Any] | None) -> bool:
    """Do two rules objects say the same thing (the same game, every rule equal)?"""
    return normalised_rules(a) == normalised_rules(b)


def score_deals(rules: Mapping[str, Any] | None,
                deals: Sequence[Mapping[str, Any]]) -> ScoreSheet | KozyolScoreSheet:
    """A match's deal-by-deal sheet scored by its game's rules: Bilka's deals are
    `{"points", "jack_holder", "all_tricks"}`, Kozyol's `{"points", "catch", "all_tricks"}`.
    InvalidScore names what cannot be."""
    if tournament_game(rules) == KOZYOL:
        kozyol = KozyolRules.from_json(rules)
        return score_kozyol_sheet([KozyolDealSummary(**d) for d in deals], kozyol)
    return score_sheet([DealSummary(**d) for d in deals], ScoringRules.from_rules(rules or {}))


__all__ = ["DUPLICATE_GAMES", "KOZYOL", "TOURNAMENT_GAMES", "normalised_rules", "same_rules", "score_deals",
           "tournament_game"]
