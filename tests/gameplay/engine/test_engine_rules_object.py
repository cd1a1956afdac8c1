"""The rules object: defaults, types and ranges of RULES.md; every error names its key."""

from __future__ import annotations

import dataclasses

import pytest

from gameplay.engine.errors import RulesError
from gameplay.engine.rules import Rules

DEFAULTS = {
    "deck": "32",
    "direction": "clockwise",
    "first_lead": "jack_holder",
    "ace_discard_ban": False,
    "rout_at": 90,
    "lucy_by": "tricks",
    "lucy": "win",
    "eggs": "double",
    "first_deal_two_eyes": False,
    "redeal_below": 14,
    "redeal_four_nines": False,
    "redeal_five_of_suit": False,
    "three_redeals_eye": False,
    "move_seconds": 60,
    "review_tricks": "last",
}


def test_defaults_are_those_of_rules_md():
    assert Rules().to_json() == DEFAULTS
    assert Rules.from_json({}) == Rules()


def test_rules_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        Rules().deck = "36"  # type: ignore[misc]


@pytest.mark.parametrize(
    "key,good",
    [
        ("deck", ["32", "36", "32-no-sevens", "28"]),
        ("direction", ["clockwise", "counterclockwise"]),
        ("first_lead", ["jack_holder", "after_dealer"]),
        ("lucy_by", ["tricks", "points"]),
        ("lucy", ["win", "zero"]),
        ("eggs", ["double", "four", "plus_four"]),
        ("review_tricks", ["last", "none"]),
        ("rout_at", [90, 91]),
        ("redeal_below", [0, 13, 14, 30]),
        ("move_seconds", [60, 600, 3600]),
        ("ace_discard_ban", [True, False]),
        ("first_deal_two_eyes", [True, False]),
        ("redeal_four_nines", [True, False]),
        ("redeal_five_of_suit", [True, False]),
        ("three_redeals_eye", [True, False]),
    ],
)
def test_every_allowed_value_is_accepted(key, good):
    for value in good:
        assert getattr(Rules.from_json({key: value}), key) == value


@pytest.mark.parametrize(
    "key,bad",
    [
        ("deck", [32, "52", None]),
        ("direction", ["left", 1]),
        ("first_lead", ["dealer"]),
        ("lucy_by", ["cards"]),
        ("lucy", ["lose", True]),
        ("eggs", ["triple"]),
        ("review_tricks", ["all", False]),
        ("rout_at", [True, 89, 92, "90", 90.0]),
        ("redeal_below", [-1, 31, True, "14", 14.5]),
        ("move_seconds", [59, 3601, False, None]),
        ("ace_discard_ban", [1, 0, "true", None]),
        ("first_deal_two_eyes", [1]),
        ("redeal_four_nines", ["yes"]),
        ("redeal_five_of_suit", [0]),
        ("three_redeals_eye", [1]),
    ],
)
def test_wrong_type_or_out_of_range_is_an_error_naming_the_key(key, bad):
    for value in bad:
        with pytest.raises(RulesError) as info:
            Rules.from_json({key: value})
        assert info.value.key == key
        assert key in str(info.value)


def test_json_true_is_not_an_integer_for_rout_at():
    with pytest.raises(RulesError, match="rout_at"):
        Rules.from_json({"rout_at": True})


def test_unknown_key_is_an_error_naming_it():
    with pytest.raises(RulesError) as info:
        Rules.from_json({"deck": "32", "jokers": True})
    assert info.value.key == "jokers"
    assert "jokers" in str(info.value)


def test_rules_must_be_an_object():
    with pytest.raises(RulesError):
        Rules.from_json(["deck", "32"])
