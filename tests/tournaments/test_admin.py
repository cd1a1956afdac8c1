"""The admin lists and opens every tournament model for site staff."""

import pytest
from django.urls import reverse

from tests.clubs.factories import PASSWORD, UserFactory
from tournaments import services
from tournaments.models import DealLine, Entry, Match, ResultCorrection, Round, Substitution, Tournament

from .conftest import play_round, register_pairs

pytestmark = pytest.mark.django_db


def test_admin_pages_render(client, club, organiser):
    t = services.create_tournament(actor=organiser, club=club, name="Кубок", format="swiss", swiss_rounds=2)
    register_pairs(t, organiser, 4)
    rnd = services.pair_next_round(actor=organiser, tournament=t)
    play_round(rnd, organiser)
    match = rnd.matches.first()
    services.correct_result(actor=organiser, match=match, home_eyes=3, away_eyes=12, reason="бланк")
    admin = UserFactory(username="root", is_staff=True, is_superuser=True)
    client.login(username=admin.username, password=PASSWORD)
    for model in (Tournament, Entry, Round, Match, ResultCorrection, Substitution):  # deal lines: inline
        name = f"admin:tournaments_{model._meta.model_name}"
        assert client.get(reverse(f"{name}_changelist")).status_code == 200
        obj = model.objects.first()
        if obj is not None:
            assert client.get(reverse(f"{name}_change", args=[obj.pk])).status_code == 200
    assert DealLine.objects.count() == 0
