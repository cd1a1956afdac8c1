"""The end-of-match notification, the lobby socket, the pages and the form built from the rules."""

from __future__ import annotations

import pytest
from django.test import Client
from tables_helpers import legal_strings

from config.asgi import application
from gameplay import services
from gameplay.engine import Rules
from gameplay.forms import TableForm
from gameplay.models import Table
from tests.communicator import Communicator


@pytest.mark.django_db
def test_match_end_notifies_the_players(table4, people, monkeypatch, django_capture_on_commit_callbacks):
    sent = []
    monkeypatch.setattr("config.notify._send", lambda user_id, payload: sent.append((user_id, payload)))
    with django_capture_on_commit_callbacks(execute=True):
        services.resign(table_id=table4.pk, seat=3)
    notified = {user_id for user_id, payload in sent if payload["type"] == "table.finished"}
    assert notified == {u.pk for u in people[:4]}
    assert all(p["result"]["winner"] == "NS" for _, p in sent)


@pytest.mark.django_db
def test_the_form_shows_every_rule_with_its_default():
    form = TableForm()
    defaults = Rules().to_json()
    assert [f.name for f in form.rule_bound_fields()] == list(defaults)
    for name, value in defaults.items():
        assert form.fields[name].initial == value
    html = Client().get("/tables/new/").content.decode()
    for name in defaults:
        assert f'name="{name}"' in html


@pytest.mark.django_db
def test_the_form_opens_a_table_with_house_rules(people):
    client = Client()
    client.force_login(people[0])
    data = {**Rules().to_json(), "deck": "36", "rout_at": 91, "seating": "in_order"}
    data = {k: v for k, v in data.items() if v is not False}
    response = client.post("/tables/new/", data)
    assert response.status_code == 302
    table = Table.objects.get()
    assert table.rules["deck"] == "36" and table.rules["rout_at"] == 91
    assert table.seats.get().user == people[0]
    bad = client.post("/tables/new/", {**data, "move_seconds": 5})
    assert bad.status_code == 200 and Table.objects.count() == 1


@pytest.mark.django_db
def test_play_now_page_starts_a_match_without_an_account():
    client = Client()
    response = client.post("/tables/play-now/")
    assert response.status_code == 302
    page = client.get(response["Location"])
    assert page.status_code == 200
    assert page.context["seat"] == "S"
    assert page.context["snapshot"]["view"]["hand"]


@pytest.mark.django_db
def test_record_and_replay_are_published_when_the_match_is_over(table4):
    services.resign(table_id=table4.pk, seat=0)
    client = Client()
    record = client.get(f"/tables/{table4.pk}/record.json").json()
    assert record["format"] == "bilka-record/1" and record["end"]["reason"] == "resign"
    assert client.get(f"/tables/{table4.pk}/replay/").status_code == 200


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("clean_channel_layer")
async def test_the_lobby_lists_tables_live():
    from channels.db import database_sync_to_async

    s = Communicator(application, "/ws/lobby/", headers=[(b"origin", b"http://127.0.0.1:8000")])
    assert (await s.connect())[0]
    first = await s.receive_json_from()
    assert first == {"type": "lobby", "tables": []}
    table_id = await database_sync_to_async(
        lambda: services.create_table(rules={}, session_key="x" * 32).pk)()
    update = await s.receive_json_from()
    assert [t["id"] for t in update["tables"]] == [table_id]
    assert update["tables"][0]["free"] == 3
    await s.disconnect()


@pytest.mark.django_db
def test_bots_can_only_be_called_by_a_seated_person(people):
    table = services.create_table(rules={}, user=people[0])
    with pytest.raises(services.TableError):
        services.fill_with_bots(table_id=table.pk, user=people[1])
    services.fill_with_bots(table_id=table.pk, user=people[0])
    table.refresh_from_db()
    assert table.status == "playing" and table.seats.filter(is_bot=True).count() == 3
    assert legal_strings(services.load_state(table)) is not None
