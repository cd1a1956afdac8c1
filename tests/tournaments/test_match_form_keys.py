"""A result sent twice from the match page with the same form key (a phone that kept it while offline
and sent it again) is entered once, and the second send gets the first answer: the same page and
the same message. The same key with other values, or while the first send still runs, is refused
in words; a refused send frees its key."""

import html
import re
import uuid
from datetime import timedelta

import pytest
from django.utils import timezone

from clubs import form_keys
from clubs.models import AuditEntry, SentForm
from tournaments.models import Match, MatchStatus

pytestmark = pytest.mark.django_db


def _report(client, match, key, home=12, away=7):
    return client.post(
        match.get_absolute_url(),
        {"action": "final", "final-home_eyes": home, "final-away_eyes": away, form_keys.FIELD: key},
    )


def _reports(match) -> int:
    return AuditEntry.objects.filter(action="match.report", object_id=str(match.pk)).count()


def _said(client, response) -> list[str]:
    """The messages the page the answer leads to shows (that page takes them)."""
    assert response.status_code == 302, response.status_code
    page = client.get(response["Location"]).content.decode()
    return [html.unescape(t) for t in re.findall(r'<li class="message message-\w+">(.*?)</li>', page)]


def test_the_match_page_gives_each_form_a_fresh_key(client, cup_match):
    client.force_login(cup_match.home.player_a.user)
    field = re.compile(rb'name="form_key" value="([0-9a-f]{32})"')
    keys = field.findall(client.get(cup_match.get_absolute_url()).content)
    again = field.findall(client.get(cup_match.get_absolute_url()).content)
    assert len(keys) >= 2 and len(set(keys)) == len(keys)  # the score and the sheet, each its own
    assert not set(keys) & set(again)


def test_a_report_sent_twice_with_one_key_is_entered_once_and_answered_alike(client, cup_match):
    client.force_login(cup_match.home.player_a.user)
    key = uuid.uuid4().hex
    first = _report(client, cup_match, key)
    assert first["Location"] == cup_match.get_absolute_url()
    assert _said(client, first) == ["The result is saved."]
    second = _report(client, cup_match, key)
    assert second.status_code == 302 and second["Location"] == first["Location"]
    assert second[form_keys.REPLAYED_HEADER] == "true"
    assert _said(client, second) == ["The result is saved."]
    assert _reports(cup_match) == 1
    cup_match.refresh_from_db()
    assert (cup_match.home_eyes, cup_match.away_eyes, cup_match.status) == (12, 7, MatchStatus.UNCONFIRMED)


def test_without_the_key_a_second_send_would_be_entered_again(client, cup_match):
    """What the key prevents: the reporting pair may fix its report, so each send is a new report."""
    client.force_login(cup_match.home.player_a.user)
    _report(client, cup_match, uuid.uuid4().hex)
    _report(client, cup_match, uuid.uuid4().hex)
    assert _reports(cup_match) == 2


def test_the_same_key_with_other_values_is_refused_and_changes_nothing(client, cup_match):
    client.force_login(cup_match.home.player_a.user)
    key = uuid.uuid4().hex
    assert _said(client, _report(client, cup_match, key, 12, 7)) == ["The result is saved."]
    other = _report(client, cup_match, key, 12, 3)
    assert other.status_code == 302 and other["Location"] == cup_match.get_absolute_url()
    assert _said(client, other) == [
        "This form was already sent with other values. Open the page again and send it anew."
    ]
    cup_match.refresh_from_db()
    assert (cup_match.home_eyes, cup_match.away_eyes) == (12, 7) and _reports(cup_match) == 1


def test_a_refused_send_frees_its_key_for_the_corrected_form(client, cup_match):
    client.force_login(cup_match.home.player_a.user)
    key = uuid.uuid4().hex
    refused = _report(client, cup_match, key, 12, 12)
    assert refused.status_code == 200 and _reports(cup_match) == 0
    assert not SentForm.objects.filter(key=key).exists()
    assert _report(client, cup_match, key, 12, 5).status_code == 302
    assert _reports(cup_match) == 1


def test_a_copy_arriving_while_the_first_runs_is_refused_in_words(client, cup_match, monkeypatch):
    user = cup_match.home.player_a.user
    client.force_login(user)
    key = uuid.uuid4().hex
    body = {"action": "final", "final-home_eyes": "12", "final-away_eyes": "7"}
    from django.test import RequestFactory

    probe = RequestFactory().post(cup_match.get_absolute_url(), body)
    SentForm.objects.create(owner=f"u:{user.pk}", path=cup_match.get_absolute_url(), key=key,
                            fingerprint=form_keys._fingerprint(probe))
    monkeypatch.setattr(form_keys, "WAIT_SECONDS", 0.3)
    answer = _report(client, cup_match, key)
    assert answer.status_code == 302
    assert _said(client, answer) == [
        "This form is still being sent from another tab or a moment ago. "
        "Open the page again in a moment to see whether it arrived."
    ]
    assert _reports(cup_match) == 0
    # a first send that never finished (its worker killed) frees the key after a while
    SentForm.objects.filter(key=key).update(created_at=timezone.now() - timedelta(minutes=6))
    assert _said(client, _report(client, cup_match, key)) == ["The result is saved."]
    assert _reports(cup_match) == 1


def test_a_damaged_key_is_refused_in_words(client, cup_match):
    client.force_login(cup_match.home.player_a.user)
    answer = _report(client, cup_match, "not a key!")
    assert _said(client, answer) == ["This form's key is damaged. Open the page again and send it anew."]
    assert _reports(cup_match) == 0


def test_a_visitor_confirming_with_the_pin_twice_confirms_once(client, cup_match):
    reporter = cup_match.home.player_a.user
    client.force_login(reporter)
    _report(client, cup_match, uuid.uuid4().hex)
    client.logout()
    match = Match.objects.get(pk=cup_match.pk)
    key = uuid.uuid4().hex
    body = {"action": "confirm", "pin": match.away_pin, form_keys.FIELD: key}
    first = client.post(match.get_absolute_url(), body)
    assert _said(client, first) == ["The result is confirmed. Thank you!"]
    second = client.post(match.get_absolute_url(), body)
    assert _said(client, second) == ["The result is confirmed. Thank you!"]
    assert second[form_keys.REPLAYED_HEADER] == "true"
    assert AuditEntry.objects.filter(action="match.confirm", object_id=str(match.pk)).count() == 1
    match.refresh_from_db()
    assert match.status == MatchStatus.CONFIRMED


def test_a_key_is_the_senders_own(client, cup_match):
    """Another account sending a copy with the same key runs its own send (here: refused, not his match)."""
    client.force_login(cup_match.home.player_a.user)
    key = uuid.uuid4().hex
    _report(client, cup_match, key)
    client.force_login(cup_match.away.player_a.user)
    answer = _report(client, cup_match, key)
    assert form_keys.REPLAYED_HEADER not in answer
    assert _reports(cup_match) == 1  # the other pair may not report over an unconfirmed result


def test_a_pin_is_kept_in_no_digest_of_a_sent_form():
    """The fingerprint of a sent form leaves the PIN out (four digits are soon found from a digest of
    otherwise known fields); the other fields still tell a different send from a copy."""
    from django.test import RequestFactory

    from clubs.form_keys import _fingerprint

    factory = RequestFactory()
    sent = {"action": "confirm", "form_key": "a" * 32, "csrfmiddlewaretoken": "x"}
    one = _fingerprint(factory.post("/", {**sent, "pin": "1234"}))
    other = _fingerprint(factory.post("/", {**sent, "pin": "9876", "csrfmiddlewaretoken": "y"}))
    assert one == other
    assert one != _fingerprint(factory.post("/", {**sent, "action": "dispute", "pin": "1234"}))
