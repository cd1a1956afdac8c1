"""A tournament's name, venue, description and prizes, and the pasted lists of an event: tidied as
every typed text is, with a limit, and roster names found whatever invisible or look-alike letters
the paste has."""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from clubs import services as club_services
from clubs.models import Player
from clubs.text_fields import PROSE_LENGTH
from tournaments import services
from tournaments.forms import TournamentForm
from tournaments.models import Tournament
from tournaments.selectors.prizes import prize_setup

pytestmark = pytest.mark.django_db


def _defaults() -> dict:
    """What the create form posts when only the name and what the test types are changed."""
    fields = TournamentForm().fields.items()
    data = {
        name: f.initial for name, f in fields if f.initial is not None and not isinstance(f.initial, bool)
    }
    data.update({name: "on" for name, f in fields if f.initial is True})
    return {**data, "starts_on": "2026-10-03", "matchday_days": 0}


def _create(client, club, organiser, **typed):
    client.force_login(organiser)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "ru"
    return client.post(reverse("tournaments:create", args=[club.slug]), {**_defaults(), **typed})


@pytest.mark.parametrize("typed", ["\u200b\u200b", "\u3164", "\u2800\u2800", "\u202e"])
def test_a_tournament_named_with_nothing_visible_is_refused(client, club, organiser, typed):
    page = _create(client, club, organiser, name=typed)
    assert page.status_code == 200
    assert "Напишите буквами или цифрами" in page.content.decode()
    assert not Tournament.objects.exists()


def test_the_name_and_venue_lose_an_unclosed_override_and_the_prizes_are_lines(client, club, organiser):
    page = _create(
        client,
        club,
        organiser,
        name="Кубок\u202e Успенки\u200b",
        venue="\u202eДом культуры",
        prizes="Кубок\u200b\n\n★",
    )
    assert page.status_code == 302
    t = Tournament.objects.get()
    assert (t.name, t.venue) == ("Кубок Успенки", "Дом культуры")
    assert [p.label for p in prize_setup(t).places] == ["Кубок", "★"]


def test_a_two_megabyte_description_is_refused_by_the_form_and_the_service(client, club, organiser):
    two_mb = "о" * (2 * 1024 * 1024 // 2)  # Cyrillic: two bytes a letter, 2 MB in all
    page = _create(client, club, organiser, name="Кубок", description=two_mb)
    assert f"Не больше {PROSE_LENGTH} символов, пожалуйста" in page.content.decode()
    with pytest.raises(ValidationError) as refused:
        services.create_tournament(actor=organiser, club=club, name="Кубок", description=two_mb)
    assert "description" in refused.value.message_dict
    assert not Tournament.objects.exists()


def test_a_pasted_pair_list_finds_roster_players_whatever_invisible_or_look_alike_letters(club, organiser):
    asel = club_services.add_player(actor=organiser, club=club, display_name="Асель Жумабаева").player
    oleg = club_services.add_player(actor=organiser, club=club, display_name="Олег Ткаченко").player
    t = services.create_tournament(
        actor=organiser, club=club, name="Пары", starts_on=datetime.date(2026, 11, 7), format="swiss"
    )
    text = "A\u0441ель Жумабаева\u200b & \u202eОлег Ткаченко\n1. Нұрлан & Әсел"
    result = services.register_entries_bulk(actor=organiser, tournament=t, text=text)
    first = result.entries[0]
    assert (first.player_a, first.player_b) == (asel, oleg)
    assert sorted(p.display_name for p in result.new_players) == ["Нұрлан", "Әсел"]


def test_a_pasted_name_of_symbols_is_refused_by_its_line(club, organiser):
    t = services.create_tournament(actor=organiser, club=club, name="Игроки", format="ind_swiss")
    with pytest.raises(ValidationError) as refused:
        services.register_players_bulk(actor=organiser, tournament=t, text="Нұрлан\n★★★")
    assert any(m.startswith(("Line 2:", "Строка 2:")) for m in refused.value.messages)
    assert not Player.objects.exists()
