"""Opening a table: named presets of house rules, applied by the server (no script needed), and
every option on the page under one collapsible heading."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from gameplay.engine.rules import PRESETS, Rules
from gameplay.models import Table

CLASSIC = {"rout_at": 91, "lucy_by": "points", "eggs": "plus_four", "first_lead": "after_dealer"}


def _shown(preset: str = "online") -> dict:
    """What the form posts when nothing was touched: the options as shown, unchecked boxes left out."""
    return {k: v for k, v in PRESETS[preset].to_json().items() if v is not False}


def _open(client: Client, data: dict) -> Table:
    response = client.post("/tables/new/", {"seating": "in_order", **data})
    assert response.status_code == 302, response.content.decode()[:2000]
    return Table.objects.latest("pk")


@pytest.mark.django_db
def test_the_classic_preset_applies_without_a_script():
    table = _open(Client(), {**_shown(), "options_from": "online", "preset": "classic"})
    assert table.rules == {**Rules().to_json(), **CLASSIC}


@pytest.mark.django_db
def test_the_online_preset_is_todays_default():
    table = _open(Client(), {**_shown(), "preset": "online"})
    assert table.rules == Rules().to_json()


@pytest.mark.django_db
def test_an_option_changed_by_hand_wins_over_the_preset():
    table = _open(Client(), {**_shown(), "options_from": "online", "preset": "classic", "deck": "36"})
    assert table.rules == {**Rules().to_json(), **CLASSIC, "deck": "36"}
    # the page's script filled the classic options, then the player set the rout back to 90
    filled = {**_shown("classic"), "options_from": "classic", "preset": "classic", "rout_at": 90}
    table = _open(Client(), filled)
    assert table.rules == {**Rules().to_json(), **CLASSIC, "rout_at": 90}


@pytest.mark.django_db
def test_the_page_folds_the_options_under_one_heading_with_named_presets():
    html = Client(headers={"accept-language": "ru"}).get("/tables/new/").content.decode()
    assert html.count('<details class="tc-house"') == 1
    start = html.index('<details class="tc-house"')
    folded = html[start:html.index("</details>", start)]
    for name in Rules().to_json():
        assert f'name="{name}"' in folded
    assert "<select" not in folded  # choices are radio buttons whose words wrap on a phone
    assert "Онлайн-платформа" in html and "Классические правила" in html
    assert 'value="online" checked' in html


@pytest.mark.django_db
def test_an_unknown_preset_is_refused_in_the_users_language_and_keeps_the_options():
    client = Client(headers={"accept-language": "uk"})
    data = {**_shown(), "seating": "in_order", "preset": "fancy", "deck": "36"}
    response = client.post("/tables/new/", data)
    assert response.status_code == 200 and not Table.objects.exists()
    html = response.content.decode()
    assert "Зробить коректний вибір, fancy немає" in html
    assert re.search(r'value="36"[^>]*checked', html) and "<details class=\"tc-house\" open>" in html
