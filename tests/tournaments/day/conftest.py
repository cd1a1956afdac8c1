"""Fixtures of the tournament-day tests: Swiss events whose players all have accounts."""

import uuid

import pytest

from tournaments import services
from tournaments.models import DaySettings

from ..conftest import player_with_account


def swiss_with_accounts(
    club, organiser, pairs: int, *, name="Вечерняя швейцарка", rounds=3, auto_pair=True, **values
):
    values = {"format": "swiss", "swiss_rounds": rounds, "seeding": "manual", **values}
    t = services.create_tournament(actor=organiser, club=club, name=name, **values)
    for i in range(pairs):
        a = player_with_account(club, f"{t.slug[:10]}-p{i}a")
        b = player_with_account(club, f"{t.slug[:10]}-p{i}b")
        services.register_entry(actor=organiser, tournament=t, player_a=a, player_b=b)
    DaySettings.objects.create(tournament=t, auto_pair=auto_pair)
    return t


@pytest.fixture
def swiss8(club, organiser):
    return swiss_with_accounts(club, organiser, 8)


@pytest.fixture
def online8(club, organiser):
    return swiss_with_accounts(club, organiser, 8, name="Онлайн-швейцарка", play_mode="online", online=True)


@pytest.fixture
def day_queue(settings):
    queue = f"bilka-test-{settings.RUN_ID}-day-{uuid.uuid4().hex[:6]}"  # removed with the run's keys
    settings.TOURNAMENTS_DAY_QUEUE = queue
    return queue
