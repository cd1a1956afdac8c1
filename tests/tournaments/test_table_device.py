"""The table device: one phone or tablet per hall table, opened by the table's code, where both pairs
report and confirm with their own PINs; its wrong PINs count per device, not per hall address."""

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from tournaments import services
from tournaments.models import Match, MatchStatus
from tournaments.selectors import devices

from .conftest import play_round, register_pairs

pytestmark = pytest.mark.django_db

HALL = "203.0.113.60"


@pytest.fixture
def hall(cup, organiser):
    """The cup's round 1 at eight tables, table 7's PINs known."""
    register_pairs(cup, organiser, 16)
    rnd = services.pair_next_round(actor=organiser, tournament=cup)
    Match.objects.filter(round=rnd, table=7).update(home_pin="0731", away_pin="0846")
    return cup


def _url(tournament, table, code=None):
    code = code or devices.device_code(tournament_id=tournament.pk, table=table)
    return reverse("tournaments:table_device", kwargs={"slug": tournament.slug, "table": table, "code": code})


def _match(tournament, table=7):
    return Match.objects.filter(tournament=tournament, table=table).order_by("-round__number").first()


def _device(n):
    return services.PinSender(session="", address=HALL, device=f"1:{n}")


# --- the wrong-PIN counters of a device


def test_a_devices_eleventh_wrong_pin_is_slowed_and_another_device_in_the_hall_is_not(hall):
    at_7, at_8 = _match(hall, 7), _match(hall, 8)
    seven = services.PinSender(session="", address=HALL, device=f"{hall.pk}:7")
    eight = services.PinSender(session="", address=HALL, device=f"{hall.pk}:8")
    for _ in range(services.PIN_DEVICE_ALLOWANCE):
        with pytest.raises(services.WrongPin):
            services.enter_result(actor=None, match=at_7, home_eyes=12, away_eyes=3, pin="0000", sender=seven)
    with pytest.raises(ValidationError, match="Too many wrong PINs"):
        services.enter_result(actor=None, match=at_7, home_eyes=12, away_eyes=3, pin="0731", sender=seven)
    services.enter_result(actor=None, match=at_8, home_eyes=12, away_eyes=3, pin=at_8.home_pin, sender=eight)
    assert Match.objects.get(pk=at_8.pk).status == MatchStatus.UNCONFIRMED


def test_devices_do_not_use_up_the_halls_address_allowance(hall):
    """Thirty devices behind the hall's one address each mistype a few times: the hall's phones
    (their own sessions, the same address) are not slowed, and neither is any device."""
    for table in range(1, 31):
        for _ in range(services.PIN_DEVICE_ALLOWANCE - 1):
            services.note_wrong_pin(sender=_device(table), match_id=50_000 + table)
    assert not services.pin_slowed(services.PinSender(session="a-phone", address=HALL), 7)
    assert not any(services.pin_slowed(_device(table), 50_000 + table) for table in range(1, 31))


def test_a_device_still_counts_per_match_from_its_address():
    sender = _device(3)
    for _ in range(services.PIN_MATCH_ADDRESS_ALLOWANCE):
        services.note_wrong_pin(sender=services.PinSender(session="", address=HALL), match_id=99)
    assert services.pin_slowed(sender, 99) and not services.pin_slowed(sender, 98)


# --- the code and the match it shows


def test_the_code_is_per_table_and_event_and_not_guessable_from_another(hall, cup, organiser):
    codes = {devices.device_code(tournament_id=hall.pk, table=t) for t in range(1, 31)}
    assert len(codes) == 30 and all(len(c) == devices.CODE_LENGTH and c.isalnum() for c in codes)
    assert devices.device_code(tournament_id=hall.pk + 1, table=7) not in codes


def test_a_device_shows_the_tables_current_match_and_none_when_no_match(hall, organiser):
    assert devices.device_match(tournament=hall, table=7).pk == _match(hall, 7).pk
    assert devices.device_match(tournament=hall, table=9) is None
    play_round(hall.rounds.get(number=1), organiser)
    services.pair_next_round(actor=organiser, tournament=hall)
    shown = devices.device_match(tournament=hall, table=7)
    assert shown.round.number == 2 and shown.table == 7


# --- the page


def test_a_visitor_opens_the_device_page_without_an_account(client, hall):
    m = _match(hall)
    response = client.get(_url(hall, 7))
    page = response.content.decode()
    assert response.status_code == 200
    assert "Table 7" in page and escape(m.home.name) in page and escape(m.away.name) in page
    assert "no-store" in response["Cache-Control"]
    assert m.home_pin not in page and m.away_pin not in page
    assert 'autocomplete="off"' in page and 'name="pin"' in page


def test_a_code_for_table_7_does_not_open_table_8_and_a_bad_code_is_404(client, hall):
    code_7 = devices.device_code(tournament_id=hall.pk, table=7)
    assert client.get(_url(hall, 8, code=code_7)).status_code == 404
    assert client.get(_url(hall, 7, code="abcdefghij")).status_code == 404
    assert client.get(_url(hall, 7, code=code_7.upper())).status_code == 200


def test_a_table_with_no_match_this_round_says_so(client, hall):
    page = client.get(_url(hall, 9)).content.decode()
    assert "No match at this table this round." in page


def _post(client, hall, data, table=7):
    m = _match(hall, table)
    return client.post(_url(hall, table), {"match": m.pk, **data}, REMOTE_ADDR=HALL)


def test_report_with_one_pin_and_confirm_with_the_other_on_the_same_device(client, hall):
    m = _match(hall)
    response = _post(client, hall, {"action": "final", "final-home_eyes": "12", "final-away_eyes": "9",
                                    "pin": "0731"})  # fmt: skip
    assert response.status_code == 302 and response["Location"] == _url(hall, 7)  # post, redirect, get
    m.refresh_from_db()
    assert (m.status, m.reported_side, m.reported_by) == (MatchStatus.UNCONFIRMED, "home", None)
    page = client.get(_url(hall, 7)).content.decode()
    assert "Now the other pair confirms it with its PIN." in page and "PIN of pair 2" in page
    assert "0731" not in page and 'value="12"' not in page
    _post(client, hall, {"action": "confirm", "pin": "0731"})  # pair 1's own PIN never confirms
    assert "PIN of the pair that reported" in client.get(_url(hall, 7)).content.decode()
    _post(client, hall, {"action": "confirm", "pin": "0846"})
    m.refresh_from_db()
    assert (m.status, m.confirmed_how) == (MatchStatus.CONFIRMED, "pin")
    page = client.get(_url(hall, 7)).content.decode()
    assert "The result is confirmed. Thank you!" in page and "12 : 9" in page


def test_a_wrong_pin_on_the_device_says_so_and_keeps_what_was_typed_but_the_pin(client, hall):
    _post(client, hall, {"action": "final", "final-home_eyes": "12", "final-away_eyes": "9", "pin": "0000"})
    page = client.get(_url(hall, 7)).content.decode()
    assert "Wrong PIN." in page and 'value="9"' in page and "0000" not in page
    assert _match(hall).status == MatchStatus.SCHEDULED
    assert 'value="9"' not in client.get(_url(hall, 7)).content.decode()  # shown once, then gone


def test_the_device_reports_the_sheet_deal_by_deal_and_shows_the_running_score(client, hall):
    rows = {}
    for i in range(1, 7):
        rows.update({f"deal-{i}-home": "20", f"deal-{i}-away": "100", f"deal-{i}-jack": "2"})
    _post(client, hall, {"action": "preview", **rows})
    page = client.get(_url(hall, 7)).content.decode()
    assert 'id="device-preview"' in page and 'value="100"' in page
    _post(client, hall, {"action": "deals", "pin": "0846", **rows})
    m = _match(hall)
    assert (m.home_eyes, m.away_eyes, m.reported_side) == (0, 12, "away")


def test_a_device_dispute_goes_to_the_organiser(client, hall):
    _post(client, hall, {"action": "final", "final-home_eyes": "12", "final-away_eyes": "9", "pin": "0846"})
    _post(client, hall, {"action": "dispute", "note": "было 12:10", "pin": "0731"})
    m = _match(hall)
    assert m.status == MatchStatus.DISPUTED and m.dispute_note == "было 12:10"


def test_a_form_for_a_match_the_table_no_longer_shows_changes_nothing(client, hall):
    data = {"match": _match(hall, 8).pk, "action": "final", "final-home_eyes": "12", "final-away_eyes": "9",
            "pin": "0731"}  # fmt: skip
    client.post(_url(hall, 7), data)
    assert "The match at this table has changed" in client.get(_url(hall, 7)).content.decode()
    assert not Match.objects.filter(tournament=hall).exclude(status=MatchStatus.SCHEDULED).exists()


def test_the_device_page_speaks_the_players_language(hall):
    ru = Client(HTTP_ACCEPT_LANGUAGE="ru")
    page = ru.get(_url(hall, 7)).content.decode()
    assert "Стол 7" in page and 'lang="ru"' in page
    kk = Client()
    kk.post(reverse("set_language"), {"language": "kk", "next": _url(hall, 7)})
    assert 'lang="kk"' in kk.get(_url(hall, 7)).content.decode()


def test_a_devices_wrong_pins_are_counted_on_the_device_not_the_address(client, hall):
    report = {"action": "final", "final-home_eyes": "12", "final-away_eyes": "9"}
    for _ in range(services.PIN_DEVICE_ALLOWANCE):
        _post(client, hall, {**report, "pin": "0000"})
    _post(client, hall, {**report, "pin": "0731"})
    assert "Too many wrong PINs" in client.get(_url(hall, 7)).content.decode()
    at_8 = _match(hall, 8)
    Client().post(_url(hall, 8), {"match": at_8.pk, **report, "pin": at_8.home_pin}, REMOTE_ADDR=HALL)
    assert _match(hall, 8).status == MatchStatus.UNCONFIRMED


# --- the organiser's table cards


def test_the_organiser_prints_a_card_per_table(client, hall, organiser):
    client.force_login(organiser)
    page = client.get(reverse("tournaments:table_cards", kwargs={"slug": hall.slug})).content.decode()
    assert page.count('class="table-card"') == 8 and _url(hall, 7) in page and "<svg" in page
    dashboard = client.get(reverse("tournaments:dashboard", kwargs={"slug": hall.slug})).content.decode()
    assert reverse("tournaments:table_cards", kwargs={"slug": hall.slug}) in dashboard
    sheets = client.get(reverse("tournaments:print_sheets", kwargs={"slug": hall.slug, "number": 1}))
    assert _url(hall, 7) in sheets.content.decode()


def test_the_public_pairing_print_out_has_no_table_codes(client, hall, organiser):
    url = reverse("tournaments:print_pairings", kwargs={"slug": hall.slug, "number": 1})
    assert _url(hall, 7) not in client.get(url).content.decode()
    client.force_login(organiser)
    assert _url(hall, 7) in client.get(url).content.decode()


def test_cards_before_the_first_round_count_the_entries(client, cup, organiser):
    register_pairs(cup, organiser, 6)
    client.force_login(organiser)
    page = client.get(reverse("tournaments:table_cards", kwargs={"slug": cup.slug})).content.decode()
    assert page.count('class="table-card"') == 3
