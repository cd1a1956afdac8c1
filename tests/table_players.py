"""Players of a live table over real sockets, for the tests that run the site's processes
(tests/processes.py), and the checks of what each socket got.

A `Tab` is one browser tab of the table page and behaves as static/gameplay/table.js does: it
sends `sync` with the last event number it has on every (re)connect and whenever it sees a gap,
applies the event numbered one more than its own and ignores repeats, keeps one move pending until
it is acknowledged or refused and sends it again, with the same id, after a reconnect. A closed
socket is opened again after 0.5 s, doubling to 8 s, at the next address of its list (a stopped
server refuses at once, as nginx then tries the next process); a tab parked by the test waits to be
told where. A `Person` plays one seat through his tabs, in turn, choosing among the legal cards
his view offers; a spectator is a tab without a person.

Every frame a tab gets and every frame it sends is logged in order, so the checks can say after
the match (`check_frames`): each tab applied every event from its first snapshot to the end
exactly once and in order, each applied frame is exactly the stored event as that viewer may see
it (the same public part for everyone), no frame repeats that the tab did not ask for with a sync
(or a stale move, which the site answers with the missed events), and no frame shows a viewer a
card of another seat that has not been played (the rule of tests/gameplay/tables/test_tables_leaks.py,
judged against the finished record).
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from gameplay.engine.cards import SEATS
from gameplay.models import Table, TableEvent
from gameplay.protocol.frames import frame_for

#: A card in the rules' notation (`JC`, `TH`), as tests/gameplay/tables/tables_helpers.py finds them.
CARD_RE = re.compile(r"(?<![A-Za-z0-9])([6789TJQKA][CDHS])(?![A-Za-z0-9])")
#: Seconds without any new event at any table before a wait gives up: only a stuck site waits so long.
STALLED_AFTER = 240.0


class Tab:
    """One table page's socket (see the module); `seat` is 0..3, or None for a spectator."""

    def __init__(self, label: str, *, seat: int | None, urls: list[str], origin: str,
                 cookies: dict[str, str] | None = None, ssl: Any = None) -> None:
        self.label, self.seat, self.urls, self.origin, self.ssl = label, seat, urls, origin, ssl
        self.headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())} if cookies else {}
        self.n = -1
        self.view: dict[str, Any] | None = None
        self.meta: dict[str, Any] | None = None
        self.pending: dict[str, Any] | None = None
        self.ws: ClientConnection | None = None
        self.conn = 0  # connections opened so far
        self.log: list[tuple[str, int, int, dict[str, Any]]] = []  # (got|sent, connection, n then, frame)
        self.applied: list[dict[str, Any]] = []
        self.opened_at: list[str] = []  # the address of each connection
        self.closes: list[int | None] = []
        self.refused_connects = 0
        self.on_change: Callable[[], None] = lambda: None
        self.parked = False
        self._unpark = asyncio.Event()
        self._unpark_to = 0
        self._stopping = False
        self._task: asyncio.Task | None = None

    @property
    def finished(self) -> bool:
        return bool(self.meta and self.meta.get("status") == "finished")

    @property
    def connected(self) -> bool:
        return self.ws is not None and not self.parked

    def start(self, index: int) -> None:
        self._task = asyncio.get_running_loop().create_task(self._life(index), name=self.label)

    async def _life(self, index: int) -> None:
        backoff = 0.5
        while not self._stopping:
            url = self.urls[index]
            try:
                ws = await connect(url, origin=self.origin, additional_headers=self.headers, ssl=self.ssl,
                                   proxy=None, open_timeout=60, max_queue=None)
            except (OSError, InvalidHandshake, TimeoutError):
                self.refused_connects += 1
                index = (index + 1) % len(self.urls)
                await asyncio.sleep(backoff)
                backoff = min(8.0, backoff * 2)
                continue
            self.ws, self.conn, backoff = ws, self.conn + 1, 0.5
            self.opened_at.append(url)
            await self._send({"type": "sync", "last": self.n})
            if self.pending is not None:
                await self._send(self.pending)  # resent with the same id: applied at most once
            try:
                async for message in ws:
                    await self._on_frame(json.loads(message))
            except ConnectionClosed:
                pass
            self.ws = None
            self.closes.append(ws.close_code)
            self.on_change()
            if self.parked:
                await self._unpark.wait()
                self._unpark.clear()
                self.parked = False
                index = self._unpark_to
                continue
            if self.finished or self._stopping:
                return
            index = (index + 1) % len(self.urls)  # the next process: this one may be going away
            await asyncio.sleep(backoff)
            backoff = min(8.0, backoff * 2)

    async def _send(self, frame: dict[str, Any]) -> None:
        ws = self.ws
        if ws is None:
            return
        self.log.append(("sent", self.conn, self.n, frame))
        try:
            await ws.send(json.dumps(frame))
        except ConnectionClosed:
            pass  # the reading loop sees the close

    async def _on_frame(self, f: dict[str, Any]) -> None:
        self.log.append(("got", self.conn, self.n, f))
        kind = f.get("type")
        if kind == "snapshot":
            self.n, self.meta, self.view = f["n"], f["table"], f["view"]
        elif kind == "event":
            if f["n"] <= self.n:
                return
            if f["n"] > self.n + 1:
                await self._send({"type": "sync", "last": self.n})
                return
            self.n, self.meta, self.view = f["n"], f.get("table") or self.meta, f["view"]
            self.applied.append(f)
        elif kind == "presence":
            self.meta = f["table"]
        elif kind in ("ack", "refused"):
            self.pending = None
        self.on_change()

    async def move(self, action: str, move_id: str) -> None:
        self.pending = {"type": "move", "action": action, "n": self.n, "id": move_id}
        await self._send(self.pending)

    async def park(self) -> int:
        """Close the socket (as a page that is closed) and wait to be told where to open it again;
        the number of the last event this tab has."""
        self.parked = True
        if self.ws is not None:
            await self.ws.close()
        while self.ws is not None:
            await asyncio.sleep(0.05)
        return self.n

    def unpark(self, index: int) -> None:
        self._unpark_to = index
        self._unpark.set()

    async def stop(self) -> None:
        self._stopping = True
        self.parked = False
        self._unpark.set()
        if self.ws is not None:
            await self.ws.close()
        if self._task is not None:
            await asyncio.wait_for(self._task, 60)


class Person:
    """A player at one seat, moving through his tabs in turn (a tab that is not connected is
    skipped); `hold` stops him from starting a new move, and so does `until` once his tab has
    seen that event."""

    def __init__(self, label: str, seat: int, tabs: list[Tab], rng: random.Random) -> None:
        self.label, self.seat, self.tabs, self.rng = label, seat, tabs, rng
        self.sent: list[tuple[str, str, str]] = []  # (move id, action, tab label)
        self.acked: dict[str, int] = {}  # move id -> event number
        self.refusals: list[dict[str, Any]] = []
        self.hold = False
        self.until: int | None = None  # when set, no new move once his tab has seen this event
        self._changed = asyncio.Event()
        self._read = dict.fromkeys(range(len(tabs)), 0)  # how much of each tab's log was read
        for tab in tabs:
            tab.on_change = self._changed.set

    @property
    def finished(self) -> bool:
        return any(tab.finished for tab in self.tabs)

    def poke(self) -> None:
        """Look again now (after `hold` or `until` changed)."""
        self._changed.set()

    def _collect(self) -> None:
        """Take in the answers to his moves that his tabs got since the last look."""
        for index, tab in enumerate(self.tabs):
            for direction, _conn, _n, f in tab.log[self._read[index]:]:
                if direction == "got" and f.get("type") == "ack":
                    self.acked[f["id"]] = f["n"]
                elif direction == "got" and f.get("type") == "refused":
                    self.refusals.append(f)
            self._read[index] = len(tab.log)

    def _choose_tab(self) -> Tab | None:
        turn = len(self.sent)
        for k in range(len(self.tabs)):
            tab = self.tabs[(turn + k) % len(self.tabs)]
            if tab.connected:
                return tab
        return None

    async def play(self) -> None:
        while not self.finished:
            self._changed.clear()
            self._collect()
            tab = self._choose_tab()
            waiting = any(t.pending is not None for t in self.tabs)
            last_acked = max(self.acked.values(), default=-1)
            held = self.hold or (self.until is not None and tab is not None and tab.n >= self.until)
            if (tab is not None and not waiting and not held and tab.n >= last_acked
                    and tab.view and tab.view.get("legal") and tab.meta["status"] == "playing"):
                action = self.rng.choice(sorted(tab.view["legal"]))
                move_id = f"{self.label}-{len(self.sent) + 1}"
                self.sent.append((move_id, action, tab.label))
                await tab.move(action, move_id)
                continue
            try:
                await asyncio.wait_for(self._changed.wait(), 5)
            except TimeoutError:
                pass  # look again: a hold lifted, a tab reconnected
        self._collect()


async def wait_until(what: str, predicate: Callable[[], bool], tabs: list[Tab],
                     diagnostics: Callable[[], str] = str) -> None:
    """Wait until `predicate()`; fail only when no tab has seen a new event for STALLED_AFTER seconds."""
    progress, since = None, time.monotonic()
    while not predicate():
        now_progress = sum(max(t.n, 0) for t in tabs) + sum(t.conn for t in tabs)
        if now_progress != progress:
            progress, since = now_progress, time.monotonic()
        elif time.monotonic() - since > STALLED_AFTER:
            state = ", ".join(f"{t.label}: n={t.n} conn={t.conn} pending={t.pending}" for t in tabs)
            more = await asyncio.to_thread(diagnostics)  # it may read the database
            raise AssertionError(f"stuck waiting for {what}: {state}\n{more}")
        await asyncio.sleep(0.05)


# --- the checks, after the match (synchronous: they read the database) ----------------------------

def card_positions(table: Table, events: dict[int, TableEvent]) -> dict[int, tuple[int | None, int]]:
    """For each event number: (the deal, from 0, in the record; how many cards of it were played)
    once the event happened. Each card an event plays is checked against the record's order."""
    deals = table.record["deals"]
    deal, played = None, 0
    after: dict[int, tuple[int | None, int]] = {}
    for number in sorted(events):
        public = events[number].public
        if events[number].kind == "start":
            deal, played = 0, 0
        action = public.get("action")
        if action and CARD_RE.fullmatch(action):
            assert deal is not None and deals[deal]["plays"][played] == action, (number, action)
            played += 1
        if (public.get("deal_end") or {}).get("new_deal"):
            assert deal is not None and played == len(deals[deal].get("plays", [])), number
            deal, played = deal + 1, 0
        after[number] = (deal, played)
    return after


def _hidden(table: Table, viewer: int | None, position: tuple[int | None, int]) -> set[str]:
    """The cards `viewer` may not see at `position`: other seats' cards not yet played."""
    deal, played = position
    if deal is None:
        return set()
    record = table.record["deals"][deal]
    own = SEATS[viewer] if viewer is not None else None
    held = {card for letter, cards in record["hands"].items() if letter != own for card in cards}
    return held - set(record.get("plays", [])[:played])


def _own_hand(table: Table, seat: int, position: tuple[int | None, int]) -> set[str]:
    deal, played = position
    record = table.record["deals"][deal]
    return set(record["hands"][SEATS[seat]]) - set(record.get("plays", [])[:played])


def _no_leak(part: Any, hidden: set[str], where: str) -> None:
    text = json.dumps(part, ensure_ascii=False)
    leaked = set(CARD_RE.findall(text)) & hidden
    assert not leaked, f"{where}: {sorted(leaked)} of another seat's unplayed cards in {text[:400]}"
    assert '"hands"' not in text, f"{where}: a hands field in {text[:400]}"


def check_frames(table_id: int, tabs: list[Tab]) -> dict[str, Any]:
    """Everything each tab got against the stored events and the record (see the module); a
    summary of what the tabs needed (syncs after a gap, repeats ignored) for the test to report."""
    table = Table.objects.get(pk=table_id)
    events = {e.number: e for e in TableEvent.objects.filter(table_id=table_id)}
    assert sorted(events) == list(range(1, table.event_seq + 1)), "the stored events have a gap"
    after = card_positions(table, events)
    before = {n: after.get(n - 1, (None, 0)) for n in events}
    public_by_n: dict[int, dict[str, Any]] = {}
    summary: dict[str, Any] = {}
    for tab in tabs:
        where = f"{tab.label} (seat {tab.seat})"
        numbers = [f["n"] for f in tab.applied]
        assert numbers and numbers[-1] == table.event_seq, f"{where} ended at {numbers[-3:]}"
        assert numbers == list(range(numbers[0], numbers[-1] + 1)), f"{where} applied {numbers}"
        syncs: list[int] = []
        moves_n: dict[str, int] = {}
        seen: Counter[int] = Counter()
        gaps = repeats = 0
        for direction, _conn, n_then, f in tab.log:
            kind = f.get("type")
            if direction == "sent":
                if kind == "sync":
                    syncs.append(f["last"])
                elif kind == "move":
                    moves_n[f["id"]] = f["n"]
                continue
            if kind == "refused" and f.get("code") == "stale":
                syncs.append(moves_n[f["id"]])  # the site follows a stale move with the missed events
            position = after.get(n_then, (None, 0))
            if kind == "event":
                number = f["n"]
                seen[number] += 1
                gaps += int(number > n_then + 1 and n_then >= 0)
                if seen[number] > 1:
                    repeats += 1
                    asked = sum(1 for last in syncs if last < number)
                    assert seen[number] - 1 <= asked, f"{where}: event {number} came {seen[number]} times, " \
                                                      f"asked again {asked} times"
                expected = frame_for(events[number], tab.seat)
                assert f == expected, f"{where}: event {number} is not the stored one:\n{f}\n{expected}"
                public = {k: v for k, v in f.items() if k != "view"}
                assert public_by_n.setdefault(number, public) == public, f"{where}: event {number} differs"
                action = f.get("action")
                hidden = _hidden(table, tab.seat, before[number]) - {action}
                _no_leak(public, hidden, f"{where} event {number}")
                position = after[number]
            elif kind == "snapshot":
                position = after.get(f["n"], (None, 0))
            view = f.get("view")
            if view is not None:
                _no_leak(view, _hidden(table, tab.seat, position), f"{where} {kind} view")
                if tab.seat is None:
                    assert view["hand"] is None, f"{where}: a spectator's view with a hand"
                elif kind in ("event", "snapshot") and view["phase"] != "over":
                    assert set(view["hand"]) == _own_hand(table, tab.seat, position), f"{where}: {kind} hand"
            if kind != "event":  # an event's public part was checked against the cards before it
                _no_leak({k: v for k, v in f.items() if k != "view"}, _hidden(table, tab.seat, position),
                         f"{where} {kind}")
        summary[tab.label] = {"connections": tab.conn, "gaps": gaps, "repeats ignored": repeats}
    return summary


def check_moves(table_id: int, persons: list[Person]) -> None:
    """Every move a person saw acknowledged is in the table's events under its id, at its seat, with
    its action, and so in the record (`card_positions` checked the record against the events);
    no move is left unanswered, and nothing was refused but stale moves."""
    events = {e.move_id: e for e in TableEvent.objects.filter(table_id=table_id).exclude(move_id="")}
    for person in persons:
        actions = {move_id: action for move_id, action, _tab in person.sent}
        assert all(tab.pending is None for tab in person.tabs), f"{person.label}: a move never answered"
        bad = [r for r in person.refusals if r.get("code") not in ("stale", "finished")]
        assert not bad, f"{person.label}: refused {bad}"
        assert person.acked, f"{person.label} made no move"
        for move_id, number in person.acked.items():
            event = events.get(move_id)
            assert event is not None and event.number == number, f"{person.label}: {move_id} ({number}) lost"
            assert event.move_seat == person.seat and event.public.get("action") == actions[move_id], move_id
        mine = {move_id for move_id, e in events.items() if move_id.startswith(f"{person.label}-")}
        assert mine <= set(actions), f"{person.label}: moves he never sent: {mine - set(actions)}"


def tables_state(table_ids: list[int]) -> str:
    """What the database says of the tables, for a test that is stuck (called in a thread of its own)."""
    from django.db import connections

    from gameplay.models import Seat

    try:
        out = []
        for table in Table.objects.filter(pk__in=table_ids).order_by("pk"):
            last = list(TableEvent.objects.filter(table=table).order_by("-number")[:3])
            seats = [(s.seat, s.is_bot, s.connections) for s in Seat.objects.filter(table=table)]
            events = [(e.number, e.kind, e.public.get("seat"), e.public.get("action")) for e in last]
            out.append(f"table {table.pk}: {table.status} at {table.event_seq}, deadline "
                       f"{table.move_deadline}, question {table.decision_event}, seats {seats}, "
                       f"last {events}")
        return "\n".join(out)
    finally:
        connections.close_all()
