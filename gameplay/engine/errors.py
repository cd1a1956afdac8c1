"""Typed errors: each one says why, in the words a player or an organiser would use."""

from __future__ import annotations


class EngineError(Exception):
    """Base of every error the engine raises on purpose."""


class RulesError(EngineError):
    """A rules object is wrong; `key` names the parameter at fault."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"rules.{key}: {message}")
        self.key = key


class IllegalAction(EngineError):
    """An action that the rules do not allow now, e.g. a card that does not follow suit."""


class RecordError(EngineError):
    """A bilka-record/1 document that is malformed or breaks a rule.

    `deal` and `trick` count from 1 (redeals are deals); the message names the seat and card
    when a card is at fault, so an organiser can find the mistake in the paper score sheet.
    """

    def __init__(self, message: str, deal: int | None = None, trick: int | None = None) -> None:
        self.deal = deal
        self.trick = trick
        self.reason = message
        where = ""
        if deal is not None:
            where = f"deal {deal}"
            if trick is not None:
                where += f", trick {trick}"
            where += ": "
        super().__init__(where + message)
