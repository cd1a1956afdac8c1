"""Reporting a result with a side's PIN, without an account: the same ordering as a player's report
(the other side confirms with its own PIN; the reporting side may fix its typo with its own)."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from clubs.models import AuditEntry
from tests.clubs.factories import UserFactory
from tournaments import services
from tournaments.models import Match, MatchStatus

pytestmark = pytest.mark.django_db

HALL = "203.0.113.50"


def _wrong(*pins):
    return next(p for p in ("0000", "1111", "2222", "3333") if p not in pins)


@pytest.fixture
def match(cup_match):
    Match.objects.filter(pk=cup_match.pk).update(home_pin="1357", away_pin="2468")
    cup_match.refresh_from_db()
    return cup_match


def _phone(n=1):
    return services.PinSender(session=f"phone-{n}", address=HALL)


def test_a_sides_pin_makes_that_side_the_reporter(match):
    services.enter_result(actor=None, match=match, home_eyes=12, away_eyes=8, pin="2468", sender=_phone())
    match.refresh_from_db()
    assert (match.status, match.reported_side, match.reported_by) == (MatchStatus.UNCONFIRMED, "away", None)
    row = AuditEntry.objects.get(action="match.report", object_id=str(match.pk))
    assert row.after["how"] == "pin" and row.actor is None


def test_a_signed_in_stranger_with_a_pin_reports_as_that_side_and_is_named(match):
    stranger = UserFactory(username="stranger")
    services.enter_result(actor=stranger, match=match, home_eyes=12, away_eyes=3, pin="1357", sender=_phone())
    match.refresh_from_db()
    assert (match.reported_side, match.reported_by) == ("home", stranger)


def test_a_signed_in_stranger_without_a_pin_is_refused_as_before(match):
    with pytest.raises(PermissionDenied, match="You do not play in this match"):
        services.enter_result(actor=UserFactory(username="stranger"), match=match, home_eyes=12, away_eyes=3)


def test_a_wrong_pin_is_refused_and_counted(match):
    for _ in range(services.PIN_SESSION_ALLOWANCE):
        with pytest.raises(services.WrongPin, match="Wrong PIN"):
            services.enter_result(actor=None, match=match, home_eyes=12, away_eyes=3,
                                  pin=_wrong("1357", "2468"), sender=_phone())  # fmt: skip
    with pytest.raises(ValidationError, match="Too many wrong PINs"):  # slowed, even with the right one
        services.enter_result(actor=None, match=match, home_eyes=12, away_eyes=3, pin="1357", sender=_phone())
    assert Match.objects.get(pk=match.pk).status == MatchStatus.SCHEDULED
    services.enter_result(actor=None, match=match, home_eyes=12, away_eyes=3, pin="1357", sender=_phone(2))
    assert Match.objects.get(pk=match.pk).status == MatchStatus.UNCONFIRMED


def test_no_pin_asks_for_it(match):
    with pytest.raises(ValidationError, match="Write the PIN printed on your half"):
        services.enter_result(actor=None, match=match, home_eyes=12, away_eyes=3, pin="", sender=_phone())


def test_the_other_sides_pin_confirms_and_cannot_report_over(match):
    services.enter_result(actor=None, match=match, home_eyes=12, away_eyes=3, pin="1357", sender=_phone())
    with pytest.raises(ValidationError, match="confirm it, or dispute it"):
        services.enter_result(actor=None, match=match, home_eyes=3, away_eyes=12, pin="2468", sender=_phone())
    with pytest.raises(services.WrongPin, match="PIN of the pair that reported"):
        services.confirm_result(actor=None, match=match, pin="1357", sender=_phone())
    assert Match.objects.get(pk=match.pk).status == MatchStatus.UNCONFIRMED
    services.confirm_result(actor=None, match=match, pin="2468", sender=_phone())
    match.refresh_from_db()
    assert (match.status, match.confirmed_how, match.home_eyes) == (MatchStatus.CONFIRMED, "pin", 12)


def test_the_reporting_side_fixes_its_typo_with_its_own_pin(match):
    services.enter_result(actor=None, match=match, home_eyes=12, away_eyes=3, pin="1357", sender=_phone())
    services.enter_result(actor=None, match=match, home_eyes=12, away_eyes=5, pin="1357", sender=_phone())
    match.refresh_from_db()
    assert (match.away_eyes, match.status, match.reported_side) == (5, MatchStatus.UNCONFIRMED, "home")


def test_a_player_with_an_account_confirms_a_report_made_by_pin(match):
    services.enter_result(actor=None, match=match, home_eyes=12, away_eyes=3, pin="1357", sender=_phone())
    away_player = match.away.player_a.user
    services.confirm_result(actor=away_player, match=match)
    assert Match.objects.get(pk=match.pk).status == MatchStatus.CONFIRMED


def test_a_confirmed_result_is_not_reported_again_by_pin(match, organiser):
    services.enter_result(actor=organiser, match=match, home_eyes=12, away_eyes=3)
    with pytest.raises(ValidationError, match="already confirmed"):
        services.enter_result(actor=None, match=match, home_eyes=3, away_eyes=12, pin="2468", sender=_phone())


# --- the match page


def test_a_visitor_reports_on_the_match_page_with_a_pin(client, match):
    page = client.get(match.get_absolute_url()).content.decode()
    assert 'name="pin"' in page and 'id="id_final_pin"' in page and 'autocomplete="off"' in page
    response = client.post(
        match.get_absolute_url(),
        {"action": "final", "final-home_eyes": "12", "final-away_eyes": "7", "pin": "2468"},
        follow=True,
    )
    assert "The result is saved." in response.content.decode()
    match.refresh_from_db()
    assert (match.status, match.reported_side, match.away_eyes) == (MatchStatus.UNCONFIRMED, "away", 7)


def test_a_visitor_reports_the_sheet_deal_by_deal_with_a_pin(client, match):
    rows = {}
    for i in range(1, 7):
        rows.update({f"deal-{i}-home": "100", f"deal-{i}-away": "20", f"deal-{i}-jack": "1"})
    client.post(match.get_absolute_url(), {"action": "deals", "pin": "1357", **rows})
    match.refresh_from_db()
    assert (match.home_eyes, match.away_eyes, match.reported_side) == (12, 0, "home")


def test_a_visitors_wrong_pin_on_the_match_page_says_so(client, match):
    response = client.post(
        match.get_absolute_url(),
        {"action": "final", "final-home_eyes": "12", "final-away_eyes": "7", "pin": _wrong("1357", "2468")},
        follow=True,
    )
    page = response.content.decode()
    assert "Wrong PIN" in page and 'value="7"' in page  # what was typed stays, the PIN does not
    assert 'value="' + _wrong("1357", "2468") not in page
    assert Match.objects.get(pk=match.pk).status == MatchStatus.SCHEDULED


def test_the_signed_in_players_page_asks_no_pin(client, match):
    client.force_login(match.home.player_a.user)
    page = client.get(match.get_absolute_url()).content.decode()
    assert 'id="id_final_pin"' not in page and 'id="enter"' in page
