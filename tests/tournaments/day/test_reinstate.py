"""Reinstate: before round 1 the organiser brings back a pair (or, in an individual event, a player)
the check-in closing withdrew (it came two minutes late) or one withdrawn by mistake, and round 1
pairs it; once round 1 is paired the service, and so every page and forged POST, refuses and
changes nothing."""

from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from clubs.models import AuditEntry
from tests.clubs.factories import PASSWORD
from tournaments import services
from tournaments import services as ind
from tournaments.models import DaySettings, Entry, EntryStatus, IndividualEntry, Match, Seat
from tournaments.services import runner

from ..conftest import make_players

pytestmark = pytest.mark.django_db

TOO_LATE = (
    "Round 1 is already paired, so a withdrawn pair cannot come back: the rounds are drawn"
    " from the field fixed at round 1, and a pair returning now would break the pairings."
)


def _close_check_in(tournament, *, minutes_ago=1):
    day = DaySettings.objects.get_or_create(tournament=tournament)[0]
    day.check_in_closes_at = timezone.now() - timedelta(minutes=minutes_ago)
    day.save()
    return day


def _entries_url(t):
    return reverse("tournaments:entries", args=[t.slug])


def _reinstate_url(t, entry):
    return reverse("tournaments:entry_action", args=[t.slug, entry.pk, "reinstate"])


def _messages(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def _plays_round(entry, rnd) -> bool:
    return Match.objects.filter(Q(home=entry) | Q(away=entry), round=rnd).exists()


def _six_checked_in_two_late(t, organiser):
    """Six pairs check in, check-in closes and its plan withdraws the two others."""
    entries = list(t.entries.order_by("seed"))
    for entry in entries[:6]:
        services.check_in_entry(actor=organiser, entry=entry)
    _close_check_in(t)
    assert any(k.startswith("close_check_in:") for k in runner.run_due())
    late = entries[6:]
    for entry in late:
        entry.refresh_from_db()
        assert entry.status == EntryStatus.WITHDRAWN
    return late


def test_a_late_pair_reinstated_after_check_in_closed_plays_round_one(swiss8, organiser):
    late, still_out = _six_checked_in_two_late(swiss8, organiser)

    back = services.reinstate_entry(actor=organiser, entry=late)
    assert back.status == EntryStatus.CHECKED_IN  # nobody can check in any more: reinstate does it
    assert back.withdrawn_after_round is None
    audit = AuditEntry.objects.get(action="entry.reinstate", object_id=str(late.pk))
    assert audit.actor == organiser
    assert audit.before["status"] == EntryStatus.WITHDRAWN
    assert audit.after["status"] == EntryStatus.CHECKED_IN

    rnd = services.pair_next_round(actor=organiser, tournament=swiss8)
    assert _plays_round(late, rnd)
    assert not _plays_round(still_out, rnd)
    assert rnd.matches.filter(bye=False).count() == 3  # 7 pairs: three tables and a bye
    assert rnd.matches.filter(bye=True).count() == 1
    late.refresh_from_db()
    assert late.status == EntryStatus.CHECKED_IN and late.seed > 0


def test_reinstated_while_check_in_is_open_the_pair_is_approved_and_checks_in_as_usual(swiss8, organiser):
    late, _ = _six_checked_in_two_late(swiss8, organiser)
    day = DaySettings.objects.get(tournament=swiss8)
    day.check_in_closes_at = timezone.now() + timedelta(minutes=30)  # the organiser reopens check-in
    day.save()

    back = services.reinstate_entry(actor=organiser, entry=late)
    assert back.status == EntryStatus.APPROVED
    services.check_in_entry(actor=organiser, entry=late)
    late.refresh_from_db()
    assert late.status == EntryStatus.CHECKED_IN


def test_a_pair_withdrawn_by_mistake_comes_back_approved_when_nobody_checked_in(swiss8, organiser):
    entry = swiss8.entries.order_by("seed")[2]
    services.withdraw_entry(actor=organiser, entry=entry)
    _close_check_in(swiss8)  # closed, but check-in was never used

    back = services.reinstate_entry(actor=organiser, entry=entry)
    assert back.status == EntryStatus.APPROVED  # checked in, it would push the seven others out
    rnd = services.pair_next_round(actor=organiser, tournament=swiss8)
    assert rnd.matches.filter(bye=False).count() == 4
    assert not swiss8.entries.filter(status=EntryStatus.WITHDRAWN).exists()


def test_reinstating_a_pair_that_is_not_withdrawn_changes_nothing(swiss8, organiser):
    entry = swiss8.entries.order_by("seed").first()
    services.check_in_entry(actor=organiser, entry=entry)
    _close_check_in(swiss8)
    again = services.reinstate_entry(actor=organiser, entry=entry)
    assert again.status == EntryStatus.CHECKED_IN
    other = swiss8.entries.order_by("seed")[1]
    assert services.reinstate_entry(actor=organiser, entry=other).status == EntryStatus.APPROVED
    assert not AuditEntry.objects.filter(action="entry.reinstate").exists()


def test_reinstating_twice_reinstates_once(swiss8, organiser):
    late, _ = _six_checked_in_two_late(swiss8, organiser)
    services.reinstate_entry(actor=organiser, entry=late)
    services.reinstate_entry(actor=organiser, entry=late)
    assert AuditEntry.objects.filter(action="entry.reinstate").count() == 1


def test_after_round_one_reinstate_is_refused_and_changes_nothing(swiss8, organiser):
    late, _ = _six_checked_in_two_late(swiss8, organiser)
    services.pair_next_round(actor=organiser, tournament=swiss8)
    with pytest.raises(ValidationError) as refused:
        services.reinstate_entry(actor=organiser, entry=late)
    assert refused.value.messages == [TOO_LATE]
    late.refresh_from_db()
    assert late.status == EntryStatus.WITHDRAWN and late.withdrawn_after_round == 0
    assert not AuditEntry.objects.filter(action="entry.reinstate").exists()


def test_a_forged_reinstate_post_after_round_one_is_refused_and_changes_nothing(client, swiss8, organiser):
    late, _ = _six_checked_in_two_late(swiss8, organiser)
    services.pair_next_round(actor=organiser, tournament=swiss8)
    matches = Match.objects.filter(tournament=swiss8).count()
    client.login(username="organiser", password=PASSWORD)
    page = client.get(_entries_url(swiss8)).content.decode()
    assert "Reinstate" not in page

    response = client.post(_reinstate_url(swiss8, late), follow=True)
    assert response.status_code == 200
    assert _messages(response) == [TOO_LATE]
    late.refresh_from_db()
    assert late.status == EntryStatus.WITHDRAWN
    assert Match.objects.filter(tournament=swiss8).count() == matches
    assert not AuditEntry.objects.filter(action="entry.reinstate").exists()


def test_the_organiser_reinstates_from_the_entries_page(client, swiss8, organiser):
    late, still_out = _six_checked_in_two_late(swiss8, organiser)
    client.login(username="organiser", password=PASSWORD)
    page = client.get(_entries_url(swiss8)).content.decode()
    assert page.count("Reinstate</button>") == 2
    assert _reinstate_url(swiss8, late) in page

    response = client.post(_reinstate_url(swiss8, late), follow=True)
    assert _messages(response) == [f"{late.name} is back in the tournament, checked in."]
    page = response.content.decode()
    assert page.count("Reinstate</button>") == 1 and _reinstate_url(swiss8, still_out) in page
    late.refresh_from_db()
    assert late.status == EntryStatus.CHECKED_IN


def test_only_organisers_reinstate(client, swiss8, organiser, member):
    entry = swiss8.entries.order_by("seed").first()
    services.withdraw_entry(actor=organiser, entry=entry)
    with pytest.raises(PermissionDenied):
        services.reinstate_entry(actor=member, entry=entry)
    own = entry.player_a.user  # the pair itself may withdraw, but only the organiser brings it back
    with pytest.raises(PermissionDenied):
        services.reinstate_entry(actor=own, entry=entry)

    client.force_login(own)
    assert "Reinstate" not in client.get(_entries_url(swiss8)).content.decode()
    assert client.post(_reinstate_url(swiss8, entry)).status_code == 403
    entry.refresh_from_db()
    assert entry.status == EntryStatus.WITHDRAWN
    assert not AuditEntry.objects.filter(action="entry.reinstate").exists()


def test_a_pair_whose_player_joined_another_pair_is_not_reinstated(client, swiss8, organiser):
    entry = swiss8.entries.order_by("seed").first()
    services.withdraw_entry(actor=organiser, entry=entry)
    newcomer = make_players(swiss8.club, 1, "Новый партнёр")[0]
    services.register_entry(actor=organiser, tournament=swiss8, player_a=entry.player_a, player_b=newcomer)
    with pytest.raises(ValidationError, match="already registered in this tournament"):
        services.reinstate_entry(actor=organiser, entry=entry)
    entry.refresh_from_db()
    assert entry.status == EntryStatus.WITHDRAWN
    client.login(username="organiser", password=PASSWORD)
    assert "Reinstate</button>" not in client.get(_entries_url(swiss8)).content.decode()


def test_a_full_tournament_takes_no_reinstated_pair(swiss8, organiser):
    entry = swiss8.entries.order_by("seed").first()
    services.withdraw_entry(actor=organiser, entry=entry)
    services.update_tournament(actor=organiser, tournament=swiss8, entry_cap=7)
    swiss8.refresh_from_db()
    assert services.reinstatable_entries(swiss8) == set()
    with pytest.raises(ValidationError, match="The tournament is full"):
        services.reinstate_entry(actor=organiser, entry=entry)
    services.update_tournament(actor=organiser, tournament=swiss8, entry_cap=8)
    swiss8.refresh_from_db()
    assert services.reinstatable_entries(swiss8) == {entry.pk}
    assert services.reinstate_entry(actor=organiser, entry=entry).status == EntryStatus.APPROVED


def test_a_reinstated_pair_keeps_its_seed_unless_another_pair_took_it(swiss8, organiser):
    third, fourth = swiss8.entries.order_by("seed")[2:4]
    services.withdraw_entry(actor=organiser, entry=third)
    assert services.reinstate_entry(actor=organiser, entry=third).seed == 3  # its place in the list

    services.withdraw_entry(actor=organiser, entry=third)
    services.move_entry(actor=organiser, entry=fourth, up=True)  # the list is renumbered 1..7
    assert Entry.objects.get(pk=fourth.pk).seed == 2
    assert swiss8.entries.filter(seed=3).exclude(pk=third.pk).exists()
    back = services.reinstate_entry(actor=organiser, entry=third)
    assert back.seed == 8  # last, where the organiser can move it with the arrows
    seeds = list(swiss8.entries.exclude(status=EntryStatus.WITHDRAWN).values_list("seed", flat=True))
    assert len(seeds) == len(set(seeds)) == 8


# --- individual events --------------------------------------------------------------------------

PLAYER_TOO_LATE = (
    "Round 1 is already seated, so a withdrawn player cannot come back: the rounds are"
    " drawn from the field fixed at round 1, and a player returning now would break the seating."
)


@pytest.fixture
def event(club, organiser):
    t = services.create_tournament(
        actor=organiser, club=club, name="Личный турнир", format="ind_swiss", swiss_rounds=3
    )
    for p in make_players(club, 8, "Игрок"):
        ind.register_player(actor=organiser, tournament=t, player=p)
    return t


def _five_checked_in_three_late(t, organiser):
    players = list(IndividualEntry.objects.filter(tournament=t).order_by("id"))
    for entry in players[:5]:
        ind.check_in_player(actor=organiser, entry=entry)
    _close_check_in(t)
    runner.run_due()
    late = players[5:]
    for entry in late:
        entry.refresh_from_db()
        assert entry.status == EntryStatus.WITHDRAWN
    return players[:5], late


def _players_url(t, entry):
    return reverse("tournaments:player_reinstate", args=[t.slug, entry.pk])


def test_a_late_player_reinstated_after_check_in_closed_is_seated_in_round_one(event, organiser):
    here, (late, *still_out) = _five_checked_in_three_late(event, organiser)
    back = ind.reinstate_player(actor=organiser, entry=late)
    assert back.status == EntryStatus.CHECKED_IN and back.withdrawn_after_round is None
    audit = AuditEntry.objects.get(action="individual.reinstate")
    assert (audit.before["status"], audit.after["status"]) == (EntryStatus.WITHDRAWN, EntryStatus.CHECKED_IN)

    rnd = services.pair_next_round(actor=organiser, tournament=event)
    seated = set(Seat.objects.filter(round=rnd).values_list("entry_id", flat=True))
    assert seated == {e.pk for e in here} | {late.pk}  # six players: one table, two byes
    assert not Seat.objects.filter(round=rnd, entry__in=still_out).exists()


def test_a_player_reinstated_while_check_in_is_open_is_approved(event, organiser):
    entry = IndividualEntry.objects.filter(tournament=event).order_by("id").first()
    ind.withdraw_player(actor=organiser, entry=entry)
    assert ind.reinstate_player(actor=organiser, entry=entry).status == EntryStatus.APPROVED
    assert ind.reinstate_player(actor=organiser, entry=entry).status == EntryStatus.APPROVED  # no-op
    assert AuditEntry.objects.filter(action="individual.reinstate").count() == 1


def test_after_round_one_a_player_is_not_reinstated_service_or_forged_post(client, event, organiser):
    _, (late, *_) = _five_checked_in_three_late(event, organiser)
    services.pair_next_round(actor=organiser, tournament=event)
    with pytest.raises(ValidationError) as refused:
        ind.reinstate_player(actor=organiser, entry=late)
    assert refused.value.messages == [PLAYER_TOO_LATE]

    client.login(username="organiser", password=PASSWORD)
    assert "Reinstate" not in client.get(_entries_url(event)).content.decode()
    response = client.post(_players_url(event, late), follow=True)
    assert _messages(response) == [PLAYER_TOO_LATE]
    late.refresh_from_db()
    assert late.status == EntryStatus.WITHDRAWN and late.withdrawn_after_round == 0
    assert not Seat.objects.filter(entry=late).exists()
    assert not AuditEntry.objects.filter(action="individual.reinstate").exists()


def test_the_organiser_reinstates_a_player_from_the_players_page(client, event, organiser, member):
    _, (late, *_) = _five_checked_in_three_late(event, organiser)
    client.force_login(member)
    assert "Reinstate" not in client.get(_entries_url(event)).content.decode()
    assert client.post(_players_url(event, late)).status_code == 403
    late.refresh_from_db()
    assert late.status == EntryStatus.WITHDRAWN

    client.login(username="organiser", password=PASSWORD)
    page = client.get(_entries_url(event)).content.decode()
    assert page.count("Reinstate</button>") == 3 and _players_url(event, late) in page
    response = client.post(_players_url(event, late), follow=True)
    assert _messages(response) == [f"{late.player.display_name} is back in the tournament, checked in."]
    assert response.content.decode().count("Reinstate</button>") == 2
    late.refresh_from_db()
    assert late.status == EntryStatus.CHECKED_IN


def test_a_full_event_takes_no_reinstated_player(event, organiser):
    entry = IndividualEntry.objects.filter(tournament=event).order_by("id").first()
    ind.withdraw_player(actor=organiser, entry=entry)
    services.update_tournament(actor=organiser, tournament=event, entry_cap=7)
    event.refresh_from_db()
    assert ind.reinstatable_players(event) == set()
    with pytest.raises(ValidationError, match="The tournament is full: 7 players"):
        ind.reinstate_player(actor=organiser, entry=entry)
