"""Lists and details show what their viewer may see, and only that: the lobby and "Now playing"
list the public table and never the private one, the archive (page and API) lists the private
match to its players alone, and the API's people carry no e-mail. Each check first finds what must
be there, so that a missing thing is told apart from a page that shows nothing."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from tests.authz.asking import ask
from tests.authz.leaks import EMAIL_RE
from tests.authz.world import ROLES

pytestmark = pytest.mark.django_db


def _ids(answer) -> set[int]:
    return {item["id"] for item in json.loads(answer.body)["results"]}


def test_the_lobby_lists_the_public_table_and_never_the_private_one(world):
    for role in ROLES:
        page = ask(world, role, "GET", reverse("gameplay:lobby")).body.decode()
        assert f"/tables/{world.public_table.pk}/" in page, role
        assert f"/tables/{world.private_table.pk}/" not in page, role


def test_the_archive_lists_the_private_match_to_its_players_alone(world):
    private, public = world.private_archived.pk, world.public_archived.pk
    for role in ROLES:
        page = ask(world, role, "GET", reverse("archive:list")).body.decode()
        assert f"/archive/{public}/" in page, role
        assert (f"/archive/{private}/" in page) == (role == "seated"), role
        listed = _ids(ask(world, role, "GET", reverse("api:archive_list") + "?page_size=200"))
        assert public in listed, role
        assert (private in listed) == (role == "seated"), role
        # a player's page lists his matches the same way
        player_page = ask(world, role, "GET", reverse("archive:player",
                                                       kwargs={"pk": world.users["seated"].player.pk}))
        assert (f"/archive/{private}/" in player_page.body.decode()) == (role == "seated"), role


def test_api_people_carry_no_email_or_account_name(world):
    for role in ROLES:
        for url in (reverse("api:player_list") + "?page_size=200",
                    reverse("api:player_detail", kwargs={"pk": world.users["member"].player.pk})):
            answer = ask(world, role, "GET", url)
            assert answer.status == 200
            assert "Member" in answer.body.decode(), url  # the player is there, by his name
            assert not EMAIL_RE.findall(answer.body), (role, url)
            assert b'"username"' not in answer.body and b'"email"' not in answer.body, (role, url)


def test_the_table_page_shows_the_seat_its_own_hand_and_nobody_else_it(world):
    from gameplay import services
    from gameplay.engine.cards import card_to_str, mask_cards

    table = world.public_table
    state = services.load_state(table)
    seat = services.seat_for(table, user=world.users["other_player"], session_key="")
    hand = {card_to_str(c) for c in mask_cards(state.hands[seat])}
    for role in ROLES:
        body = ask(world, role, "GET", reverse("gameplay:state_json", kwargs={"pk": table.pk})).body
        view = json.loads(body)["view"]
        assert (set(view["hand"]) if view["hand"] is not None else None) == (
            hand if role == "other_player" else None), role
