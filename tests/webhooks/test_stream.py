"""The event stream: a real ASGI request through the site's application, resumed after an id."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async
from asgiref.testing import ApplicationCommunicator
from django.db import connections

from tournaments import services
from webhooks.models import TournamentEvent


def parse(body: bytes) -> list[dict[str, str]]:
    """The stream's events as (id, event, data) dicts; comments and the retry line left out."""
    events = []
    for block in body.decode().split("\n\n"):
        fields = dict(
            line.split(": ", 1)
            for line in block.splitlines()
            if line and not line.startswith(":") and ": " in line
        )
        if "id" in fields:
            events.append(fields)
    return events


async def ask(path: str, *headers: tuple[bytes, bytes]) -> dict:
    """One GET through the site's ASGI application, read to the end of the stream.

    (channels' ``HttpCommunicator`` wants a body in every message; a stream's last one has none.)"""
    from config.asgi import application

    path, _, query = path.partition("?")
    scope = {
        "type": "http",
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query.encode(),
        "root_path": "",
        "headers": [(b"host", b"127.0.0.1"), *headers],
        "server": ("127.0.0.1", 80),
        "client": ("127.0.0.1", 50000),
    }
    communicator = ApplicationCommunicator(application, scope)
    await communicator.send_input({"type": "http.request", "body": b""})
    start = await communicator.receive_output(20)
    body = b""
    while True:
        part = await communicator.receive_output(20)
        body += part.get("body", b"")
        if not part.get("more_body"):
            break
    await communicator.wait(5)
    return {"status": start["status"], "headers": start["headers"], "body": body}


@pytest.fixture(autouse=True)
async def _connections_closed():
    """The connections the ASGI threads opened go with the test, so the database can be dropped."""
    yield
    await sync_to_async(connections.close_all)()


def _pair_and_report(tournament, organiser):
    rnd = services.pair_next_round(actor=organiser, tournament=tournament)
    match = rnd.matches.order_by("table").first()
    services.enter_result(actor=match.home.player_a.user, match=match, home_eyes=12, away_eyes=4)
    return match


@pytest.mark.django_db(transaction=True)
async def test_the_stream_resumes_after_the_last_event_id(swiss, organiser, settings):
    settings.WEBHOOKS_STREAM_SECONDS = 1
    await sync_to_async(_pair_and_report)(swiss, organiser)
    paired, entered = [e async for e in TournamentEvent.objects.filter(tournament=swiss).order_by("id")]

    answer = await ask(
        f"/api/v1/tournaments/{swiss.slug}/events/", (b"last-event-id", str(paired.pk).encode())
    )

    assert answer["status"] == 200
    headers = dict(answer["headers"])
    assert headers[b"Content-Type"].startswith(b"text/event-stream")
    assert headers[b"Cache-Control"] == b"no-cache"
    [only] = parse(answer["body"])
    assert (only["id"], only["event"]) == (str(entered.pk), "result.entered")
    assert f'"id":"{entered.uid}"' in only["data"] and f'"tournament":"{swiss.slug}"' in only["data"]
    assert answer["body"].startswith(b"retry: 3000\n")


@pytest.mark.django_db(transaction=True)
async def test_an_event_committed_while_listening_arrives(swiss, organiser, settings):
    settings.WEBHOOKS_STREAM_SECONDS = 4
    settings.WEBHOOKS_STREAM_POLL = 0.2
    listening = asyncio.ensure_future(ask(f"/api/v1/tournaments/{swiss.slug}/events/"))
    await asyncio.sleep(0.8)  # the stream has started and seen nothing yet: it begins from now
    await sync_to_async(services.pair_next_round)(actor=organiser, tournament=swiss)
    answer = await listening

    [paired] = parse(answer["body"])
    event = await TournamentEvent.objects.aget(tournament=swiss)
    assert (paired["id"], paired["event"]) == (str(event.pk), "round.paired")


@pytest.mark.django_db(transaction=True)
async def test_after_in_the_query_and_the_refusals(swiss, organiser, settings):
    settings.WEBHOOKS_STREAM_SECONDS = 0.5
    await sync_to_async(_pair_and_report)(swiss, organiser)

    everything = await ask(f"/api/v1/tournaments/{swiss.slug}/events/?after=0")
    assert [e["event"] for e in parse(everything["body"])] == ["round.paired", "result.entered"]
    from_now = await ask(f"/api/v1/tournaments/{swiss.slug}/events/")
    assert parse(from_now["body"]) == []
    for bad in ("abc", "-1", "1e3", "99999999999999999999999"):
        assert (await ask(f"/api/v1/tournaments/{swiss.slug}/events/?after={bad}"))["status"] == 400
    assert (await ask("/api/v1/tournaments/no-such-event/events/"))["status"] == 404


@pytest.mark.django_db
def test_the_stream_under_a_synchronous_server(client, swiss, organiser):
    """Under WSGI (and Django's test client) the same stream, from a synchronous loop."""
    _pair_and_report(swiss, organiser)
    response = client.get(f"/api/v1/tournaments/{swiss.slug}/events/", HTTP_LAST_EVENT_ID="0")
    assert response.status_code == 200 and response.streaming
    body = b"".join(response.streaming_content)
    assert [e["event"] for e in parse(body)] == ["round.paired", "result.entered"]
