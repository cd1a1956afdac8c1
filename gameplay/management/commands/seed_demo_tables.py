"""Demo casual matches for a fresh site: finished live tables among the demo accounts, a guest and
bots, so the archive and its replays have something to show.

Each table is opened, filled and played to its end through `gameplay.services`, every move chosen
by the engine's beginner bot from that seat's own observation (one seeded rng per table, so the
choices are the same every run; the deals are the table's own provable shuffle). The end of the
match archives the table, as at any casual table.

Idempotent: each demo table is known by the client seed its people sit down with ("bilka demo
<key>"); a table already made is left as it is. A table is made in one transaction, so a run that
stops half way leaves no half-played table behind.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.test.utils import override_settings

from archive import services as archive_services
from archive.models import ArchivedMatch
from gameplay import services
from gameplay.engine import Phase
from gameplay.engine.bot import choose_action
from gameplay.models import Seat, Seating, Table, TableStatus
from gameplay.tables import broadcast

GUEST_SESSION = "bilka-demo-guest"
"""The session key of the demo's guest (someone who played without an account)."""


@dataclass(frozen=True)
class DemoTable:
    key: str
    people: tuple[str, ...]
    """Usernames in seat order N, E, S, W (the table seats in order); "" is the guest. Empty seats
    get bots."""
    seed: int
    rules: dict[str, Any] = field(default_factory=dict)
    public: bool = True
    delayed: bool = False
    resign_after_deals: int | None = None
    """Resign (the first person's seat) once this many deals are over, instead of playing on."""


TABLES = (
    DemoTable("friday", ("demo", "organiser", "asel", "oleh"), seed=1),
    DemoTable("invitation", ("demo", "ivan", "asel", "oleh"), seed=2, public=False),
    DemoTable("delayed", ("organiser", "ivan"), seed=3, delayed=True),
    DemoTable("guest", ("", "asel"), seed=4),
    # Lucy resets to zero here and two deals give at most 6 eyes (3, or eggs then 3 × 2), so no
    # deal can end the match before the resignation (with Lucy winning at once, it sometimes did).
    DemoTable("resigned", ("ivan", "oleh", "demo"), seed=5, rules={"lucy": "zero"}, resign_after_deals=2),
    DemoTable("rout91", ("asel", "demo", "oleh", "organiser"), seed=6,
              rules={"rout_at": 91, "first_deal_two_eyes": True}),
)


def client_seed(key: str) -> str:
    return f"bilka demo {key}"


@contextmanager
def quietly() -> Iterator[None]:
    """The seed moves every seat itself, before the site is up: it queues no bot or clock tasks
    for a worker to find stale later, and the table frames its moves would send to watching
    sockets (there are none yet) are collected and dropped. The archive's "match changed"
    notices are queued as always."""
    with override_settings(GAMEPLAY_QUEUE_TASKS=False), broadcast.collecting():
        yield


def play_on(table_id: int, rng: random.Random, *, stop_after_deals: int | None = None,
            max_moves: int = 20000, choose: Any = choose_action) -> Table:
    """Move every seat through `services.play`, the engine's bot (or `choose`) choosing from the
    seat's own observation, until the match ends (or `stop_after_deals` deals are over); the table.

    Each move is its own transaction, as at a real table. The engine state is read from the
    table at each new deal and followed move by move in between (the table's own state is the
    service's; a move the table refuses stops the seed)."""
    state, deal = None, -1
    for _ in range(max_moves):
        table = Table.objects.get(pk=table_id)
        if table.status == TableStatus.FINISHED:
            return table
        if state is None or len(state.deals) != deal:
            state = services.load_state(table)
            deal = len(state.deals)
        if stop_after_deals is not None and state.deals_finished >= stop_after_deals:
            return table
        if state.phase == Phase.REDEAL:
            seat, expected = state.redeal_pending[0], table.decision_event
        else:
            seat, expected = state.to_move, table.event_seq
        action = choose(state.observation(seat), rng)
        outcome = services.play(table_id=table_id, seat=seat, action=services.public_action(action),
                                expected_event=expected)
        if not outcome.ok:
            raise CommandError(f"table #{table_id}: {services.public_action(action)} refused for seat "
                               f"{seat}: {outcome.message}")
        state.apply(action, seat=seat)
    raise CommandError(f"table #{table_id}: the match did not end in {max_moves} moves")


class Command(BaseCommand):
    help = "Play the demo's casual matches to their end at live tables (run seed_demo first; safe to repeat)."

    def handle(self, *args: Any, **options: Any) -> None:
        User = get_user_model()
        names = {n for t in TABLES for n in t.people if n}
        users = {u.username: u for u in User.objects.filter(username__in=names)}
        missing = sorted(names - set(users))
        if missing:
            raise CommandError(f"Run `manage.py seed_demo` first: no demo account {', '.join(missing)}.")
        made = 0
        with quietly():
            for spec in TABLES:
                seat = Seat.objects.filter(client_seed=client_seed(spec.key)).select_related("table").first()
                if seat is not None and seat.table.status != TableStatus.PLAYING:
                    continue
                table = self._play(spec, users, seat.table if seat is not None else None)
                made += 1
                self.stdout.write(f"  table #{table.pk} ({spec.key}): {table.result['winner']} "
                                  f"{table.result['score']['NS']}:{table.result['score']['EW']}, "
                                  f"{table.result['reason']}")
        self.stdout.write(self.style.SUCCESS(f"Demo tables ready ({made} new this run)."))

    def _play(self, spec: DemoTable, users: dict[str, Any], table: Table | None) -> Table:
        """Open the table (unless a run that stopped half way left it playing) and play it out."""
        if table is None:
            table = self._open(spec, users)
        rng = random.Random(spec.seed)  # noqa: S311 - demo players, the same every run
        table = play_on(table.pk, rng, stop_after_deals=spec.resign_after_deals)
        if table.status != TableStatus.FINISHED:
            first = spec.people[0]
            seat = services.seat_for(table, **_person(first, users))
            services.resign(table_id=table.pk, seat=seat)
            table.refresh_from_db()
        account = next((users[n] for n in spec.people if n), None)
        if spec.public and len(spec.people) < 4 and account is not None:
            # a game against bots is its players' own: the demo's players share theirs with everyone
            archived = ArchivedMatch.objects.get(table_id=table.pk)
            archive_services.share_casual_match(user=account, match=archived, public=True)
        return table

    @transaction.atomic
    def _open(self, spec: DemoTable, users: dict[str, Any]) -> Table:
        """The table with its people seated and bots on the empty seats: the match starts."""
        seed = client_seed(spec.key)
        first, *others = spec.people
        table = services.create_table(
            rules=spec.rules, seating=Seating.IN_ORDER, spectators_see_hands_delayed=spec.delayed,
            public=spec.public, rated=len(spec.people) == 4 and all(spec.people), **_person(first, users),
        )
        services.set_client_seed(table_id=table.pk, client_seed=seed, **_person(first, users))
        for name in others:
            services.sit(table_id=table.pk, client_seed=seed, **_person(name, users))
        if len(spec.people) < 4:
            services.fill_with_bots(table_id=table.pk, **_person(first, users))
        return table


def _person(name: str, users: dict[str, Any]) -> dict[str, Any]:
    """Who sits: a demo account by username, or ("") the guest by its session."""
    return {"user": users[name]} if name else {"session_key": GUEST_SESSION}
