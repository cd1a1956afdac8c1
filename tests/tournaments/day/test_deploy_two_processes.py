"""A deploy on a tournament day (docs/deploy.md, "Rolling restart on a tournament day"), on the
site's own processes (tests/processes.py): mid-match the two server processes are restarted one
after the other (SIGTERM to the unit's group, as systemd sends it; the next one only once the first
answers its health check), then both at once, then the Celery workers (a warm shutdown).

Two tables play meanwhile: the live table of an online round, four people (two with their tab on
each process) and a spectator on each process; and a casual table, a person against three bots (two
beginners on the default queue, a strong bot on the bots' queue). A tab closed under it opens again
after 0.5 s, doubling, at the next address that answers, and asks for what it missed, as the table
page does (tests/table_players.py). Each phase starts while both matches are played: the players
get a few moves and the SIGTERM goes at once, so moves are in flight when it comes; between phases
they wait. So every restart falls in the first deal, before either match can end.

Then: every frame each tab got is checked (once, in order, exactly the stored event for its viewer,
no unplayed card of another seat), every player and spectator came back after each restart, every
move a player saw acknowledged is in the record, both matches ended by eyes (nobody lost on time
waiting for a frame that never came), the tournament took the table's result through the restarted
worker, and both archived matches replay to their results.

The site runs its beat, as production does (bilka-beat.service). Celery with Redis can lose a task
the worker fetched just as its warm shutdown began (celery/celery#4354, #7950): in one CI run the
casual table stopped right after the workers' restart with a bot to move (most likely such a lost
bot task) and waited for ever. In production the beat's lost-task sweep
(`gameplay.services.requeue_lost_tasks`) queues it again within a minute or so; the test prints how
often it had to.
"""

from __future__ import annotations

import asyncio
import random
import secrets
import threading
import time

import pytest
import requests
from django.conf import settings
from django.db import transaction
from django.test import Client

from archive.models import ArchivedMatch
from gameplay import services as tables
from gameplay.engine import Phase, read_record
from gameplay.models import Seat, Seating, Table
from tests.table_players import Person, Tab, check_frames, check_moves, tables_state, wait_until
from tournaments import services
from tournaments.models import Match, MatchStatus
from tournaments.services import online

from ..conftest import player_with_account

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

FORM_TOKEN = secrets.token_hex(16)
#: Both tables past this event before the first restart: the first deal is being played.
START_AT = 10
#: How far a table may move on during a phase: moves in flight, and all phases in the first deal.
PHASE_MOVES = {"tournament": 3, "casual": 2}


def _session(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def _tournament_table(club, organiser) -> tuple[Match, dict[int, str]]:
    """Round 1 of an online Swiss of two pairs, its live table opened (the four seated, the match
    started); each seat's session."""
    cup = services.create_tournament(actor=organiser, club=club, name="День выкладки", format="swiss",
                                     swiss_rounds=3, seeding="manual", play_mode="online")
    players = [player_with_account(club, f"deploy-{i}") for i in range(4)]
    for a, b in (players[:2], players[2:]):
        services.register_entry(actor=organiser, tournament=cup, player_a=a, player_b=b)
    first = services.pair_next_round(actor=organiser, tournament=cup)
    with transaction.atomic():  # as the day's plan opens them (the site's own worker may have already)
        online.open_tables(round_id=first.pk)
    match = first.matches.get(bye=False)
    assert match.live_table is not None, "round 1's table was opened neither by the site nor here"
    seats = {s.seat: _session(s.user) for s in Seat.objects.filter(table_id=match.live_table)}
    return match, seats


def _casual_table(club) -> tuple[int, str]:
    user = player_with_account(club, "deploy-solo").user
    table = tables.create_table(rules={}, seating=Seating.IN_ORDER, user=user)
    return table.pk, _session(user)


def _call_bots(server: str, table_id: int, session: str) -> None:
    answer = requests.post(
        f"{server}/tables/{table_id}/bots/",
        data={"csrfmiddlewaretoken": FORM_TOKEN, "level_E": "beginner", "level_S": "strong",
              "level_W": "beginner"},
        cookies={settings.SESSION_COOKIE_NAME: session, "csrftoken": FORM_TOKEN},
        allow_redirects=False, timeout=120,
    )
    assert answer.status_code == 302, answer.text[:500]


def _phases(site) -> list[tuple[str, callable]]:
    def rolling(index: int):
        def restart() -> None:
            site.stop_server(index)
            site.start_server(index)  # back once its /health/ answers
        return restart

    def both() -> None:
        stopping = [threading.Thread(target=site.stop_server, args=(i,)) for i in range(2)]
        for thread in stopping:
            thread.start()
        for thread in stopping:
            thread.join()
        for index in range(2):
            site.start_server(index, wait=False)
        for index in range(2):
            site.wait_healthy(index)

    return [("restart A", rolling(0)), ("restart B", rolling(1)), ("restart both", both),
            ("restart the workers", site.restart_workers)]


async def _play(site, match_table: int, seats: dict[int, str], casual: int, solo: str) -> dict:
    addresses = [f"ws://127.0.0.1:{port}" for port in site.ports]
    def diagnostics() -> str:
        return tables_state([match_table, casual]) + "\n" + site.diagnostics()


    def tab(label: str, table_id: int, seat: int | None, first: int, session: str | None = None) -> Tab:
        order = addresses[first:] + addresses[:first]
        cookies = {settings.SESSION_COOKIE_NAME: session} if session else None
        return Tab(label, seat=seat, urls=[f"{a}/ws/table/{table_id}/" for a in order],
                   origin=site.origins[0], cookies=cookies)

    played = [tab(f"{letter}@{'AB'[seat % 2]}", match_table, seat, seat % 2, seats[seat])
              for seat, letter in enumerate("NESW")]
    watching = [tab("guest@A", match_table, None, 0), tab("guest@B", match_table, None, 1)]
    solo_tab, solo_guest = tab("solo@B", casual, 0, 1, solo), tab("solo-guest@A", casual, None, 0)
    tabs = {"tournament": played + watching, "casual": [solo_tab, solo_guest]}
    everyone = [*tabs["tournament"], *tabs["casual"]]
    for t in everyone:
        t.start(0)
    await wait_until("every tab's first snapshot", lambda: all(t.n >= 0 for t in everyone), everyone,
                     diagnostics)
    people = {"tournament": [Person(t.label[0], t.seat, [t], random.Random(t.seat)) for t in played],
              "casual": [Person("solo", 0, [solo_tab], random.Random(9))]}
    playing = [asyncio.create_task(p.play()) for group in people.values() for p in group]
    await asyncio.to_thread(_call_bots, site.url(1), casual, solo)
    await wait_until(f"both tables past event {START_AT}",
                     lambda: all(min(t.n for t in group) >= START_AT for group in tabs.values()),
                     everyone, diagnostics)

    def allow(moves: dict[str, int] | None) -> None:
        for name, group in people.items():
            for person in group:
                person.until = None if moves is None else max(t.n for t in tabs[name]) + moves[name]
                person.poke()

    phases_at: list[tuple[str, int, int]] = []
    allow({"tournament": 0, "casual": 0})
    for name, phase in _phases(site):
        assert not any(t.finished for t in everyone), f"a match ended before {name}"
        phases_at.append((name, played[0].n, solo_tab.n))
        allow(PHASE_MOVES)  # moves go as the SIGTERM does
        await asyncio.to_thread(phase)
        allow({"tournament": 0, "casual": 0})
    allow(None)
    await wait_until("the end of both matches",
                     lambda: all(t.applied and t.applied[-1]["kind"] == "end" for t in everyone),
                     everyone, diagnostics)
    await asyncio.gather(*playing)
    for t in everyone:
        await t.stop()
    return {"tabs": tabs, "people": people, "phases": phases_at}


def _replays(archived: ArchivedMatch, table: Table) -> None:
    assert archived.record == table.record
    state = read_record(archived.record)
    assert state.phase == Phase.OVER
    assert ("NS" if state.winner == 0 else "EW") == archived.winner == table.result["winner"]
    assert (archived.ns_eyes, archived.ew_eyes) == tuple(state.capped_score)


def test_a_deploy_mid_match_on_two_processes(site_processes, settings, club, organiser):
    settings.GAMEPLAY_QUEUE_TASKS = False  # this process queues nothing: the site's processes do
    match, seats = _tournament_table(club, organiser)
    casual, solo = _casual_table(club)
    site = site_processes(servers=2, beat=True)
    settings.CACHES = site.cache_settings()
    played = asyncio.run(_play(site, match.live_table, seats, casual, solo))

    summary = {}
    for name, table_id in (("tournament", match.live_table), ("casual", casual)):
        table = Table.objects.get(pk=table_id)
        assert table.status == "finished" and table.result["reason"] == "eyes", (name, table.result)
        summary[name] = check_frames(table_id, played["tabs"][name])
        check_moves(table_id, played["people"][name])
        for tab in played["tabs"][name]:  # back after each restart of the servers, at whichever was up
            assert tab.conn >= 3 and tab.closes.count(1012) >= 2, (tab.label, tab.conn, tab.closes)

    deadline = time.monotonic() + 240  # the restarted worker takes the table's result
    while Match.objects.get(pk=match.pk).status != MatchStatus.CONFIRMED:
        assert time.monotonic() < deadline, f"the result was not taken:\n{site.diagnostics()}"
        time.sleep(0.2)
    _replays(ArchivedMatch.objects.get(tournament_match=match.pk), Table.objects.get(pk=match.live_table))
    _replays(ArchivedMatch.objects.get(table_id=casual), Table.objects.get(pk=casual))
    requeued = sum(p.log_path.read_text(errors="replace").count("were lost or are late")
                   for p in site.workers)
    print({"phases (name, tournament event, casual event)": played["phases"],
           "tasks the sweep queued again": requeued, **summary})
