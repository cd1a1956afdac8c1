"""Result forms posted past the browser's checks (13, -1, text, missing fields): each says what is
wrong in the reader's language, as the dashboard does, and saves nothing."""

import datetime

import pytest
from django.test import Client
from django.utils.html import escape

from tests.clubs.factories import PASSWORD
from tournaments import services
from tournaments.models import Match, MatchStatus

from .conftest import player_with_account, register_pairs

pytestmark = pytest.mark.django_db

WHOLE = "Please give both scores as whole numbers."


@pytest.fixture
def table(club, organiser):
    """Round 1 of a four-pair Swiss whose first table has players with accounts on both sides."""
    swiss = services.create_tournament(
        actor=organiser, club=club, name="Ввод", starts_on=datetime.date(2026, 10, 2), format="swiss"
    )
    asel, oleh, ivan, nurlan = (player_with_account(club, u) for u in ("asel", "oleh", "ivan", "nurlan"))
    services.register_entry(actor=organiser, tournament=swiss, player_a=asel, player_b=oleh)
    register_pairs(swiss, organiser, 1, prefix="Сельчанин")
    services.register_entry(actor=organiser, tournament=swiss, player_a=ivan, player_b=nurlan)
    register_pairs(swiss, organiser, 1, prefix="Селянин")
    services.update_tournament(actor=organiser, tournament=swiss, seeding="manual")
    return services.pair_next_round(actor=organiser, tournament=swiss).matches.get(table=1)


def _as(username, language="en"):
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    assert client.login(username=username, password=PASSWORD)
    return client


def _final(client, match, home, away=None):
    data = {"action": "final", "final-home_eyes": home}
    if away is not None:
        data["final-away_eyes"] = away
    return client.post(match.get_absolute_url(), data).content.decode()


@pytest.mark.parametrize(
    "home, away, message",
    [
        ("13", "5", "eyes run from 0 to 12, not 13"),
        ("-1", "12", "eyes run from 0 to 12, not -1"),
        ("двенадцать", "5", WHOLE),
        ("12", None, WHOLE),
        ("", "", WHOLE),
    ],
)
def test_a_players_report_past_the_browser_checks_says_what_is_wrong(table, home, away, message):
    page = _final(_as("asel"), table, home, away)
    assert escape(message) in page
    assert Match.objects.get(pk=table.pk).status == MatchStatus.SCHEDULED
    if home:
        assert f'value="{escape(home)}"' in page, "what was typed stays in the form"


def test_the_organisers_entry_and_correction_say_the_same(table, organiser):
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(organiser)
    assert escape("eyes run from 0 to 12, not 13") in _final(client, table, "13", "0")
    services.enter_result(actor=organiser, match=table, home_eyes=12, away_eyes=5)
    assert WHOLE in _final(client, table, "x", "12")
    assert escape("eyes run from 0 to 12, not -1") in _final(client, table, "-1", "12")
    match = Match.objects.get(pk=table.pk)
    assert (match.home_eyes, match.away_eyes) == (12, 5)


def test_the_message_is_in_the_readers_language(table):
    page = _final(_as("asel", "ru"), table, "abc", "12")
    assert "Укажите оба счёта целыми числами." in page
    page = _final(_as("asel", "kk"), table, "", "12")
    assert "Екі есепті де бүтін санмен көрсетіңіз." in page


def test_a_deal_sheet_past_the_browser_checks_names_the_deal(table):
    client = _as("asel")
    url = table.get_absolute_url()
    bad = [
        ({"deal-1-home": "сто", "deal-1-jack": "1"}, "Deal 1: points are whole numbers."),
        ({"deal-1-home": "70", "deal-1-away": "50"}, "Deal 1: say which pair held the jack of clubs."),
        (
            {"deal-1-home": "70", "deal-1-jack": "1", "deal-1-all": "3"},
            "Deal 1: say which pair took every trick (1 or 2), or leave it empty.",
        ),
        ({"deal-1-home": "-1", "deal-1-jack": "2"}, "points run from 0 to 120, not -1"),
        ({}, "Write at least one deal."),
    ]
    for rows, message in bad:
        for action in ("deals", "preview"):
            page = client.post(url, {"action": action, **rows}).content.decode()
            assert escape(message) in page, (action, rows)
    assert Match.objects.get(pk=table.pk).status == MatchStatus.SCHEDULED


def test_confirming_without_a_pin_asks_for_it_instead_of_a_sign_in_page(table):
    services.enter_result(
        actor=table.home.player_a.user, match=table, home_eyes=12, away_eyes=4
    )
    response = Client(HTTP_ACCEPT_LANGUAGE="en").post(table.get_absolute_url(), {"action": "confirm"})
    assert response.status_code == 200
    assert "Write the PIN printed on your half of the score sheet." in response.content.decode()
    assert Match.objects.get(pk=table.pk).status == MatchStatus.UNCONFIRMED


def test_a_long_dispute_note_is_kept_not_dropped(table):
    services.enter_result(actor=table.home.player_a.user, match=table, home_eyes=12, away_eyes=4)
    note = "Во второй раздаче " + "очень " * 120
    _as(table.away.player_a.user.username).post(
        table.get_absolute_url(), {"action": "dispute", "note": note}
    )
    match = Match.objects.get(pk=table.pk)
    assert match.status == MatchStatus.DISPUTED and match.dispute_note.startswith("Во второй раздаче очень")
