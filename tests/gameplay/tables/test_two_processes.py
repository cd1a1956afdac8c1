"""One live table served by two server processes, as production runs it (docs/deploy.md): two
uvicorn processes with the command of deploy/systemd/bilka-asgi@.service on one PostgreSQL and
one Redis, the Celery workers of the bots and the clocks, and the move workers of each server
(tests/processes.py). Directly, and through nginx with the site's own file when nginx is here.

A person and his partner play against two bots (a beginner on the default queue, a strong bot on
the bots' queue); each person has a tab on each process and moves through them in turn, and a
spectator watches on each process (one signed in, one not). The match is played to the end. Then
every frame each tab got is checked (tests/table_players.py): every event applied once and in
order, each exactly the stored event as that viewer may see it, so the same public events on both
processes; no repeat the tab did not ask for; no card of another seat shown before it is played.
Midway one person's tab on the first process is closed and opened again on the other with the
last number it had: it gets exactly the events it missed, and he plays on through it. Every move
acknowledged is in the record, and the archived match replays to its result.
"""

from __future__ import annotations

import asyncio
import random
import re
import secrets
import ssl
from collections import Counter

import pytest
import requests
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from archive.models import ArchivedMatch
from gameplay import services
from gameplay.engine import Phase, read_record
from gameplay.models import Seat, Seating, Table
from tests.processes import Nginx, free_port
from tests.table_players import Person, Tab, check_frames, check_moves, wait_until

pytestmark = pytest.mark.django_db(transaction=True)

#: The form token of the bots' form, sent as the cookie and as the field (Django's double submit).
FORM_TOKEN = secrets.token_hex(16)
#: The event after which a person's tab is closed, and how many events it then misses.
PARK_AT, MISSED = 12, 10


def _session(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def _open_table() -> tuple[int, dict[str, str]]:
    """A table with north and east seated and its deals fixed; the session cookie of each person and
    of a signed-in watcher."""
    User = get_user_model()
    north, east, watcher = (User.objects.create_user(username=name, password="x-secret-1")
                            for name in ("north", "east", "watcher"))
    table = services.create_table(rules={}, seating=Seating.IN_ORDER, user=north)
    Table.objects.filter(pk=table.pk).update(shuffle_seed="5a" * 32)
    Seat.objects.filter(table=table).update(client_seed="fixed N")
    services.sit(table_id=table.pk, user=east, client_seed="fixed E")
    return table.pk, {"north": _session(north), "east": _session(east), "watcher": _session(watcher)}


def _call_bots(server: str, table_id: int, session: str) -> None:
    """North calls in a beginner at S and a strong bot at W through a server's page: the match
    starts in that process, which queues the bots' first tasks."""
    answer = requests.post(
        f"{server}/tables/{table_id}/bots/",
        data={"csrfmiddlewaretoken": FORM_TOKEN, "level_S": "beginner", "level_W": "strong"},
        cookies={settings.SESSION_COOKIE_NAME: session, "csrftoken": FORM_TOKEN},
        allow_redirects=False, timeout=120,
    )
    assert answer.status_code == 302, answer.text[:500]


async def _play(table_id: int, cookies: dict[str, str], addresses: list[str], origin: str,
                tls: ssl.SSLContext | None, call_bots, diagnostics) -> dict:
    """Seat the tabs (the first address is "process A"), play to the end with one tab closed and
    reopened at the other address midway; the tabs, the people and what the reconnect saw."""
    path = f"/ws/table/{table_id}/"
    other = addresses[1:] + addresses[:1]  # a tab on B tries B first, then A

    def tab(label, seat, first, cookie=None):
        urls = [a + path for a in (addresses if first == 0 else other)]
        return Tab(label, seat=seat, urls=urls, origin=origin, ssl=tls,
                   cookies={settings.SESSION_COOKIE_NAME: cookie} if cookie else None)

    north_a, north_b = tab("north@A", 0, 0, cookies["north"]), tab("north@B", 0, 1, cookies["north"])
    east_a, east_b = tab("east@A", 1, 0, cookies["east"]), tab("east@B", 1, 1, cookies["east"])
    guest_a, watcher_b = tab("guest@A", None, 0), tab("watcher@B", None, 1, cookies["watcher"])
    tabs = [north_a, north_b, east_a, east_b, guest_a, watcher_b]
    for t in tabs:
        t.start(0)
    await wait_until("every tab's first snapshot", lambda: all(t.n >= 0 for t in tabs), tabs, diagnostics)
    people = [Person("north", 0, [north_a, north_b], random.Random(1)),
              Person("east", 1, [east_b, east_a], random.Random(2))]
    playing = [asyncio.create_task(p.play(), name=p.label) for p in people]
    await asyncio.to_thread(call_bots)

    await wait_until(f"event {PARK_AT}", lambda: north_a.n >= PARK_AT, tabs, diagnostics)
    people[0].hold = True  # no move of his in flight while his tab closes
    await wait_until("north's moves answered",
                     lambda: north_a.pending is None and north_b.pending is None, tabs, diagnostics)
    parked_at = await north_a.park()
    moves_before = len(people[0].sent)
    people[0].hold = False
    await wait_until(f"{MISSED} events missed", lambda: east_b.n >= parked_at + MISSED, tabs, diagnostics)
    table_was_at = max(t.n for t in tabs)
    north_a.unpark(1 % len(addresses))  # the other process (behind nginx: nginx chooses)
    await wait_until("the end of the match", lambda: all(t.applied and t.applied[-1]["kind"] == "end"
                                                         for t in tabs), tabs, diagnostics)
    await asyncio.gather(*playing)
    for t in tabs:
        await t.stop()
    return {"tabs": tabs, "people": people, "parked": north_a, "parked_at": parked_at,
            "table_was_at": table_was_at, "moves_before": moves_before}


def _check(table_id: int, played: dict, reopened_at: str | None) -> dict:
    """The checks after the match; `reopened_at`: where the closed tab must have been opened again
    (None: anywhere, as nginx chose)."""
    tabs, people, parked = played["tabs"], played["people"], played["parked"]
    summary = check_frames(table_id, tabs)
    check_moves(table_id, people)

    # the tab closed midway: reopened with the last number it had, it got the events it missed on
    # its new connection, and its person played on through it
    last = played["parked_at"]
    if reopened_at is not None:
        assert parked.opened_at[1] == reopened_at != parked.opened_at[0], parked.opened_at
    first_sent = next(f for d, conn, _n, f in parked.log if d == "sent" and conn == 2)
    assert first_sent == {"type": "sync", "last": last}, first_sent
    missed = range(last + 1, played["table_was_at"] + 1)
    got = Counter(f["n"] for d, conn, _n, f in parked.log
                  if d == "got" and conn == 2 and f.get("type") == "event")
    assert len(missed) >= MISSED and all(got[n] >= 1 for n in missed), (list(missed), got)
    later = [label for _id, _a, label in people[0].sent[played["moves_before"]:]]
    assert parked.label in later, f"north never moved through the reopened tab: {later}"

    table = Table.objects.get(pk=table_id)
    assert table.status == "finished" and table.result["reason"] == "eyes", table.result
    archived = ArchivedMatch.objects.get(table_id=table_id)
    assert archived.record == table.record
    state = read_record(archived.record)
    assert state.phase == Phase.OVER
    assert ("NS" if state.winner == 0 else "EW") == archived.winner == table.result["winner"]
    assert (archived.ns_eyes, archived.ew_eyes) == tuple(state.capped_score)
    return {**summary, "events": table.event_seq, "missed while closed": len(missed), "archived": archived.pk}


def test_one_table_on_two_processes(site_processes):
    table_id, cookies = _open_table()
    site = site_processes(servers=2)
    addresses = [f"ws://127.0.0.1:{port}" for port in site.ports]
    played = asyncio.run(_play(table_id, cookies, addresses, site.origins[0], None,
                               lambda: _call_bots(site.url(1), table_id, cookies["north"]), site.diagnostics))
    for t in played["tabs"]:  # each process held the sockets of its tabs (a reconnect went to the other)
        expected = addresses[0] if t.label.endswith("@A") else addresses[1]
        assert t.opened_at[0].startswith(expected), (t.label, t.opened_at)
    summary = _check(table_id, played, addresses[1] + f"/ws/table/{table_id}/")
    # a game with bots is its players' own: north reads it in the archive, a visitor does not
    archived = f"{site.url(0)}/archive/{summary['archived']}/"
    north = {settings.SESSION_COOKIE_NAME: cookies["north"]}
    assert requests.get(archived, cookies=north, timeout=60).status_code == 200
    assert requests.get(archived, timeout=60).status_code == 404
    print(summary)


@pytest.mark.slow  # a second whole match: the file stays under two minutes in the main suite
def test_one_table_on_two_processes_behind_nginx(site_processes):
    missing = Nginx.missing()
    if missing:
        pytest.skip(f"the nginx variant needs nginx: {missing}")
    table_id, cookies = _open_table()
    http_port, https_port = free_port(), free_port()
    nginx_origin = f"https://localhost:{https_port}"
    site = site_processes(servers=2, origins=(nginx_origin,))
    nginx = Nginx([f"127.0.0.1:{port}" for port in site.ports], http_port=http_port, https_port=https_port)
    try:
        nginx.start()
        tls = ssl.create_default_context(cafile=str(nginx.certificate))
        address = f"wss://localhost:{https_port}"
        played = asyncio.run(_play(table_id, cookies, [address], nginx.origin, tls,
                                   lambda: _call_bots(site.url(0), table_id, cookies["north"]),
                                   lambda: site.diagnostics() + nginx.log_tail()))
        summary = _check(table_id, played, None)
        upstreams = _upstreams(nginx, table_id)
    finally:
        nginx.close()
    # nginx spread the table's sockets over both processes (least_conn)
    assert set(upstreams) == {f"127.0.0.1:{port}" for port in site.ports}, upstreams
    print({**summary, "sockets by process": dict(upstreams)})


def _upstreams(nginx: Nginx, table_id: int) -> Counter:
    """The server process that served each of the table's sockets, from nginx's access log."""
    found: Counter = Counter()
    for line in nginx.access_log.read_text().splitlines():
        if f"GET /ws/table/{table_id}/ " in line:
            found.update(re.findall(r"up=(\S+)", line))
    return found
