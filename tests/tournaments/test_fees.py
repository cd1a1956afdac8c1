"""Entry fees at the desk: the event's fee, each entry's payment written at check-in or later with
its audit row, the dashboard's unpaid and totals, the organisers' entries export, and none of it
on a public page, export or API read."""

from __future__ import annotations

import csv
import datetime
import io

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from clubs.models import AuditEntry
from tests.clubs.factories import PASSWORD
from tournaments import services
from tournaments.models import EntryStatus, Paid
from tournaments.selectors.fees import fee_totals

from .conftest import make_players, register_pairs

pytestmark = pytest.mark.django_db


@pytest.fixture
def fee_cup(club, organiser):
    """A Swiss asking 2 000 ₸ a pair, with four pairs registered."""
    t = services.create_tournament(
        actor=organiser, club=club, name="Кубок с взносом", starts_on=datetime.date(2026, 12, 12),
        format="swiss", swiss_rounds=3, entry_fee=2000,
    )  # fmt: skip
    register_pairs(t, organiser, 4)
    return t


def _pairs(t):
    return list(t.entries.order_by("seed", "id"))


def test_the_fee_is_a_setting_of_the_event_blank_or_zero_for_none(club, organiser, fee_cup):
    assert (fee_cup.entry_fee, fee_cup.fee_currency, fee_cup.fee_text) == (2000, "KZT", "2\u202f000\u00a0₸")
    t = services.update_tournament(actor=organiser, tournament=fee_cup, entry_fee=0, fee_currency="EUR")
    assert (t.entry_fee, t.fee_text) == (None, "")
    with pytest.raises(ValidationError):
        services.update_tournament(actor=organiser, tournament=fee_cup, fee_currency="USD")
    with pytest.raises(ValidationError):
        services.update_tournament(actor=organiser, tournament=fee_cup, entry_fee=-5)


def test_check_in_writes_the_fee_with_who_took_it_and_an_audit_row(organiser, fee_cup):
    pair = _pairs(fee_cup)[0]
    services.check_in_entry(actor=organiser, entry=pair, paid=Paid.CASH)
    pair.refresh_from_db()
    assert pair.status == EntryStatus.CHECKED_IN
    assert (pair.paid, pair.paid_amount, pair.paid_to) == (Paid.CASH, 2000, organiser)
    assert pair.paid_at is not None
    row = AuditEntry.objects.get(action="entry.payment", object_id=str(pair.pk))
    assert row.actor == organiser
    assert row.before == {"paid": "unpaid", "paid_amount": None}
    assert row.after == {"paid": "cash", "paid_amount": 2000}
    # corrected later: a transfer of another amount, then given back (not paid)
    services.record_payment(actor=organiser, entry=pair, paid=Paid.TRANSFER, amount=1500)
    pair.refresh_from_db()
    assert (pair.paid, pair.paid_amount) == (Paid.TRANSFER, 1500)
    services.record_payment(actor=organiser, entry=pair, paid=Paid.UNPAID)
    pair.refresh_from_db()
    assert (pair.paid, pair.paid_amount, pair.paid_to, pair.paid_at) == (Paid.UNPAID, None, None, None)
    assert AuditEntry.objects.filter(action="entry.payment", object_id=str(pair.pk)).count() == 3
    # the same again writes nothing
    services.record_payment(actor=organiser, entry=pair, paid=Paid.UNPAID)
    assert AuditEntry.objects.filter(action="entry.payment", object_id=str(pair.pk)).count() == 3


def test_a_check_in_without_a_choice_leaves_the_fee_as_it_was(organiser, fee_cup):
    pair = _pairs(fee_cup)[0]
    services.record_payment(actor=organiser, entry=pair, paid=Paid.WAIVED)
    services.check_in_entry(actor=organiser, entry=pair)
    pair.refresh_from_db()
    assert (pair.status, pair.paid) == (EntryStatus.CHECKED_IN, Paid.WAIVED)


def test_payments_are_refused_to_others_and_when_wrong(club, organiser, member, cup, fee_cup):
    pair = _pairs(fee_cup)[0]
    with pytest.raises(PermissionDenied):
        services.record_payment(actor=member, entry=pair, paid=Paid.CASH)
    with pytest.raises(ValidationError, match="cash, transfer, waived or not paid"):
        services.record_payment(actor=organiser, entry=pair, paid="card")
    with pytest.raises(ValidationError, match="whole number from 1"):
        services.record_payment(actor=organiser, entry=pair, paid=Paid.CASH, amount=0)
    free = register_pairs(cup, organiser, 1)[0]
    with pytest.raises(ValidationError, match="asks no entry fee"):
        services.check_in_entry(actor=organiser, entry=free, paid=Paid.CASH)
    free.refresh_from_db()
    assert free.status == EntryStatus.APPROVED  # all or nothing: the check-in did not stay either
    pair.refresh_from_db()
    assert pair.paid == Paid.UNPAID and not AuditEntry.objects.filter(action="entry.payment").exists()


def test_a_player_of_an_individual_event_pays_too(club, organiser):
    t = services.create_tournament(
        actor=organiser, club=club, name="Личный", format="ind_movement", entry_fee=500, fee_currency="UAH"
    )
    player = services.register_player(actor=organiser, tournament=t, player=make_players(club, 1)[0])
    services.check_in_player(actor=organiser, entry=player, paid=Paid.WAIVED)
    player.refresh_from_db()
    assert (player.status, player.paid, player.paid_amount) == (EntryStatus.CHECKED_IN, Paid.WAIVED, None)
    assert AuditEntry.objects.filter(action="individual.payment", object_id=str(player.pk)).exists()


def test_the_totals_count_those_in_the_event(organiser, fee_cup):
    a, b, c, d = _pairs(fee_cup)
    services.check_in_entry(actor=organiser, entry=a, paid=Paid.CASH)
    services.check_in_entry(actor=organiser, entry=b, paid=Paid.TRANSFER, amount=2500)
    services.check_in_entry(actor=organiser, entry=c, paid=Paid.WAIVED)
    extra = register_pairs(fee_cup, organiser, 1, prefix="Ушедший")[0]
    services.withdraw_entry(actor=organiser, entry=extra)  # withdrawn and unpaid: owes nothing
    totals = fee_totals(tournament=fee_cup)
    assert (totals.cash, totals.transfer, totals.taken, totals.waived) == (2000, 2500, 4500, 1)
    assert totals.expected == 3 * 2000  # the four in the event but the waived one
    assert [e.pk for e in totals.unpaid] == [d.pk]


def test_the_dashboard_shows_the_unpaid_and_the_totals(client, organiser, fee_cup):
    a, b, c, d = _pairs(fee_cup)
    services.check_in_entry(actor=organiser, entry=a, paid=Paid.CASH)
    services.check_in_entry(actor=organiser, entry=b, paid=Paid.TRANSFER)
    client.login(username="organiser", password=PASSWORD)
    page = client.get(reverse("tournaments:dashboard", args=[fee_cup.slug])).content.decode()
    assert "unpaid: 2" in page
    assert c.name.replace("&", "&amp;") in page and d.name.replace("&", "&amp;") in page
    assert "Taken in cash" in page and "4\u202f000\u00a0₸" in page  # both: the sum and what is taken
    assert "8\u202f000\u00a0₸" in page  # expected from the four


def test_the_entries_page_takes_the_fee_beside_check_in_for_organisers_only(
    client, organiser, member, fee_cup
):
    a, b, *_ = _pairs(fee_cup)
    url = reverse("tournaments:entries", args=[fee_cup.slug])
    client.login(username="organiser", password=PASSWORD)
    page = client.get(url).content.decode()
    assert 'name="paid"' in page and "fee: not yet" in page
    client.post(reverse("tournaments:entry_action", args=[fee_cup.slug, a.pk, "check-in"]), {"paid": "cash"})
    a.refresh_from_db()
    assert (a.status, a.paid, a.paid_amount) == (EntryStatus.CHECKED_IN, Paid.CASH, 2000)
    # corrected from the page: a transfer of 1 800, typed with a space
    pay = reverse("tournaments:entry_payment", args=[fee_cup.slug, a.pk])
    answer = client.post(pay, {"paid": "transfer", "amount": "1 800"})
    assert answer.status_code == 302
    a.refresh_from_db()
    assert (a.paid, a.paid_amount) == (Paid.TRANSFER, 1800)
    page = client.get(url).content.decode()
    assert "Transfer · 1\u202f800\u00a0₸" in page and "Taken by organiser" in page
    bad = client.post(pay, {"paid": "cash", "amount": "12,5"}, follow=True)
    assert "whole number" in bad.content.decode()
    client.logout()
    for who in (None, "member"):
        if who:
            client.login(username=who, password=PASSWORD)
        page = client.get(url).content.decode()
        assert 'name="paid"' not in page and "Transfer" not in page and "1\u202f800" not in page
        assert "entries/export.csv" not in page
    denied = client.post(reverse("tournaments:entry_payment", args=[fee_cup.slug, b.pk]), {"paid": "cash"})
    assert denied.status_code == 403
    b.refresh_from_db()
    assert b.paid == Paid.UNPAID


def test_the_organisers_export_has_the_payments_and_the_public_ones_do_not(client, organiser, fee_cup):
    a, b, *_ = _pairs(fee_cup)
    services.check_in_entry(actor=organiser, entry=a, paid=Paid.CASH)
    # six digits: no id of a test run reads so, so "not shown" cannot mistake one for it
    services.record_payment(actor=organiser, entry=b, paid=Paid.TRANSFER, amount=213700)
    url = reverse("tournaments:entries_export", args=[fee_cup.slug])
    assert client.get(url).status_code == 302  # to the sign-in page
    client.login(username="organiser", password=PASSWORD)
    answer = client.get(url)
    assert answer["Content-Type"].startswith("text/csv") and "private" in answer["Cache-Control"]
    rows = list(csv.DictReader(io.StringIO(answer.content.decode("utf-8-sig"))))
    assert len(rows) == 4
    assert (rows[0]["entry"], rows[0]["paid"], rows[0]["amount"], rows[0]["taken_by"]) == (
        a.name, "cash", "2000", "organiser"
    )  # fmt: skip
    assert (rows[1]["paid"], rows[1]["amount"], rows[1]["currency"]) == ("transfer", "213700", "KZT")
    assert (rows[2]["paid"], rows[2]["amount"]) == ("unpaid", "")
    for pair in _pairs(fee_cup)[1:]:
        services.check_in_entry(actor=organiser, entry=pair)
    services.pair_next_round(actor=organiser, tournament=fee_cup)
    client.logout()
    for what in ("standings", "results"):
        for fmt in ("csv", "json"):
            body = client.get(reverse("tournaments:export", args=[fee_cup.slug, what, fmt])).content.decode()
            assert "cash" not in body and "transfer" not in body and "213700" not in body
    for name in ("home", "entries", "standings"):
        body = client.get(reverse(f"tournaments:{name}", args=[fee_cup.slug])).content.decode()
        assert "Cash" not in body and "Transfer" not in body and "213\u202f700" not in body


def test_the_audit_log_words_a_payment(client, organiser, fee_cup):
    pair = _pairs(fee_cup)[0]
    services.check_in_entry(actor=organiser, entry=pair, paid=Paid.CASH)
    client.login(username="organiser", password=PASSWORD)
    page = client.get(reverse("tournaments:audit", args=[fee_cup.slug])).content.decode()
    assert "Pair&#x27;s entry fee written down" in page or "Pair's entry fee written down" in page
    assert "Cash" in page and "amount taken" in page


def test_the_settings_page_sets_the_fee_and_the_event_page_announces_it(client, organiser, fee_cup):
    from tournaments.forms import TournamentForm

    client.login(username="organiser", password=PASSWORD)
    edit = reverse("tournaments:edit", args=[fee_cup.slug])
    assert 'name="entry_fee"' in client.get(edit).content.decode()
    data = {k: ("" if v is None else v) for k, v in TournamentForm.initial_for(fee_cup).items()}
    data = {k: v for k, v in data.items() if v is not False}
    data |= {"entry_fee": "1500", "fee_currency": "EUR", "starts_on": "2026-12-12"}
    client.post(edit, data)
    fee_cup.refresh_from_db()
    assert (fee_cup.entry_fee, fee_cup.fee_currency) == (1500, "EUR")
    client.logout()
    home = client.get(fee_cup.get_absolute_url()).content.decode()
    assert "1\u202f500\u00a0€ a pair, at check-in" in home


def test_an_individual_events_players_page_takes_the_fee_too(client, club, organiser):
    t = services.create_tournament(
        actor=organiser, club=club, name="Личный", format="ind_movement", entry_fee=700
    )
    one, two = (
        services.register_player(actor=organiser, tournament=t, player=p) for p in make_players(club, 2)
    )
    client.login(username="organiser", password=PASSWORD)
    page = client.get(reverse("tournaments:entries", args=[t.slug])).content.decode()
    assert 'name="paid"' in page and "entries/export.csv" in page
    client.post(reverse("tournaments:player_check_in", args=[t.slug, one.pk]), {"paid": "transfer"})
    pay = reverse("tournaments:entry_payment", args=[t.slug, two.pk])
    client.post(pay, {"paid": "cash", "amount": "500"})
    one.refresh_from_db()
    two.refresh_from_db()
    assert (one.status, one.paid, one.paid_amount) == (EntryStatus.CHECKED_IN, Paid.TRANSFER, 700)
    assert (two.status, two.paid, two.paid_amount) == (EntryStatus.APPROVED, Paid.CASH, 500)
    rows = client.get(reverse("tournaments:entries_export", args=[t.slug])).content.decode("utf-8-sig")
    assert "transfer,700,KZT" in rows and "cash,500,KZT" in rows
