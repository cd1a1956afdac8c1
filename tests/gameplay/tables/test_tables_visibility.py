"""Who may see a table: a private (invitation-only) table is its seated players' alone, and
everyone else gets the very 404 a table that does not exist gets; public tables are everyone's."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.test import Client
from django.utils import timezone

from config.asgi import application
from gameplay import selectors, services
from gameplay.models import Seating, Table, TableEvent
from tests.communicator import Communicator

ROUTES = ["/tables/{pk}/", "/tables/{pk}/state.json", "/tables/{pk}/replay/", "/tables/{pk}/record.json",
          "/tables/{pk}/verify/"]
VIEWERS = ["anonymous", "stranger", "player", "guest"]
MISSING = 987654
ORIGIN = (b"origin", b"http://127.0.0.1:8000")


def _body(response, path: str) -> str:
    """A page's body without its per-request CSRF token and its own address (the language form's
    "next"), the parts that differ by design."""
    body = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", response.content.decode())
    return body.replace(path, "PATH")


def _finished_table(*, public: bool) -> tuple[Table, dict[str, Client]]:
    """A finished table: a guest by browser session at N, three signed-in players; a client per viewer."""
    User = get_user_model()
    suffix = "pub" if public else "priv"
    users = [User.objects.create_user(username=f"v{suffix}{i}", password="x-secret-1") for i in range(4)]
    session = SessionStore()
    session.create()
    table = services.create_table(rules={}, seating=Seating.IN_ORDER, session_key=session.session_key,
                                  public=public)
    for user in users[:3]:
        services.sit(table_id=table.pk, user=user)
    services.resign(table_id=table.pk, seat=1)
    table.refresh_from_db()
    clients = {"anonymous": Client(), "stranger": Client(), "player": Client(), "guest": Client()}
    clients["stranger"].force_login(users[3])
    clients["player"].force_login(users[0])
    clients["guest"].cookies["sessionid"] = session.session_key
    return table, clients


@pytest.mark.django_db
@pytest.mark.parametrize("public", [True, False])
def test_each_route_answers_each_viewer_by_the_tables_setting(public):
    table, clients = _finished_table(public=public)
    assert table.status == "finished"
    for route in ROUTES:
        for viewer in VIEWERS:
            client = clients[viewer]
            response = client.get(route.format(pk=table.pk))
            allowed = public or viewer in ("player", "guest")
            assert response.status_code == (200 if allowed else 404), (route, viewer)
            if not allowed:
                missing = client.get(route.format(pk=MISSING))
                assert missing.status_code == 404
                here, nowhere = route.format(pk=table.pk), route.format(pk=MISSING)
                assert _body(response, here) == _body(missing, nowhere), (route, viewer)


@pytest.mark.django_db
def test_the_lobby_and_the_home_page_list_only_public_tables(people):
    open_public = services.create_table(rules={}, user=people[0])
    open_private = services.create_table(rules={}, user=people[1], public=False)
    playing_private = services.create_table(rules={}, user=people[2], public=False, bots=True)
    listed = {t["id"] for t in selectors.lobby_tables()}
    assert open_public.pk in listed
    assert open_private.pk not in listed and playing_private.pk not in listed
    assert playing_private.pk not in {t["id"] for t in selectors.live_tables()}
    page = Client().get("/tables/").content.decode()
    assert f"/tables/{open_private.pk}/" not in page


@pytest.mark.django_db
def test_the_invitation_link_opens_a_waiting_private_table_and_lets_one_sit(people):
    table = services.create_table(rules={}, user=people[0], public=False)
    guest = Client()
    guest.force_login(people[1])
    assert guest.get(f"/tables/{table.pk}/").status_code == 404
    assert guest.get(f"/tables/{table.pk}/join/wrong-token/").status_code == 404
    page = guest.get(f"/tables/{table.pk}/join/{table.invite_token}/", headers={"accept-language": "en"})
    assert page.status_code == 200
    assert "Invitation only" in page.content.decode()
    # the page does not try the socket, which is for the table's players only
    assert 'data-ws=""' in page.content.decode()
    # without the token a stranger cannot sit down at the private table
    assert guest.post(f"/tables/{table.pk}/sit/").status_code == 404
    guest.post(f"/tables/{table.pk}/sit/", {"token": table.invite_token})
    seated = guest.get(f"/tables/{table.pk}/")
    assert seated.status_code == 200 and f'data-ws="/ws/table/{table.pk}/"' in seated.content.decode()
    assert services.seat_for(table, user=people[1]) is not None


@pytest.mark.django_db
def test_the_form_opens_a_private_table_and_public_is_the_default(people):
    client = Client()
    client.force_login(people[0])
    form = client.get("/tables/new/").content.decode()
    assert 'name="private"' in form
    base = {"preset": "online", "options_from": "online", "seating": "random", "redeal_seconds": 15}
    from gameplay.forms import TableForm

    for name, field in TableForm().fields.items():
        if name not in base and field.initial is not None and not isinstance(field.initial, bool):
            base[name] = field.initial
        elif isinstance(field.initial, bool) and field.initial:
            base[name] = "on"
    client.post("/tables/new/", base)
    client.post("/tables/new/", {**base, "private": "on"})
    assert [t.public for t in Table.objects.order_by("id")] == [True, False]
    private = Table.objects.order_by("id").last()
    page = client.get(f"/tables/{private.pk}/", headers={"accept-language": "en"}).content.decode()
    assert "Invitation only" in page
    play = Client()
    play.post("/tables/play-now/")
    assert Table.objects.order_by("id").last().public


def _cookie_for(user) -> bytes:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("clean_channel_layer")
@pytest.mark.parametrize("public", [True, False])
async def test_the_socket_refuses_a_spectator_of_a_private_table_as_a_missing_one(public):
    @database_sync_to_async
    def make():
        table, clients = _finished_table(public=public)
        cookies = {"anonymous": None, "player": f"sessionid={clients['player'].cookies['sessionid'].value}",
                   "stranger": f"sessionid={clients['stranger'].cookies['sessionid'].value}",
                   "guest": f"sessionid={clients['guest'].cookies['sessionid'].value}"}
        return table.pk, cookies

    table_id, cookies = await make()

    async def connect(pk, cookie):
        headers = [ORIGIN] + ([(b"cookie", cookie.encode())] if cookie else [])
        s = Communicator(application, f"/ws/table/{pk}/", headers=headers)
        connected, code = await s.connect()
        await s.disconnect()
        return connected, code

    missing = await connect(MISSING, None)
    assert not missing[0]
    for viewer, cookie in cookies.items():
        answer = await connect(table_id, cookie)
        if public or viewer in ("player", "guest"):
            assert answer[0], viewer
        else:
            assert answer == missing, viewer


@pytest.mark.django_db
def test_playing_now_leaves_out_a_table_where_nothing_happened_for_a_quarter_hour(table4):
    """The home page's only "playing now" was a demo table frozen for days: a visitor opened it and
    watched nothing move."""
    assert table4.pk in {t["id"] for t in selectors.live_tables()}
    long_ago = timezone.now() - selectors.STILL_FOR - timedelta(minutes=1)
    TableEvent.objects.filter(table=table4).update(created_at=long_ago)
    Table.objects.filter(pk=table4.pk).update(started_at=long_ago)
    assert table4.pk not in {t["id"] for t in selectors.live_tables()}
    last = TableEvent.objects.filter(table=table4).order_by("-number").first()
    TableEvent.objects.filter(pk=last.pk).update(created_at=timezone.now())  # a card played now
    assert table4.pk in {t["id"] for t in selectors.live_tables()}
