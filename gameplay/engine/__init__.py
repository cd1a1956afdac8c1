"""Bilka rules engine: pure Python, no Django, no database, no network.

The live tables, bots, tournaments and the record scorer all stand on this package, so it
must be importable anywhere (a worker, a CLI, a test) without settings.
"""

from gameplay.engine.bot import BeginnerBot, choose_action
from gameplay.engine.cards import card_from_str, card_to_str
from gameplay.engine.errors import EngineError, IllegalAction, RecordError, RulesError
from gameplay.engine.observation import Observation
from gameplay.engine.record import read_record, record_to_json, score_record, write_record
from gameplay.engine.rules import Rules
from gameplay.engine.state import PASS, REDEAL, MatchState, Phase

__all__ = [
    "PASS",
    "REDEAL",
    "BeginnerBot",
    "EngineError",
    "IllegalAction",
    "MatchState",
    "Observation",
    "Phase",
    "RecordError",
    "Rules",
    "RulesError",
    "card_from_str",
    "card_to_str",
    "choose_action",
    "read_record",
    "record_to_json",
    "score_record",
    "write_record",
]
