"""The reported case: the organiser of an individual event withdraws "player 7" through the API, and
pair 7 of another, running event of the club was withdrawn. The world's individual event and its
running pair event, an id both a player and a pair have (as rows made before the two kinds drew ids
from one sequence do), and the organiser's write key: nothing in the pair event changes, whichever
address he uses; through its event's own address the player is withdrawn, and only he."""

from __future__ import annotations

import json

import pytest
from django.db import transaction
from django.urls import reverse

from clubs.models import Player
from tests.authz.asking import ask
from tests.authz.fingerprint import world_state
from tournaments.models import Entry, EntryStatus, IndividualEntry

pytestmark = pytest.mark.django_db


@pytest.fixture
def twin(world):
    """A player of the individual event whose id is that of a pair of the running pair event."""
    pair = (
        Entry.objects.filter(tournament=world.tournament, status=EntryStatus.APPROVED).order_by("pk").last()
    )
    world.tournament.refresh_from_db()
    assert pair is not None and world.tournament.status == "running"
    with transaction.atomic():
        newcomer = Player.objects.create(display_name="Опоздавший")
        yield IndividualEntry.objects.create(pk=pair.pk, tournament=world.solo, player=newcomer, seed=9), pair
        transaction.set_rollback(True)


def _pair_event(world) -> dict[str, str]:
    """Every row of the pair event's entries and matches, as they stand."""
    return {
        "entries": repr(list(world.tournament.entries.order_by("pk").values())),
        "matches": repr(list(world.tournament.matches.order_by("pk").values())),
    }


def test_the_organisers_withdraw_of_a_player_never_reaches_the_pair_with_his_number(world, twin):
    player, pair = twin
    assert player.pk == pair.pk and world.solo.is_individual and not world.tournament.is_individual
    before, everything = _pair_event(world), world_state()
    # the first address, by the id alone: a number a player has reaches no pair
    for step in ("withdraw", "approve"):
        answer = ask(
            world,
            "organiser",
            "POST",
            reverse(f"api:entry_{step}", kwargs={"pk": player.pk}),
            after=world_state,
        )
        assert answer.status == 404, answer.body
        assert json.loads(answer.body) == {"detail": "Not found."}
        assert answer.seen == everything
    # the individual event's address with a pair's id: not there
    answer = ask(
        world,
        "organiser",
        "POST",
        reverse("api:event_entry_withdraw", kwargs={"slug": world.solo.slug, "pk": world.entry.pk}),
        after=world_state,
    )
    assert answer.status == 404 and answer.seen == everything
    # the individual event's own address withdraws the player, and nothing of the pair event
    url = reverse("api:event_entry_withdraw", kwargs={"slug": world.solo.slug, "pk": player.pk})
    answer = ask(
        world,
        "organiser",
        "POST",
        url,
        after=lambda: (_pair_event(world), IndividualEntry.objects.get(pk=player.pk).status),
    )
    assert answer.status == 200, answer.body
    body = json.loads(answer.body)
    assert (body["id"], body["kind"], body["status"]) == (player.pk, "player", "withdrawn")
    pair_event_after, player_status = answer.seen
    assert pair_event_after == before and player_status == EntryStatus.WITHDRAWN


def test_the_pages_find_the_player_and_the_pair_each_in_its_own_event(world, twin):
    player, pair = twin
    before = _pair_event(world)
    # the individual event's page withdraws its player; the pair with his number stays
    url = reverse("tournaments:player_withdraw", kwargs={"slug": world.solo.slug, "pk": player.pk})
    answer = ask(
        world,
        "organiser",
        "POST",
        url,
        after=lambda: (_pair_event(world), IndividualEntry.objects.get(pk=player.pk).status),
    )
    assert answer.status == 302 and answer.seen == (before, EntryStatus.WITHDRAWN)
    # a partnership of the individual event's table is no pair of its pages
    partnership = world.solo_match.home_id
    for action in ("withdraw", "ask-withdraw", "check-in"):
        url = reverse(
            "tournaments:entry_action", kwargs={"slug": world.solo.slug, "pk": partnership, "action": action}
        )
        answer = ask(world, "organiser", "POST", url, after=world_state)
        assert answer.status == 404
