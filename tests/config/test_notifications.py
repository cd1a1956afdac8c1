"""The per-user notification socket, end to end through the ASGI app and the real Redis layer."""

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import Client

from config.asgi import application
from config.notify import notify_user
from tests.communicator import Communicator

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("clean_channel_layer")]

ORIGIN = (b"origin", b"http://127.0.0.1:8000")


@database_sync_to_async
def signed_in_user(username: str) -> tuple[int, bytes]:
    """A user and the session cookie a browser that signed in would send."""
    user = get_user_model().objects.create_user(username=username, password="pw-for-tests-only")
    client = Client()
    client.force_login(user)
    return user.pk, f"sessionid={client.cookies['sessionid'].value}".encode()


def socket(*headers: tuple[bytes, bytes]) -> Communicator:
    return Communicator(application, "/ws/notifications/", headers=list(headers))


async def test_signed_in_user_receives_what_notify_user_sends() -> None:
    user_id, cookie = await signed_in_user("aigerim")
    communicator = socket(ORIGIN, (b"cookie", cookie))
    connected, _ = await communicator.connect()
    assert connected

    await database_sync_to_async(notify_user)(user_id, {"kind": "invitation", "club": "Uspenka"})

    assert await communicator.receive_json_from() == {"kind": "invitation", "club": "Uspenka"}
    await communicator.disconnect()


async def test_a_user_hears_only_their_own_notifications() -> None:
    user_id, cookie = await signed_in_user("aigerim")
    other_id, _ = await signed_in_user("bohdan")
    communicator = socket(ORIGIN, (b"cookie", cookie))
    assert (await communicator.connect())[0]

    await database_sync_to_async(notify_user)(other_id, {"kind": "for-bohdan"})

    assert await communicator.receive_nothing(timeout=0.5)
    await communicator.disconnect()


async def test_nothing_is_sent_when_the_transaction_rolls_back() -> None:
    user_id, cookie = await signed_in_user("aigerim")
    communicator = socket(ORIGIN, (b"cookie", cookie))
    assert (await communicator.connect())[0]

    @database_sync_to_async
    def notify_then_fail() -> None:
        with pytest.raises(RuntimeError), transaction.atomic():
            notify_user(user_id, {"kind": "never-happened"})
            raise RuntimeError("the service failed after queueing the notification")

    await notify_then_fail()

    assert await communicator.receive_nothing(timeout=0.5)
    await communicator.disconnect()


async def test_anonymous_connection_is_refused() -> None:
    communicator = socket(ORIGIN)
    connected, _ = await communicator.connect()
    assert not connected


async def test_connection_from_a_foreign_origin_is_refused() -> None:
    _, cookie = await signed_in_user("aigerim")
    communicator = socket((b"origin", b"https://evil.example"), (b"cookie", cookie))
    connected, _ = await communicator.connect()
    assert not connected


async def test_connection_without_an_origin_is_refused() -> None:
    _, cookie = await signed_in_user("aigerim")
    communicator = socket((b"cookie", cookie))
    connected, _ = await communicator.connect()
    assert not connected


async def test_an_idle_socket_stays_open_and_still_hears() -> None:
    """redis-py 8 reads with a 5 s socket timeout by default, which killed every idle socket
    (channels_redis blocks 5 s per read): the layer's hosts set their own timeout."""
    user_id, cookie = await signed_in_user("aigerim")
    communicator = socket(ORIGIN, (b"cookie", cookie))
    assert (await communicator.connect())[0]

    assert await communicator.receive_nothing(timeout=7)
    await database_sync_to_async(notify_user)(user_id, {"kind": "still-here"})

    assert await communicator.receive_json_from() == {"kind": "still-here"}
    await communicator.disconnect()
