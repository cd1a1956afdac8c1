"""The bot levels on the pages: "play now" chooses one for its bots, the open table one for each
empty seat, and the table shows each bot's level to everyone."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from gameplay import services
from gameplay.models import Seat, Table


def _script_data(html: str, script_id: str) -> dict:
    found = re.search(rf'<script id="{script_id}" type="application/json">(.*?)</script>', html, re.S)
    return json.loads(found[1])


def _snapshot_seats(html: str) -> dict[str, dict]:
    return {s["seat"]: s for s in _script_data(html, "bt-snapshot")["table"]["seats"]}


@pytest.mark.django_db
def test_play_now_offers_the_level_and_seats_strong_bots():
    client = Client(HTTP_ACCEPT_LANGUAGE="ru")
    lobby = client.get("/tables/").content.decode()
    assert '<select name="bot_level" id="play-now-level">' in lobby
    assert '<option value="strong">сильный</option>' in lobby
    response = client.post("/tables/play-now/", {"bot_level": "strong"})
    table = Table.objects.get(pk=int(response["Location"].strip("/").split("/")[-1]))
    assert sorted(Seat.objects.filter(table=table, is_bot=True).values_list("bot_level", flat=True)) == [
        "strong"] * 3
    seats = _snapshot_seats(client.get(response["Location"]).content.decode())
    levels = {k: v["level"] for k, v in seats.items()}
    assert levels == {"N": "strong", "E": "strong", "S": None, "W": "strong"}


@pytest.mark.django_db
def test_play_now_without_a_level_seats_beginners_and_refuses_an_unknown_one():
    client = Client(HTTP_ACCEPT_LANGUAGE="ru")
    response = client.post("/tables/play-now/")
    table = Table.objects.get(pk=int(response["Location"].strip("/").split("/")[-1]))
    bots = Seat.objects.filter(table=table, is_bot=True)
    assert set(bots.values_list("bot_level", flat=True)) == {"beginner"}
    before = Table.objects.count()
    page = client.post("/tables/play-now/", {"bot_level": "grandmaster"}, follow=True).content.decode()
    assert "Неизвестный уровень бота." in page and Table.objects.count() == before


@pytest.mark.django_db
def test_the_open_table_chooses_a_level_for_each_empty_seat_and_shows_them(people):
    table = services.create_table(rules={}, seating="in_order", user=people[0])
    services.sit(table_id=table.pk, user=people[1])
    client = Client(HTTP_ACCEPT_LANGUAGE="uk")
    client.force_login(people[0])
    page = client.get(table.get_absolute_url()).content.decode()
    # the two empty seats, S and W, each with its own choice; the taken ones have none
    assert re.findall(r'<select name="level_(\w)"', page) == ["S", "W"]
    client.post(f"/tables/{table.pk}/bots/", {"level_S": "strong", "level_W": "beginner"})
    levels = dict(Seat.objects.filter(table=table, is_bot=True).values_list("seat", "bot_level"))
    assert levels == {2: "strong", 3: "beginner"}
    watcher = Client(HTTP_ACCEPT_LANGUAGE="uk").get(table.get_absolute_url()).content.decode()
    seats = _snapshot_seats(watcher)
    assert (seats["S"]["level"], seats["W"]["level"], seats["N"]["level"]) == ("strong", "beginner", None)
    # the table's script words each level in the reader's language
    words = _script_data(watcher, "bt-i18n")
    assert (words["bot_strong"], words["bot_beginner"]) == ("сильний бот", "бот-новачок")


@pytest.mark.django_db
def test_play_now_in_kozyol_seats_three_beginners_or_three_strong_bots_at_a_kozyol_table():
    client = Client(HTTP_ACCEPT_LANGUAGE="ru")
    lobby = client.get("/tables/").content.decode()
    assert '<option value="kozyol">Козёл хвалёный</option>' in lobby
    response = client.post("/tables/play-now/", {"game": "kozyol"})
    table = Table.objects.get(pk=int(response["Location"].strip("/").split("/")[-1]))
    assert table.rules["game"] == "kozyol" and table.status == "playing"
    levels = Seat.objects.filter(table=table, is_bot=True).values_list("bot_level", flat=True)
    assert set(levels) == {"beginner"}
    assert services.load_state(table).__class__.__name__ == "KozyolMatchState"
    # the strong bot plays Kozyol too: three of them, at a Kozyol table
    response = client.post("/tables/play-now/", {"game": "kozyol", "bot_level": "strong"})
    table = Table.objects.get(pk=int(response["Location"].strip("/").split("/")[-1]))
    assert table.rules["game"] == "kozyol"
    levels = Seat.objects.filter(table=table, is_bot=True).values_list("bot_level", flat=True)
    assert list(levels) == ["strong"] * 3
    # a game the lobby does not offer is Bilka's table
    response = client.post("/tables/play-now/", {"game": "durak"})
    assert "game" not in Table.objects.get(pk=int(response["Location"].strip("/").split("/")[-1])).rules
