"""Check-in closes: at the day settings' time no pair or player checks in any more (service, page,
forged POST), until the organiser moves that time later; once round 1 is paired it stays closed."""

import datetime
from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from clubs.models import AuditEntry
from tests.clubs.factories import PASSWORD
from tournaments import services
from tournaments import services as ind
from tournaments.models import ActionKind, DaySettings, EntryStatus, IndividualEntry, ScheduledAction
from tournaments.services import runner

from ..conftest import make_players

pytestmark = pytest.mark.django_db


def _close_check_in(tournament, *, minutes_ago=1):
    day = DaySettings.objects.get_or_create(tournament=tournament)[0]
    day.check_in_closes_at = timezone.now() - timedelta(minutes=minutes_ago)
    day.save()
    return day


def _messages(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def _entries_url(t):
    return reverse("tournaments:entries", args=[t.slug])


def test_no_pair_checks_in_after_the_closing_plan_ran(swiss8, organiser):
    first, second, late = list(swiss8.entries.order_by("seed"))[:3]
    services.check_in_entry(actor=organiser, entry=first)
    _close_check_in(swiss8)
    assert any(k.startswith("close_check_in:") for k in runner.run_due())
    late.refresh_from_db()
    assert late.status == EntryStatus.WITHDRAWN  # the plan did its work

    # a pair registered after closing (approved at once by the organiser) cannot check in either
    a, b = make_players(swiss8.club, 2, "Опоздавший")
    newcomer = services.register_entry(actor=organiser, tournament=swiss8, player_a=a, player_b=b)
    with pytest.raises(ValidationError, match="Check-in is closed"):
        services.check_in_entry(actor=organiser, entry=newcomer)
    newcomer.refresh_from_db()
    assert newcomer.status == EntryStatus.APPROVED
    assert AuditEntry.objects.filter(action="entry.check_in").count() == 1  # the first pair's only


def test_closing_time_passed_refuses_check_in_even_before_the_plan_runs(swiss8, organiser):
    entry = swiss8.entries.order_by("seed").first()
    _close_check_in(swiss8, minutes_ago=0)
    ScheduledAction.objects.filter(kind=ActionKind.CLOSE_CHECK_IN).update(done_at=None)  # beat not here yet
    with pytest.raises(ValidationError, match="Check-in is closed"):
        services.check_in_entry(actor=organiser, entry=entry)
    entry.refresh_from_db()
    assert entry.status == EntryStatus.APPROVED


def test_moving_the_closing_time_later_reopens_check_in(swiss8, organiser):
    entry = swiss8.entries.order_by("seed").first()
    day = _close_check_in(swiss8)
    with pytest.raises(ValidationError):
        services.check_in_entry(actor=organiser, entry=entry)
    day.check_in_closes_at = timezone.now() + timedelta(minutes=30)
    day.save()
    services.check_in_entry(actor=organiser, entry=entry)
    entry.refresh_from_db()
    assert entry.status == EntryStatus.CHECKED_IN


def test_no_check_in_once_round_one_is_paired(swiss8, organiser):
    services.pair_next_round(actor=organiser, tournament=swiss8)
    pending = services.register_entry(
        actor=organiser,
        tournament=swiss8,
        player_a=make_players(swiss8.club, 1, "Поздний")[0],
        player_b=make_players(swiss8.club, 1, "Опоздавшая")[0],
    )
    with pytest.raises(ValidationError, match="first round is paired"):
        services.check_in_entry(actor=organiser, entry=pending)


def test_the_page_shows_no_check_in_button_once_closed(client, swiss8, organiser):
    client.login(username="organiser", password=PASSWORD)
    assert "Check in</button>" in client.get(_entries_url(swiss8)).content.decode()
    _close_check_in(swiss8)
    page = client.get(_entries_url(swiss8)).content.decode()
    assert "Check in</button>" not in page
    assert 'id="check-in-closed"' in page


def test_a_forged_check_in_post_after_closing_is_refused_and_changes_nothing(client, swiss8, organiser):
    entry = swiss8.entries.order_by("seed").first()
    _close_check_in(swiss8)
    client.login(username="organiser", password=PASSWORD)
    url = reverse("tournaments:entry_action", args=[swiss8.slug, entry.pk, "check-in"])
    response = client.post(url, follow=True)
    assert response.status_code == 200
    assert _messages(response) == [
        "Check-in is closed. To reopen it, move its closing time in the day settings."
    ]
    entry.refresh_from_db()
    assert entry.status == EntryStatus.APPROVED
    assert not AuditEntry.objects.filter(action="entry.check_in").exists()


# --- individual events --------------------------------------------------------------------------


@pytest.fixture
def event(club, organiser):
    t = services.create_tournament(
        actor=organiser,
        club=club,
        name="Индивидуалка с регистрацией",
        starts_on=datetime.date(2026, 11, 7),
        format="ind_swiss",
        swiss_rounds=3,
    )
    for p in make_players(club, 8, "Игрок"):
        ind.register_player(actor=organiser, tournament=t, player=p)
    return t


def test_individual_check_in_is_refused_after_closing_service_and_post(client, event, organiser):
    first, second = IndividualEntry.objects.filter(tournament=event).order_by("id")[:2]
    ind.check_in_player(actor=organiser, entry=first)
    _close_check_in(event)
    with pytest.raises(ValidationError, match="Check-in is closed"):
        ind.check_in_player(actor=organiser, entry=second)

    client.login(username="organiser", password=PASSWORD)
    page = client.get(_entries_url(event)).content.decode()
    assert "Check in</button>" not in page and 'id="check-in-closed"' in page
    response = client.post(reverse("tournaments:player_check_in", args=[event.slug, second.pk]), follow=True)
    assert _messages(response) == [
        "Check-in is closed. To reopen it, move its closing time in the day settings."
    ]
    second.refresh_from_db()
    assert second.status == EntryStatus.APPROVED


def test_closing_check_in_withdraws_the_individual_players_who_did_not_come(event, organiser):
    players = list(IndividualEntry.objects.filter(tournament=event).order_by("id"))
    here, absent = players[:5], players[5:]
    for entry in here:
        ind.check_in_player(actor=organiser, entry=entry)
    _close_check_in(event)
    assert any(k.startswith("close_check_in:") for k in runner.run_due())

    for entry in absent:  # out now, as round 1 would leave them out: the organiser sees the field
        entry.refresh_from_db()
        assert (entry.status, entry.withdrawn_after_round) == (EntryStatus.WITHDRAWN, 0)
    assert AuditEntry.objects.filter(action="individual.check_in_closed").count() == 3
    rnd = services.pair_next_round(actor=organiser, tournament=event)
    assert set(rnd.seats.values_list("entry_id", flat=True)) == {e.pk for e in here}


def test_closing_check_in_nobody_used_leaves_every_individual_player_in(event, organiser):
    _close_check_in(event)
    runner.run_due()
    assert not IndividualEntry.objects.filter(tournament=event, status=EntryStatus.WITHDRAWN).exists()
