"""Pasted lists: a numbered list keeps the names without the numbers; a player repeated in the list,
or already entered, is reported by line and the rest are entered."""

import datetime

import pytest
from django.test import Client
from django.urls import reverse

from clubs import services as club_services
from clubs.models import Player
from tournaments import services

from .conftest import make_players

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(club, organiser):
    return services.create_tournament(
        actor=organiser, club=club, name="Вставка", starts_on=datetime.date(2026, 11, 7), format="ind_swiss"
    )


def _names(t):
    return sorted(t.individual_entries.values_list("player__display_name", flat=True))


def test_numbered_lines_keep_the_name_without_the_number(organiser, event):
    text = "1. Марат Бектуров\n2) Иван\n3 - Олег\n4.Әсел\n№5: Жанар\n10 — Нұрлан Ахметов"
    services.register_players_bulk(actor=organiser, tournament=event, text=text)
    assert _names(event) == sorted(["Марат Бектуров", "Иван", "Олег", "Әсел", "Жанар", "Нұрлан Ахметов"])
    assert not Player.objects.filter(display_name__regex=r"^\d").exists()


def test_numbered_pairs_keep_the_names(club, organiser):
    t = services.create_tournament(actor=organiser, club=club, name="Пары", format="swiss")
    result = services.register_entries_bulk(
        actor=organiser, tournament=t, text="1. Марат Бектуров & Иван\n2) Олег & Жанар"
    )
    assert [e.name for e in result.entries] == ["Марат Бектуров & Иван", "Олег & Жанар"]


def test_a_repeated_line_is_reported_and_the_rest_entered(client, club, organiser, event):
    already = make_players(club, 1, "Старожил")[0]
    services.register_player(actor=organiser, tournament=event, player=already)
    page = Client(HTTP_ACCEPT_LANGUAGE="en")
    page.force_login(organiser)
    text = f"1. Марат Бектуров\n2. Иван\n3. Марат Бектуров\n4. {already.display_name}\n5. Олег"
    response = page.post(reverse("tournaments:players_bulk", args=[event.slug]), {"text": text}, follow=True)
    body = response.content.decode()
    assert _names(event) == sorted(["Марат Бектуров", "Иван", "Олег", already.display_name])
    assert "3 player(s) registered." in body
    assert "Line 3: Марат Бектуров is already on line 1; entered once." in body
    assert f"Line 4: {already.display_name} is already registered in this tournament." in body


def test_a_repeated_pair_line_is_reported_and_the_rest_entered(club, organiser):
    t = services.create_tournament(actor=organiser, club=club, name="Пары дважды", format="swiss")
    page = Client(HTTP_ACCEPT_LANGUAGE="en")
    page.force_login(organiser)
    text = "1. Марат Бектуров & Иван\n2. Олег & Жанар\n3. Марат Бектуров & Асель"
    response = page.post(reverse("tournaments:entries_bulk", args=[t.slug]), {"text": text}, follow=True)
    body = response.content.decode()
    assert sorted(e.name for e in t.entries.all()) == ["Марат Бектуров & Иван", "Олег & Жанар"]
    assert "2 pair(s) registered" in body
    pair = "Марат Бектуров &amp; Иван"
    assert f"Line 3: Марат Бектуров is already registered in this tournament (pair {pair})." in body


def test_a_repeated_roster_player_in_another_alphabet_is_reported(club, organiser, event):
    club_services.add_player(actor=organiser, club=club, display_name="Нұрлан Ахметов")
    result = services.register_players_bulk(
        actor=organiser, tournament=event, text="Нұрлан Ахметов\nNurlan Akhmetov\nИван"
    )
    assert len(result.entries) == 2 and len(result.skipped) == 1
    assert result.skipped[0].startswith("Line 2: Нұрлан Ахметов is already on line 1")


def test_the_club_roster_paste_drops_list_numbers(club, organiser):
    result = club_services.bulk_add_players(
        actor=organiser, club=club, text="1. Марат Бектуров, Успенка\n2) Иван\n3 - Олег\n12"
    )
    names = [(e.player.display_name, e.player.city) for e in result.created]
    assert names == [("Марат Бектуров", "Успенка"), ("Иван", ""), ("Олег", ""), ("12", "")]
