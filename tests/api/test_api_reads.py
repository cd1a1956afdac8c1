"""Every seeded tournament, match and archived match read through the API answers 200 with a body
its OpenAPI schema allows (schemathesis' own validation), whatever the format: the generated
tests rarely guess a real slug, so each is asked for here by name."""

from __future__ import annotations

import pytest
import requests
import schemathesis
from django.core.management import call_command

from archive.models import ArchivedMatch
from tournaments.models import Match, Tournament

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def seeded(transactional_db):
    call_command("seed_demo", verbosity=0)
    call_command("seed_demo_tournaments", verbosity=0)
    call_command("seed_demo_tables", verbosity=0)


class Site:
    def __init__(self, url: str) -> None:
        self.url = url
        self.schema = schemathesis.openapi.from_url(f"{url}/api/schema/")

    def read(self, template: str, path: str):
        response = requests.get(f"{self.url}{path}", headers={"Accept-Language": "en"}, timeout=30)
        assert response.status_code == 200, (path, response.text[:500])
        self.schema[template]["GET"].validate_response(response)
        return response.json()


def test_every_seeded_thing_reads_as_its_schema_says(seeded, live_server):
    site = Site(live_server.url)
    formats = set()
    for t in Tournament.objects.all():
        formats.add(t.format)
        site.read("/api/v1/tournaments/{slug}/", f"/api/v1/tournaments/{t.slug}/")
        rounds = site.read("/api/v1/tournaments/{slug}/rounds/", f"/api/v1/tournaments/{t.slug}/rounds/")
        assert [r["number"] for r in rounds] == sorted(r["number"] for r in rounds)
        table = site.read("/api/v1/tournaments/{slug}/standings/", f"/api/v1/tournaments/{t.slug}/standings/")
        assert all(line["entry"]["players"] for line in table["lines"])
    assert len(formats) >= 3
    for pk in Match.objects.values_list("pk", flat=True):
        shown = site.read("/api/v1/matches/{id}/", f"/api/v1/matches/{pk}/")
        assert "home_pin" not in shown and "away_pin" not in shown
    for m in ArchivedMatch.objects.filter(public=True):
        site.read("/api/v1/archive/{id}/", f"/api/v1/archive/{m.pk}/")
    for name in ("clubs", "players", "tournaments", "archive"):
        listed = site.read(f"/api/v1/{name}/", f"/api/v1/{name}/?page_size=200")
        assert listed["count"] > 0
    site.read("/api/v1/ratings/", "/api/v1/ratings/?min_matches=0")
