"""`manage.py movement_tables`: the movements printed a round a line, with their checks."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command


def _run(**options) -> str:
    out = StringIO()
    call_command("movement_tables", stdout=out, **options)
    return out.getvalue()


def test_an_odd_field_prints_who_sits_out_and_the_check():
    text = _run(pairs="7", boards=3, movement="mitchell")
    lines = text.splitlines()
    assert lines[0] == "mitchell, 7 pairs, 3 boards a round: 4 tables, 3 rounds"
    assert lines[2].split()[:3] == ["1", "1-5", "b1-3"]
    # the phantom EW pair 8 leaves one table idle a round: its NS pair sits out
    assert [line.split()[-1] for line in lines[2:5]] == ["4", "1", "3"]
    assert lines[3].split()[1] == "—"  # table 1 idle in round 2
    assert lines[5].startswith("check: 4 sets (12 boards), each played 2 or 3 times")


def test_the_howell_plays_one_set_a_round_at_every_table():
    lines = _run(pairs="6", boards=2, movement="howell").splitlines()
    assert lines[0] == "howell, 6 pairs, 2 boards a round: 3 tables, 5 rounds"
    assert lines[3].split()[0] == "2" and lines[3].count("b3-4") == 3
    assert "each played 3 times" in lines[-2] and lines[-1] == ""


def test_bad_arguments_say_what_is_wrong():
    with pytest.raises(CommandError, match="at least four pairs"):
        _run(pairs="3", movement="howell")
    with pytest.raises(CommandError, match="unknown movement"):
        _run(movement="swiss")
    with pytest.raises(CommandError, match="numbers separated by commas"):
        _run(pairs="six")
