"""Every POST honours ``Idempotency-Key``: a client that lost the answer retries and gets the first
answer, never a second write; the key cannot be reused for another request; a refused write may be
sent again. And the organising scope: only a club's organiser may have a key that runs its events."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from api.models import IdempotentRequest
from clubs import services as club_services
from clubs.models import AuditEntry
from tests.tournaments.conftest import player_with_account
from tournaments.models import Entry

from .conftest import bearer, key_for

pytestmark = pytest.mark.django_db


def _register(api, swiss, key, a, b, idem=None, **extra):
    headers = {**bearer(key), **({"HTTP_IDEMPOTENCY_KEY": idem} if idem is not None else {})}
    url = reverse("api:entry_list", kwargs={"slug": swiss.slug})
    return api.post(url, {"player_a": a.pk, "player_b": b.pk}, format="json", **headers, **extra)


@pytest.fixture
def four(club):
    return [player_with_account(club, n) for n in ("asel", "oleh", "ivan", "nurlan")]


def test_a_retry_with_the_same_key_gets_the_first_answer_and_writes_nothing(
    api, club, organiser, swiss, four
):
    key = key_for(organiser, "write", [club])
    first = _register(api, swiss, key, four[0], four[1], idem="pair-1")
    again = _register(api, swiss, key, four[0], four[1], idem="pair-1")
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json() and again["Idempotent-Replayed"] == "true"
    assert "Idempotent-Replayed" not in first
    assert Entry.objects.filter(tournament=swiss).count() == 1
    assert AuditEntry.objects.filter(action="entry.create").count() == 1


def test_without_a_key_a_second_post_is_a_second_write(api, club, organiser, swiss, four):
    """What the key prevents: the same body twice is refused by the service (already entered)."""
    key = key_for(organiser, "write", [club])
    assert _register(api, swiss, key, four[0], four[1]).status_code == 201
    assert _register(api, swiss, key, four[0], four[1]).status_code == 409


def test_the_same_key_for_another_request_is_refused(api, club, organiser, swiss, four):
    key = key_for(organiser, "write", [club])
    assert _register(api, swiss, key, four[0], four[1], idem="k").status_code == 201
    other = _register(api, swiss, key, four[2], four[3], idem="k", HTTP_ACCEPT_LANGUAGE="ru")
    assert other.status_code == 409 and "Idempotency-Key" in other.json()["detail"]
    assert Entry.objects.filter(tournament=swiss).count() == 1


def test_keys_belong_to_their_account(api, club, organiser, owner, swiss, four):
    """Two organisers who happen to pick the same key do not see each other's answers."""
    first = _register(api, swiss, key_for(organiser, "write", [club]), four[0], four[1], idem="same")
    second = _register(api, swiss, key_for(owner, "write", [club]), four[2], four[3], idem="same")
    assert first.status_code == second.status_code == 201 and first.json()["id"] != second.json()["id"]


def test_a_refused_write_frees_its_key(api, club, organiser, swiss, four):
    key = key_for(organiser, "write", [club])
    assert _register(api, swiss, key, four[0], four[0], idem="fix-me").status_code == 409  # one player twice
    assert not IdempotentRequest.objects.exists()
    assert _register(api, swiss, key, four[0], four[0], idem="fix-me").status_code == 409  # ran again


def test_a_copy_sent_while_the_first_runs_is_refused_and_a_stale_one_is_taken_over(
    api, club, organiser, swiss, four
):
    import hashlib
    from datetime import timedelta

    from django.utils import timezone

    key = key_for(organiser, "write", [club])
    url = reverse("api:entry_list", kwargs={"slug": swiss.slug})
    body = f'{{"player_a":{four[0].pk},"player_b":{four[1].pk}}}'.encode()
    fingerprint = hashlib.sha256(f"POST {url}\n".encode() + body).hexdigest()
    running = IdempotentRequest.objects.create(user=organiser, key="k", fingerprint=fingerprint)
    def send():
        return api.post(url, body, content_type="application/json", **bearer(key), HTTP_IDEMPOTENCY_KEY="k")

    answer = send()
    assert answer.status_code == 409 and "still being handled" in answer.json()["detail"]
    assert not Entry.objects.filter(tournament=swiss).exists()
    IdempotentRequest.objects.filter(pk=running.pk).update(created_at=timezone.now() - timedelta(minutes=6))
    assert send().status_code == 201  # its worker died: the retry runs it


@pytest.mark.parametrize("bad", ["", "x" * 201, "ключ", "two words"])
def test_a_malformed_key_is_400(api, club, organiser, swiss, four, bad):
    key = key_for(organiser, "write", [club])
    answer = _register(api, swiss, key, four[0], four[1], idem=bad.encode().decode("latin-1"))
    assert answer.status_code == 400 and "Idempotency-Key" in answer.json()["detail"]
    assert not Entry.objects.filter(tournament=swiss).exists()


def test_the_schema_offers_the_key_on_every_post(api):
    schema = api.get("/api/schema/?format=json", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    posts = [op for path in schema["paths"].values() for method, op in path.items() if method == "post"]
    assert posts and all(any(p["name"] == "Idempotency-Key" for p in op["parameters"]) for op in posts)


def test_only_an_organiser_may_have_a_key_that_runs_a_clubs_events(club, organiser, member):
    _token, key = club_services.create_token(actor=organiser, name="desk", scope="organise", clubs=[club])
    assert key
    with pytest.raises(PermissionDenied):
        club_services.create_token(actor=member, name="desk", scope="organise", clubs=[club])
