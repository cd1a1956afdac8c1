"""`rules.parameters()` describes every rule parameter: what a form or an API needs, no private tables."""

from dataclasses import fields

import pytest

from gameplay.engine import RulesError
from gameplay.engine.rules import Rules, parameters


def test_every_parameter_is_described_in_order_with_its_default() -> None:
    described = parameters()
    assert [p.name for p in described] == [f.name for f in fields(Rules)]
    defaults = Rules()
    for p in described:
        assert p.default == getattr(defaults, p.name)
        assert p.kind in {"choice", "range", "bool"}
        if p.kind == "choice":
            assert p.default in p.choices
        if p.kind == "range":
            assert p.low is not None and p.high is not None and p.low <= p.default <= p.high


def test_what_a_parameter_accepts_is_what_the_rules_accept() -> None:
    for p in parameters():
        if p.kind == "choice":
            for value in p.choices:
                Rules.from_json({p.name: value})
        elif p.kind == "range":
            assert p.low is not None and p.high is not None
            Rules.from_json({p.name: p.low})
            Rules.from_json({p.name: p.high})
            with pytest.raises(RulesError):
                Rules.from_json({p.name: p.high + 1})
        else:
            Rules.from_json({p.name: not p.default})
