"""API keys: made and revoked on the account page, shown once, stored as a digest; what each scope
may do; a write goes through the match page's service (audit row, confirmation rules)."""

from __future__ import annotations

import hashlib

import pytest
from django.urls import reverse

from clubs.models import ApiToken, AuditEntry, Role
from tests.clubs.factories import PASSWORD, ClubFactory, MembershipFactory
from tournaments.models import MatchStatus

from .conftest import bearer, key_for

pytestmark = pytest.mark.django_db


def _signed_in(client, user):
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    assert client.login(username=user.username, password=PASSWORD)
    return client


def _result_url(match) -> str:
    return reverse("api:match_result", kwargs={"pk": match.pk})


def test_a_key_made_on_the_account_page_is_shown_once_and_stored_only_as_its_digest(client, organiser, club):
    _signed_in(client, organiser)
    page = client.post(reverse("clubs:api_token_create"), {"name": "results laptop", "scope": "write",
                                                            "clubs": [club.pk]})
    assert page.status_code == 200
    key = page.context["new_key"]
    assert len(key) >= 40 and f'value="{key}"' in page.content.decode()
    token = ApiToken.objects.get(user=organiser)
    assert token.digest == hashlib.sha256(key.encode()).hexdigest()
    stored = [str(v) for v in ApiToken.objects.filter(pk=token.pk).values().get().values()]
    assert key not in stored and key[:12] not in "".join(stored)
    assert key not in str(list(AuditEntry.objects.values("after", "before", "object_repr", "subject")))
    assert [c.pk for c in token.clubs.all()] == [club.pk] and token.scope == "write"
    again = client.get(reverse("clubs:my_profile"))
    assert key not in again.content.decode() and token.prefix in again.content.decode()


def test_a_revoked_key_is_refused(client, api, organiser):
    key = key_for(organiser)
    assert api.get(reverse("api:club_list"), **bearer(key)).status_code == 200
    _signed_in(client, organiser)
    token = ApiToken.objects.get(user=organiser)
    assert client.post(reverse("clubs:api_token_revoke", kwargs={"pk": token.pk})).status_code == 302
    answer = api.get(reverse("api:club_list"), **bearer(key))
    assert answer.status_code == 401 and answer["WWW-Authenticate"].startswith("Bearer")
    assert api.get(reverse("api:club_list"), **bearer("not-a-key")).status_code == 401


def test_another_accounts_key_cannot_be_revoked(client, organiser, member):
    key_for(organiser)
    _signed_in(client, member)
    token = ApiToken.objects.get(user=organiser)
    assert client.post(reverse("clubs:api_token_revoke", kwargs={"pk": token.pk})).status_code == 404
    assert ApiToken.objects.get(pk=token.pk).revoked_at is None


def test_a_write_key_names_only_clubs_its_owner_belongs_to(client, organiser):
    other = ClubFactory(name="Павлодар", slug="pavlodar-k")
    _signed_in(client, organiser)
    form = {"name": "x", "scope": "write", "clubs": [other.pk]}
    page = client.post(reverse("clubs:api_token_create"), form)
    assert page.status_code == 400 and not ApiToken.objects.exists()


def test_without_a_key_nothing_is_written(api, match):
    answer = api.post(_result_url(match), {"home_eyes": 12, "away_eyes": 7}, format="json")
    assert answer.status_code == 401
    match.refresh_from_db()
    assert match.status == MatchStatus.SCHEDULED


def test_a_read_key_cannot_write(api, organiser, match):
    answer = api.post(_result_url(match), {"home_eyes": 12, "away_eyes": 7}, format="json",
                      **bearer(key_for(organiser)))
    assert answer.status_code == 403
    match.refresh_from_db()
    assert match.status == MatchStatus.SCHEDULED


def test_a_write_key_for_another_club_cannot_write(api, organiser, match):
    other = ClubFactory(name="Павлодар", slug="pavlodar-w")
    MembershipFactory(club=other, user=organiser, role=Role.ORGANISER)
    key = key_for(organiser, "write", [other])
    answer = api.post(_result_url(match), {"home_eyes": 12, "away_eyes": 7}, format="json", **bearer(key))
    assert answer.status_code == 403
    match.refresh_from_db()
    assert match.status == MatchStatus.SCHEDULED


def test_an_organisers_result_is_confirmed_with_its_audit_row(api, organiser, club, match):
    key = key_for(organiser, "write", [club])
    answer = api.post(_result_url(match), {"home_eyes": 12, "away_eyes": 7}, format="json", **bearer(key))
    assert answer.status_code == 200, answer.content
    assert answer.json()["status"] == "confirmed" and answer.json()["winner"] == "home"
    match.refresh_from_db()
    assert match.status == MatchStatus.CONFIRMED and (match.home_eyes, match.away_eyes) == (12, 7)
    assert AuditEntry.objects.filter(action="match.report", actor=organiser, object_id=str(match.pk)).exists()


def test_a_players_result_waits_for_the_other_pair_who_confirms(api, club, match):
    home_user, away_user = match.home.player_a.user, match.away.player_a.user
    answer = api.post(_result_url(match), {"home_eyes": 9, "away_eyes": 12}, format="json",
                      **bearer(key_for(home_user, "write", [club])))
    assert answer.status_code == 200 and answer.json()["status"] == "unconfirmed"
    assert AuditEntry.objects.filter(action="match.report", actor=home_user).exists()
    confirm = reverse("api:match_confirm", kwargs={"pk": match.pk})
    same_side = api.post(confirm, **bearer(key_for(match.home.player_b.user, "write", [club])))
    assert same_side.status_code == 403 and "other pair" in same_side.json()["detail"]
    answer = api.post(confirm, **bearer(key_for(away_user, "write", [club])))
    assert answer.status_code == 200 and answer.json()["status"] == "confirmed"
    assert AuditEntry.objects.filter(action="match.confirm", actor=away_user).exists()


def test_a_player_who_does_not_play_the_match_is_refused_by_the_service(api, club, member, match):
    answer = api.post(_result_url(match), {"home_eyes": 12, "away_eyes": 7}, format="json",
                      **bearer(key_for(member, "write", [club])))
    assert answer.status_code == 403 and "do not play in this match" in answer.json()["detail"]


@pytest.mark.parametrize(("language", "words"), [("en", "already confirmed"), ("ru", "уже подтвержд")])
def test_a_refusal_is_worded_in_the_requests_language(api, organiser, club, match, language, words):
    key = key_for(organiser, "write", [club])
    api.post(_result_url(match), {"home_eyes": 12, "away_eyes": 7}, format="json", **bearer(key))
    answer = api.post(_result_url(match), {"home_eyes": 12, "away_eyes": 8}, format="json",
                      HTTP_ACCEPT_LANGUAGE=language, **bearer(key))
    assert answer.status_code == 409
    assert words in answer.json()["detail"].lower()


def test_a_malformed_result_is_400_with_the_field(api, organiser, club, match):
    key = key_for(organiser, "write", [club])
    answer = api.post(_result_url(match), {"home_eyes": "twelve"}, format="json", **bearer(key))
    assert answer.status_code == 400 and set(answer.json()["fields"]) == {"home_eyes", "away_eyes"}
