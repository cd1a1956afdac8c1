"""The standings table's rows, written by ``standings_rows`` instead of a template loop (a 256-pair
table took 40% of its page's time in the template engine): the markup is the loop's, to the
character, for pairs and players, substitutes, prizes, withdrawals, ratings or none, in every
language. The loop it replaced is kept here as the reference."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.template import Context, Template
from django.utils import translation

LOOP = (Path(__file__).parent / "standings_rows_loop.html").read_text()  # the loop replaced
TAG = "{% load tournament_tags %}\n  {% standings_rows lines individual %}"


def _player(pk: int, name: str):
    return SimpleNamespace(pk=pk, display_name=name)


def _line(place: str, entry, *, withdrawn=False, prize=""):
    return SimpleNamespace(place_label=place, entry=entry, prize=prize,
                           row=SimpleNamespace(withdrawn=withdrawn))


def _pairs():
    odd = _player(7, 'Ann <b>O\'Brien</b> & "Co"')
    plain, single, empty = _player(8, "Игорь Петров"), _player(9, "Жанна"), _player(10, "")
    return [
        (_line("1", SimpleNamespace(player_a=odd, player_a_id=7, player_b=plain, player_b_id=8),
               prize="Лошадь <Орловская> & седло"),
         [Fraction(7, 2), 3, -12, Fraction(45, 4), 0], SimpleNamespace(rating=1512.5, provisional=True)),
        (_line("2=", SimpleNamespace(player_a=single, player_a_id=9, player_b=empty, player_b_id=10)),
         [3, 3, 0, Fraction(1, 3), Fraction(-5, 2)], SimpleNamespace(rating=1499.49, provisional=False)),
        (_line("5–8", SimpleNamespace(player_a=plain, player_a_id=8, player_b=odd, player_b_id=7),
               withdrawn=True, prize="Car"),
         [0, 1, 2.25, 1000, 12345.678], None),
    ]


def _players():
    leaver = SimpleNamespace(player=_player(11, "Ушедший <Игрок>"))
    return [
        (_line("1", SimpleNamespace(player_id=12, player=_player(12, "Запасной & Ко"), substitute_for_id=3,
                                    substitute_for=leaver, from_round=2), prize="Машина"),
         [Fraction(5, 2), 4], SimpleNamespace(rating=1600, provisional=True)),
        (_line("2", SimpleNamespace(player_id=11, player=leaver.player, substitute_for_id=None,
                                    from_round=None), withdrawn=True),
         [1, 1], None),
    ]


@pytest.mark.parametrize("language", ["ru", "kk", "uk", "en"])
@pytest.mark.parametrize("individual", [False, True])
def test_the_rows_are_the_template_loop_s_to_the_character(language, individual):
    context = {"lines": _players() if individual else _pairs(), "individual": individual}
    with translation.override(language):
        expected = Template(LOOP).render(Context(context))
        got = Template(TAG).render(Context(context))
    assert got == expected
    assert "&lt;b&gt;" in got or "&lt;Игрок&gt;" in got  # names are escaped


def test_a_table_without_the_individual_flag_is_a_pair_table():
    with translation.override("ru"):
        expected = Template(LOOP).render(Context({"lines": _pairs()}))
        got = Template(TAG).render(Context({"lines": _pairs()}))
    assert got == expected
