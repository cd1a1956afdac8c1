"""The players' details an organiser writes for the prize categories (year of birth, woman or man,
village) are his alone: no public page, export or API answer shows them, whoever asks."""

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from tests.api.conftest import bearer, key_for
from tests.clubs.factories import PASSWORD
from tournaments import selectors, services
from tournaments.core.prizes import setup_to_json

from .test_prizes import _played

pytestmark = pytest.mark.django_db

YEAR, VILLAGE = 1937, "Секретсай"


def _pages(t, entry):
    slug = {"slug": t.slug}
    player = entry.player_a_id
    yield from (
        reverse(f"tournaments:{name}", kwargs=slug)
        for name in ("home", "entries", "standings", "results", "hall")
    )
    yield from (
        reverse("tournaments:export", kwargs={**slug, "what": what, "fmt": fmt})
        for what in ("standings", "results")
        for fmt in ("csv", "json")
    )
    yield reverse("clubs:player_detail", kwargs={"pk": player})
    yield from (
        reverse(f"api:{name}", kwargs=slug) for name in ("tournament_detail", "standings", "entry_list")
    )
    yield reverse("api:player_detail", kwargs={"pk": player})


def test_no_public_page_export_or_api_answer_shows_the_details(client, club, organiser):
    t, entries, _quitter = _played(club, organiser, withdraw_after=None)
    winners = selectors.standings(tournament=t).lines[0].entry
    details = {p: (YEAR, "f", VILLAGE) for e in entries for p in (e.player_a_id, e.player_b_id)}
    services.save_player_details(actor=organiser, tournament=t, details=details)
    setup = setup_to_json(selectors.prize_setup(t))
    setup["categories"] = [
        {
            "name": "Ветераны",
            "rule": {"born_to": 1950},
            "prizes": [{"label": "Самовар", "amount": None, "indivisible": True}],
        }
    ]
    setup["one_prize"] = False  # every pair holds a place prize: the winners take the samovar too
    services.update_tournament(actor=organiser, tournament=t, prizes=setup)
    t.refresh_from_db()
    assert any(line.category == "Ветераны" and line.winners for line in selectors.prize_list(tournament=t))

    client.login(username="organiser", password=PASSWORD)
    own = client.get(reverse("tournaments:player_details", args=[t.slug])).content.decode()
    assert str(YEAR) in own and VILLAGE in own  # the organiser sees what he wrote

    api = APIClient()
    key = key_for(organiser, clubs=[club])
    for readers in ("anonymous", "organiser"):
        if readers == "anonymous":
            client.logout()
        for url in _pages(t, winners):
            if url.startswith("/api/"):
                response = api.get(url, **(bearer(key) if readers == "organiser" else {}))
            else:
                response = client.get(url)
            assert response.status_code == 200, url
            body = response.content.decode()
            assert str(YEAR) not in body and VILLAGE not in body, (readers, url)
