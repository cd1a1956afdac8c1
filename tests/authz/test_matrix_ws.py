"""The sockets of the matrix through the real ASGI app (origin check, session auth) and the real
Redis layer: who may open each websocket route, and what each table-socket action does for each of
the seven people, at the private table and at a public one. Nobody but a seat gets its hand."""

from __future__ import annotations

import asyncio
import json

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from config.asgi import application
from gameplay import services
from gameplay.engine.cards import SEATS, card_to_str, mask_cards
from gameplay.models import Table, TableStatus
from tests.authz.rows import ACTION_ROWS, CLOSED, OPEN, SOCKET_ROWS
from tests.authz.world import ROLES, TableWorld, build_table_world
from tests.communicator import CEILING, Communicator
from tests.gameplay.tables.tables_helpers import CARD_RE, legal_strings

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("clean_channel_layer")]

ORIGIN = (b"origin", b"http://127.0.0.1:8000")


@pytest.fixture(autouse=True)
def _sockets(settings):
    settings.GAMEPLAY_QUEUE_TASKS = False
    settings.GAMEPLAY_SOCKET_DB_REUSE = False  # the test database can be dropped at the end
    settings.GAMEPLAY_FLOOD_LIMITS = False  # dozens of sockets from one address: not what is asked here
    from channels.layers import channel_layers

    channel_layers.backends.clear()  # a fresh layer for this test's event loop
    yield
    channel_layers.backends.clear()


@pytest.fixture(scope="session", autouse=True)
def _end_stray_connections(django_db_setup, django_db_blocker):
    """Sockets leave connections in worker threads of closed event loops; end them so that the
    test database can be dropped at the end of the run (as the live-table tests do).

    At the end of the session, not of this module: every connection to the test database is
    ended, so mid-run it also cut the session's Celery worker and the connection of asgiref's
    shared thread from under the tests that ran next in the same process (which files those are
    depends on how pytest-xdist hands them out)."""
    yield
    from django.db import connection

    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


@database_sync_to_async
def _world() -> tuple[TableWorld, dict[str, bytes | None]]:
    world = build_table_world()
    cookies: dict[str, bytes | None] = {"anonymous": None}
    for role in ROLES[1:]:
        client = Client()
        client.force_login(world.users[role])
        cookies[role] = f"sessionid={client.cookies['sessionid'].value}".encode()
    return world, cookies


def _sock(path: str, cookie: bytes | None) -> Communicator:
    headers = [ORIGIN] + ([(b"cookie", cookie)] if cookie else [])
    return Communicator(application, path, headers=headers)


async def _drain(sock: Communicator, timeout: float = 0.3) -> list[dict]:
    frames = []
    while not await sock.receive_nothing(timeout=timeout):
        frames.append(await sock.receive_json_from())
    return frames


@database_sync_to_async
def _table(pk: int) -> tuple[Table, object]:
    table = Table.objects.get(pk=pk)
    return table, services.load_state(table)


def _secret(state, viewer: int | None) -> set[str]:
    """The unplayed cards of every hand but the viewer's."""
    return {card_to_str(c) for seat in range(4) if seat != viewer for c in mask_cards(state.hands[seat])}


async def _leaks(frames: list[dict], table_id: int, before, viewer: int | None) -> set[str]:
    """Cards of another hand, still unplayed after the action, that the frames show. Once the
    match is over every hand is the record's, public."""
    table, after = await _table(table_id)
    if table.status == TableStatus.FINISHED:
        return set()
    secret = _secret(before, viewer) & _secret(after, viewer)
    return set(CARD_RE.findall(json.dumps(frames))) & secret


def _path(route: str, world: TableWorld, target: str) -> str:
    table = world.private_table if target == "private" else world.public_table
    return "/" + route.replace("<int:table_id>", str(table.pk)).replace(
        "<int:tournament_id>", str(world.tournament.pk))


async def test_who_may_open_each_socket():
    world, cookies = await _world()
    wrong = []
    for row in SOCKET_ROWS:
        for role in ROLES:
            sock = _sock(_path(row.route, world, row.target), cookies[role])
            connected, code = await sock.connect()
            got = OPEN if connected else code
            if got != row.expect[role]:
                wrong.append(f"{row.route} {row.target} {role}: got {got}, row says {row.expect[role]}")
            if connected:
                await sock.disconnect()
    assert not wrong, "\n".join(wrong)


async def _finished(pk: int) -> bool:
    return (await _table(pk))[0].status == TableStatus.FINISHED


DECISIVE = {"ping": "pong", "sync": "snapshot", "move": "ack"}


async def _act(action: str, sock: Communicator, table: Table, state) -> tuple[str, list[dict]]:
    """Send one message of `action`; what the table did, in the matrix's words, and every frame
    the socket got (presence frames from before included)."""
    if action == "move":
        await sock.send_json_to({"type": "move", "action": legal_strings(state)[0], "n": table.event_seq,
                                 "id": "matrix"})
    else:
        await sock.send_json_to({"type": action, "last": -1})
    frames: list[dict] = []
    # Every action is answered (DECISIVE, a refusal, or the end of the match): waited for as long
    # as a busy machine needs, so that only a socket that never answers reads as "nothing".
    loop = asyncio.get_running_loop()
    deadline = loop.time() + CEILING
    while loop.time() < deadline:
        try:
            frame = await sock.receive_json_from(max(0.0, deadline - loop.time()))
        except TimeoutError:
            break
        frames.append(frame)
        if frame["type"] == "refused":
            return frame["code"], frames
        if frame["type"] == DECISIVE.get(action):
            return frame["type"], frames + await _drain(sock, timeout=0.05)
        if action == "resign" and frame["type"] == "event" and await _finished(table.pk):
            return "ended", frames + await _drain(sock, timeout=0.05)
    return f"nothing ({[f['type'] for f in frames]})", frames


async def test_each_table_action_for_each_person():
    world, cookies = await _world()
    seat_of = {"private": world.users["seated"], "public": world.users["other_player"]}
    wrong = []
    for row in ACTION_ROWS:
        table_obj = world.private_table if row.table == "private" else world.public_table
        # the table's own player acts last, so everyone else meets the table as it was
        roles = sorted(ROLES, key=lambda r: world.users.get(r) == seat_of[row.table])
        for role in roles:
            table, state = await _table(table_obj.pk)
            own = world.users.get(role) == seat_of[row.table]
            viewer = state.to_move if own else None
            sock = _sock(f"/ws/table/{table.pk}/", cookies[role])
            watcher = _sock(f"/ws/table/{table.pk}/", cookies["stranger"]) if row.table == "public" else None
            connected, _code = await sock.connect()
            if not connected:
                got, frames = CLOSED, []
            else:
                if watcher is not None:
                    assert (await watcher.connect())[0]
                got, frames = await _act(row.action, sock, table, state)
            if got != row.expect[role]:
                wrong.append(f"{row.action} at the {row.table} table, {role}: got {got}, "
                             f"row says {row.expect[role]}")
            # what each one was sent: his own hand at most, never another seat's card
            if leaked := await _leaks(frames, table.pk, state, viewer):
                wrong.append(f"{row.action}, {role}: sent cards of another hand {sorted(leaked)}")
            for frame in frames:
                if frame["type"] == "snapshot":
                    hand = frame["view"]["hand"]
                    mine = sorted(card_to_str(c) for c in mask_cards(state.hands[viewer])) if own else None
                    if (sorted(hand) if hand is not None else None) != mine:
                        wrong.append(f"sync, {role}: hand {hand}, should be {mine}")
                    if frame["you"]["seat"] != (SEATS[viewer] if own else None):
                        wrong.append(f"sync, {role}: told he is {frame['you']['seat']}")
            if watcher is not None:
                seen = []
                if got in ("ack", "ended"):  # the table moved: the spectator is sent its event, awaited
                    seen = await watcher.receive_until(lambda f: f["type"] == "event")
                seen += await _drain(watcher, timeout=0.2 if own else 0.05)
                if leaked := await _leaks(seen, table.pk, state, None):
                    wrong.append(f"{row.action} by {role}: a spectator was sent {sorted(leaked)}")
                await watcher.disconnect()
            if connected:
                await sock.disconnect()
    assert not wrong, "\n".join(wrong)
