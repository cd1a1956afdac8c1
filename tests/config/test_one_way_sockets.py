"""The listen-only sockets (notifications, a tournament's pages, the lobby) read nothing a client
sends: a binary frame, a frame nested a thousand deep or one that is not JSON is dropped unread,
and the socket goes on relaying what the site sends."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.contrib.auth import get_user_model
from django.test import Client

from config.asgi import application
from config.notify import user_group
from tests.communicator import Communicator
from tournaments.broadcast import tournament_group

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("clean_channel_layer")]

ORIGIN = (b"origin", b"http://127.0.0.1:8000")
HOSTILE = {
    "binary": {"bytes": b"\x00\xff" * 10},
    "nested a thousand deep": {"text": "[" * 1000 + "]" * 1000},
    "not json": {"text": "{not json"},
    "large": {"text": '"' + "x" * 200_000 + '"'},
}


@database_sync_to_async
def _signed_in() -> tuple[int, bytes]:
    user = get_user_model().objects.create_user(username="aigerim", password="pw-for-tests-only")
    client = Client()
    client.force_login(user)
    return user.pk, f"sessionid={client.cookies['sessionid'].value}".encode()


@pytest.mark.parametrize("frame", HOSTILE.values(), ids=list(HOSTILE))
@pytest.mark.parametrize("path", ["/ws/notifications/", "/ws/tournament/7/", "/ws/lobby/"])
async def test_what_a_client_sends_is_dropped_and_the_socket_goes_on(path, frame):
    user_id, cookie = await _signed_in()
    s = Communicator(application, path, headers=[ORIGIN, (b"cookie", cookie)])
    assert (await s.connect())[0]
    if path == "/ws/lobby/":
        assert (await s.receive_json_from())["type"] == "lobby"  # the list, sent on connect

    await s.send_input({"type": "websocket.receive", **frame})
    assert await s.receive_nothing(timeout=0.3)

    layer = get_channel_layer()
    if path == "/ws/notifications/":
        await layer.group_send(user_group(user_id), {"type": "notify.message", "payload": {"kind": "x"}})
        assert await s.receive_json_from() == {"kind": "x"}
    elif path == "/ws/lobby/":
        await layer.group_send("lobby", {"type": "lobby.update", "tables": []})
        assert await s.receive_json_from() == {"type": "lobby", "tables": []}
    else:
        await layer.group_send(tournament_group(7), {"type": "tournament.changed", "version": 3})
        assert await s.receive_json_from() == {"type": "changed", "version": 3}
    await s.disconnect()
