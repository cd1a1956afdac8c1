"""A pair's self-registration waits for a partner who has an account: "olga & anna" is not in the
event until anna (or the organiser for her) accepts, and anna may meanwhile enter with someone else."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from clubs.models import AuditEntry
from tournaments import selectors, services
from tournaments.formats import format_of
from tournaments.models import EntryStatus, Notification

from .conftest import make_players, player_with_account, register_pairs

pytestmark = pytest.mark.django_db


@pytest.fixture
def cup(club, organiser):
    return services.create_tournament(
        actor=organiser,
        club=club,
        name="Весенний кубок",
        starts_on=datetime.date(2026, 4, 4),
        format="swiss",
        swiss_rounds=3,
        seeding="manual",
        self_registration=True,
    )


@pytest.fixture
def olga(club):
    return player_with_account(club, "olga")


@pytest.fixture
def anna(club):
    return player_with_account(club, "anna")


def _entries_page(client, cup) -> str:
    return client.get(reverse("tournaments:entries", args=[cup.slug])).content.decode()


def test_olga_and_anna_waits_for_anna_and_anna_may_enter_with_someone_else(cup, olga, anna, club):
    asked = services.self_register(actor=olga.user, tournament=cup, partner=anna)
    assert asked.status == EntryStatus.PARTNER
    notice = Notification.objects.get(user=anna.user, kind="entry.partner_request")
    assert "Olga" in notice.text and notice.url.endswith(f"#entry-{asked.pk}")
    # anna is free: not registered, and she registers with her real partner
    assert not selectors.is_registered(tournament=cup, player_id=anna.pk)
    assert selectors.is_registered(tournament=cup, player_id=olga.pk)
    real = make_players(club, 1, prefix="Настоящая")[0]
    hers = services.self_register(actor=anna.user, tournament=cup, partner=real)
    assert hers.status == EntryStatus.PENDING
    asked.refresh_from_db()
    assert asked.status == EntryStatus.WITHDRAWN  # olga's request lapsed
    assert Notification.objects.filter(user=olga.user, kind="entry.lapsed").exists()
    assert AuditEntry.objects.filter(action="entry.lapse", object_id=str(asked.pk)).exists()
    with pytest.raises(ValidationError, match="lapsed"):
        services.accept_partner(actor=anna.user, entry=asked)
    # olga is free again too
    assert not selectors.is_registered(tournament=cup, player_id=olga.pk)


def test_the_pair_is_in_once_anna_accepts_and_the_organiser_approves(cup, olga, anna, organiser):
    asked = services.self_register(actor=olga.user, tournament=cup, partner=anna)
    with pytest.raises(PermissionDenied):
        services.accept_partner(actor=olga.user, entry=asked)  # only the partner asked answers
    with pytest.raises(PermissionDenied):
        services.accept_partner(actor=organiser, entry=asked)
    accepted = services.accept_partner(actor=anna.user, entry=asked)
    assert accepted.status == EntryStatus.PENDING
    assert Notification.objects.filter(user=olga.user, kind="entry.partner_accepted").exists()
    assert selectors.is_registered(tournament=cup, player_id=anna.pk)
    assert services.approve_entry(actor=organiser, entry=accepted).status == EntryStatus.APPROVED


def test_the_organiser_approves_for_the_partner(cup, olga, anna, organiser, club):
    asked = services.self_register(actor=olga.user, tournament=cup, partner=anna)
    other = player_with_account(club, "maria")
    second = services.self_register(actor=other.user, tournament=cup, partner=anna)
    assert services.approve_entry(actor=organiser, entry=asked).status == EntryStatus.APPROVED
    assert Notification.objects.filter(user=anna.user, kind="entry.partner_confirmed").exists()
    second.refresh_from_db()
    assert second.status == EntryStatus.WITHDRAWN  # anna is taken now: maria's request lapsed


def test_anna_declines(cup, olga, anna):
    asked = services.self_register(actor=olga.user, tournament=cup, partner=anna)
    assert services.decline_partner(actor=anna.user, entry=asked).status == EntryStatus.WITHDRAWN
    assert Notification.objects.filter(user=olga.user, kind="entry.partner_declined").exists()
    assert not selectors.is_registered(tournament=cup, player_id=olga.pk)


def test_anna_registering_with_olga_answers_olgas_request(cup, olga, anna):
    asked = services.self_register(actor=olga.user, tournament=cup, partner=anna)
    answered = services.self_register(actor=anna.user, tournament=cup, partner=olga)
    assert answered.pk == asked.pk and answered.status == EntryStatus.PENDING
    assert cup.entries.count() == 1


def test_a_partner_without_an_account_is_registered_as_before(cup, olga, club):
    villager = make_players(club, 1, prefix="Сельчанка")[0]
    entry = services.self_register(actor=olga.user, tournament=cup, partner=villager)
    assert entry.status == EntryStatus.PENDING


def test_a_pair_waiting_for_its_partner_is_not_counted_seeded_checked_in_or_paired(
    cup, olga, anna, organiser
):
    services.update_tournament(actor=organiser, tournament=cup, entry_cap=4)
    asked = services.self_register(actor=olga.user, tournament=cup, partner=anna)
    pairs = register_pairs(cup, organiser, 4)  # the cap holds four, the waiting pair takes no place
    assert selectors.active_count(tournament=cup) == 4
    fmt = format_of(cup)
    assert asked.pk not in {e.pk for e in fmt.ranked_entries()}
    with pytest.raises(ValidationError, match="not accepted"):
        services.check_in_entry(actor=organiser, entry=asked)
    with pytest.raises(ValidationError, match="full"):
        services.accept_partner(actor=anna.user, entry=asked)
    round1 = services.pair_next_round(actor=organiser, tournament=cup)
    paired = {m.home_id for m in round1.matches.all()} | {m.away_id for m in round1.matches.all()}
    assert paired == {p.pk for p in pairs}
    assert asked.pk not in {e.pk for e in format_of(cup).field()}


def test_the_entries_page_shows_the_request_to_anna_and_the_wait_to_olga(client, cup, olga, anna, organiser):
    asked = services.self_register(actor=olga.user, tournament=cup, partner=anna)
    accept = reverse("tournaments:entry_action", args=[cup.slug, asked.pk, "accept"])
    client.force_login(anna.user)
    page = _entries_page(client, cup)
    assert accept in page and 'name="partner"' in page  # she may answer, or register with another
    assert accept in client.get(reverse("tournaments:my_notifications")).content.decode()
    client.force_login(olga.user)
    page = _entries_page(client, cup)
    assert "Waiting for the partner" in page and accept not in page
    assert client.post(accept).status_code == 403  # refused: only the partner answers
    asked.refresh_from_db()
    assert asked.status == EntryStatus.PARTNER
    client.force_login(organiser)
    page = _entries_page(client, cup)
    assert "Approve for Anna" in page
    client.force_login(anna.user)
    response = client.post(accept, follow=True)
    assert "now the organiser approves it" in response.content.decode()
    asked.refresh_from_db()
    assert asked.status == EntryStatus.PENDING


def test_self_registering_says_whom_the_pair_waits_for(client, cup, olga, anna):
    client.force_login(olga.user)
    response = client.post(
        reverse("tournaments:self_register", args=[cup.slug]), {"partner": anna.pk}, follow=True
    )
    assert "waits for Anna to accept" in response.content.decode()
