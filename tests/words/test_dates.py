"""A date and a time on a page read the same way every time in each language: the formats of
config/formats/ (24-hour clock, Kazakh months in lower case, no "p.m." beside "1 December")."""

from __future__ import annotations

import datetime
import re
import zoneinfo

import pytest
from django.test import Client
from django.urls import reverse

from clubs import services as club_services
from clubs.models import AuditEntry
from tests.tournaments.conftest import register_pairs
from tournaments import services

from .visible import visible_pieces

ALMATY = zoneinfo.ZoneInfo("Asia/Almaty")
#: A 12-hour clock's marks in the languages Django knows: English, Russian, Kazakh, Ukrainian.
TWELVE_HOUR = re.compile(r"\b(?:a\.m\.|p\.m\.|AM|PM)(?!\w)|Т\.Қ\.|п\.п\.|після полудня")


def shown_text(html: str) -> str:
    return " ".join(text for _, text in visible_pieces(html))


EXPECTED = {
    # language: (the event's day on every tournament page, the round's deadline on the round page)
    "en": ("1 December 2026", "deadline 3 December, 18:30"),
    "ru": ("1 декабря 2026 г.", "срок 3 декабря, 18:30"),
    "kk": ("1 желтоқсан 2026 ж.", "мерзім 3 желтоқсан, 18:30"),
    "uk": ("1 грудня 2026 р.", "3 грудня, 18:30"),
}


@pytest.fixture
def swiss_with_deadline(club, organiser, settings):
    settings.TIME_ZONE = "Asia/Almaty"
    t = services.create_tournament(
        actor=organiser, club=club, name="Декабрьский турнир", format="swiss", swiss_rounds=3,
        starts_on=datetime.date(2026, 12, 1),
    )  # fmt: skip
    register_pairs(t, organiser, 4)
    rnd = services.pair_next_round(actor=organiser, tournament=t)
    services.set_round_options(
        actor=organiser, round=rnd, deadline=datetime.datetime(2026, 12, 3, 18, 30, tzinfo=ALMATY),
        play_mode="", best_of=None,
    )  # fmt: skip
    return t


@pytest.mark.django_db
@pytest.mark.parametrize("language", sorted(EXPECTED))
def test_a_round_page_writes_its_dates_in_the_readers_format(swiss_with_deadline, language):
    page = Client(HTTP_ACCEPT_LANGUAGE=language).get(
        reverse("tournaments:round", args=[swiss_with_deadline.slug, 1])
    )
    html = " ".join(page.content.decode().split())
    day, deadline = EXPECTED[language]
    assert day in html
    assert deadline in html
    assert not TWELVE_HOUR.search(shown_text(page.content.decode()))


CHANGE_TIMES = {
    "en": "1 December, 16:30",
    "ru": "1 декабря, 16:30",
    "kk": "1 желтоқсан, 16:30",
    "uk": "1 грудня, 16:30",
}


@pytest.mark.django_db
@pytest.mark.parametrize("language", sorted(CHANGE_TIMES))
def test_the_rosters_recent_changes_give_day_month_and_a_24_hour_time(club, organiser, settings, language):
    settings.TIME_ZONE = "Asia/Almaty"
    club_services.add_player(actor=organiser, club=club, display_name="Марат Исаев", city="Успенка")
    AuditEntry.objects.filter(club=club).update(at=datetime.datetime(2026, 12, 1, 16, 30, tzinfo=ALMATY))
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(organiser)
    html = " ".join(client.get(reverse("clubs:roster", args=[club.slug])).content.decode().split())
    assert CHANGE_TIMES[language] in html
    assert not TWELVE_HOUR.search(shown_text(html)) and "12/01/2026" not in html
