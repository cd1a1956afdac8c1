"""Signing out closes that browser session's sockets: the table it sits at, the lobby, its
notifications; a socket of the same account in another session (another phone) stays open."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from config.asgi import application
from gameplay import services
from tests.communicator import Communicator

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("clean_channel_layer")]

ORIGIN = (b"origin", b"http://127.0.0.1:8000")


def sock(path: str, client: Client) -> Communicator:
    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
    return Communicator(application, path, headers=[ORIGIN, (b"cookie", cookie)])


@database_sync_to_async
def seated_player_on_two_phones() -> tuple[int, Client, Client]:
    User = get_user_model()
    users = [User.objects.create_user(username=f"o{i}", password="pw-x-1") for i in range(4)]
    table = services.create_table(rules={}, seating="in_order", user=users[0])
    for u in users[1:]:
        services.sit(table_id=table.pk, user=u)
    phone, other_phone = Client(), Client()
    phone.force_login(users[0])
    other_phone.force_login(users[0])
    return table.pk, phone, other_phone


async def closed_with(s: Communicator) -> int | None:
    """The close code the server sends, skipping frames before it: waited for, as a busy machine
    may take seconds to pass the sign-out on to the socket."""
    while (message := await s.receive_output())["type"] != "websocket.close":
        pass
    return message.get("code")


async def stays_open(s: Communicator) -> bool:
    """No close comes before the socket has been quiet for a second (frames before it skipped)."""
    while not await s.receive_nothing(timeout=1.0):
        if (await s.receive_output())["type"] == "websocket.close":
            return False
    return True


async def test_signing_out_closes_the_sessions_sockets_and_only_those():
    table_id, phone, other_phone = await seated_player_on_two_phones()
    mine = [sock(path, phone) for path in (f"/ws/table/{table_id}/", "/ws/notifications/", "/ws/lobby/")]
    other = sock(f"/ws/table/{table_id}/", other_phone)
    for s in [*mine, other]:
        assert (await s.connect())[0]

    response = await sync_to_async(phone.post)(reverse("account_logout"))
    assert response.status_code == 302

    for s in mine:
        assert await closed_with(s) == 4401
    assert await stays_open(other)
    await other.send_json_to({"type": "ping"})
    assert (await other.receive_json_from()) == {"type": "pong"}
    await other.disconnect()
