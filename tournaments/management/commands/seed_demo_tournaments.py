"""Demo tournaments for the Uspenka club made by `seed_demo`: a Swiss under way, a finished cup, a league,
an individual evening (new partner every round); the reminders their rounds send; a live table to watch.

Idempotent: a tournament that already exists (by name, in the club) is left as it is, a reminder is
sent once (its key), and a new live table is opened only when none of the demo's is still playing.
Every change goes through the services, as an organiser's evening would, with fixed random draws
and scores.
"""

import datetime
import random

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import timezone

from clubs.models import Club
from gameplay import services as tables
from gameplay.engine import Rules
from gameplay.engine.bot import choose_action
from gameplay.engine.selfplay import bot_match
from gameplay.management.commands.seed_demo_tables import play_on, quietly
from gameplay.models import Table, TableStatus
from tournaments import services
from tournaments.models import (
    Match,
    MatchStatus,
    Notification,
    Round,
    RoundStatus,
    Tournament,
    TournamentStatus,
)
from tournaments.services import online
from tournaments.services.day import remind

LIVE_TABLE_PLAYER = "oleh"
"""The demo account seated with three bots at the live table (log in as him to play on)."""

PAIRS = """Нұрлан Ахметов & Жанар Сәрсенова
Әсел Жұмабаева & Олег Ткаченко
Ерлан Қасымов & Айгерім Бекова
Қайрат Оспанов & Сәуле Нұрланқызы
Галина Шевченко & Мирослава Коваленко
Ғалым Тоқтаров & Марат Исаев
Тетяна Бондар & Серік Жақсылықов"""

PRIZES = ["Кубок и 30 000 ₸", "Мешок муки", "Торт «Наполеон»"]

ONLINE = "Онлайн-белка: зимний кубок"
ONLINE_PAIRS = """Нұрлан Ахметов & Жанар Сәрсенова
Әсел Жұмабаева & Олег Ткаченко
Тимур Бекенов & Дана Серікова
Вера Лисенко & Богдан Кравчук"""
"""Every player has an account (seed_demo), so each match gets a live table."""
ONLINE_ROUNDS = 2


class Command(BaseCommand):
    help = "Create demo tournaments in the Uspenka club (run seed_demo first; safe to run again)."

    def handle(self, *args, **options):
        club = Club.objects.filter(name="Успенка").first()
        organiser = get_user_model().objects.filter(username="organiser").first()
        if club is None or organiser is None:
            raise CommandError(
                "Run `manage.py seed_demo` first: the Uspenka club and its organiser are missing."
            )
        today = datetime.date.today()
        made = 0
        made += self._swiss(club, organiser, today)
        made += self._cup(club, organiser, today)
        made += self._league(club, organiser, today)
        made += self._individual(club, organiser, today)
        made += self._online(club, organiser, today)
        sent = self._reminders(club)
        live = self._live_table()
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo tournaments ready ({made} new this run, {sent} reminders); live table {live}."
            )
        )

    def _new(self, club, organiser, name, **settings):
        if Tournament.objects.filter(club=club, name=name).exists():
            return None
        tournament = services.create_tournament(
            actor=organiser, club=club, name=name, prizes=PRIZES, **settings
        )
        self.stdout.write(f"  tournament {name}")
        return tournament

    def _play(self, tournament, organiser, rnd, rng, *, leave_open: int = 0, sheets: bool = False):
        """Enter results for the round's open matches; ``leave_open`` stay unplayed: those with the
        most demo accounts at them, so those accounts get the round's reminders whatever the draw
        (which can differ with the database's ids). With ``sheets`` each result is the score sheet,
        deal by deal, of a match the engine's bots played (``demo_sheet``)."""
        _held(tournament, rnd)
        open_matches = sorted(
            Match.objects.filter(round=rnd, bye=False, status=MatchStatus.SCHEDULED)
            .select_related("home__player_a", "home__player_b", "away__player_a", "away__player_b")
            .order_by("table", "game"),
            key=_accounts_at,
        )
        for match in open_matches[: len(open_matches) - leave_open]:
            if sheets:
                deals = demo_sheet(tournament.rules, seed=rng.randrange(1 << 30))
                services.enter_result(actor=organiser, match=match, deals=deals)
                continue
            loser = rng.randint(0, 11)
            home_wins = rng.random() < 0.55
            services.enter_result(
                actor=organiser,
                match=match,
                home_eyes=12 if home_wins else loser,
                away_eyes=loser if home_wins else 12,
            )

    @transaction.atomic
    def _swiss(self, club, organiser, today) -> int:
        t = self._new(
            club, organiser, "Чемпионат Успенки 2026", format="swiss", swiss_rounds=5, starts_on=today,
            venue="Дом культуры, Успенка", seeding="manual", self_registration=True,
        )  # fmt: skip
        if t is None:
            return 0
        rng = random.Random(2026)  # noqa: S311 - demo scores
        services.register_entries_bulk(actor=organiser, tournament=t, text=PAIRS)
        for number in range(1, 4):
            rnd = services.pair_next_round(actor=organiser, tournament=t)
            self._play(t, organiser, rnd, rng, leave_open=2 if number == 3 else 0)
        return 1

    @transaction.atomic
    def _cup(self, club, organiser, today) -> int:
        t = self._new(
            club, organiser, "Осенний кубок Успенки", format="single_elim", third_place=True,
            seeding="random",
            starts_on=today - datetime.timedelta(days=30), venue="Школа, спортзал",
        )  # fmt: skip
        if t is None:
            return 0
        rng = random.Random(1)  # noqa: S311 - demo scores
        services.register_entries_bulk(actor=organiser, tournament=t, text="\n".join(PAIRS.splitlines()[:6]))
        for _ in range(3):
            rnd = services.pair_next_round(actor=organiser, tournament=t)
            self._play(t, organiser, rnd, rng)
        return 1

    @transaction.atomic
    def _league(self, club, organiser, today) -> int:
        t = self._new(
            club, organiser, "Пятничная лига", format="round_robin", matchday_days=7, seeding="random",
            starts_on=today - datetime.timedelta(days=14), venue="Дом культуры, Успенка",
        )  # fmt: skip
        if t is None:
            return 0
        rng = random.Random(7)  # noqa: S311 - demo scores
        services.register_entries_bulk(actor=organiser, tournament=t, text="\n".join(PAIRS.splitlines()[1:6]))
        for _ in range(2):
            rnd = services.pair_next_round(actor=organiser, tournament=t)
            self._play(t, organiser, rnd, rng, sheets=True)
        services.pair_next_round(actor=organiser, tournament=t)
        return 1

    @transaction.atomic
    def _individual(self, club, organiser, today) -> int:
        """Thirteen players alone, a full movement of five rounds: two played, the third under way."""
        t = self._new(
            club, organiser, "Белка-микс: индивидуальный турнир", format="ind_movement", swiss_rounds=5,
            seeding="manual", starts_on=today, venue="Дом культуры, Успенка",
        )  # fmt: skip
        if t is None:
            return 0
        rng = random.Random(13)  # noqa: S311 - demo scores
        names = [name for line in PAIRS.splitlines() for name in line.split(" & ")][:13]
        services.register_players_bulk(actor=organiser, tournament=t, text="\n".join(names))
        for number in range(1, 4):
            rnd = services.pair_next_round(actor=organiser, tournament=t)
            self._play(t, organiser, rnd, rng, leave_open=1 if number == 3 else 0)
        return 1

    def _online(self, club, organiser, today) -> int:
        """An online Swiss of four pairs with accounts: each round paired, its live tables opened
        by the online plan's service, played to the end by bots through the table services, and
        the results taken from the tables (as the plan's task does when a table ends). Both rounds
        complete, so the tournament is over and its matches' records are public in the archive.

        Not one transaction: each move commits as at a real table. A run that stops half way is
        taken up where it stopped: a table still playing is played on, a finished one recorded,
        the next round paired."""
        t = Tournament.objects.filter(club=club, name=ONLINE).first()
        made = 0
        if t is None:
            with transaction.atomic():
                t = self._new(
                    club, organiser, ONLINE, format="swiss", swiss_rounds=ONLINE_ROUNDS, seeding="manual",
                    play_mode="online", starts_on=today - datetime.timedelta(days=7),
                    venue="Онлайн, столы сайта",
                )  # fmt: skip
                services.register_entries_bulk(actor=organiser, tournament=t, text=ONLINE_PAIRS)
            made = 1
        with quietly():
            for number in range(1, ONLINE_ROUNDS + 1):
                rnd = t.rounds.filter(number=number).first()
                if rnd is None:
                    rnd = services.pair_next_round(actor=organiser, tournament=t)
                if rnd.status == RoundStatus.COMPLETE:
                    continue
                with transaction.atomic():  # it locks the round's matches, as the plan's task does
                    online.open_tables(round_id=rnd.pk)
                waiting = Match.objects.filter(
                    round=rnd, live_table__isnull=False, status=MatchStatus.SCHEDULED
                )
                for match in waiting.order_by("table", "game"):
                    rng = random.Random(f"{ONLINE} {number} {match.table}")  # noqa: S311 - demo play
                    table = play_on(match.live_table, rng)
                    online.record_table_result(table_id=table.pk)
                    self.stdout.write(f"  online round {number}, table {match.table}: live table #{table.pk}")
        return made

    def _reminders(self, club) -> int:
        """The notices the day plans send before a round and a matchday's deadline, so the demo
        accounts playing in the rounds under way find them in the menu (each sent once, by key)."""
        before = Notification.objects.count()
        for t in Tournament.objects.filter(club=club, status=TournamentStatus.RUNNING):
            rnd = t.rounds.order_by("-number").first()
            if rnd is None:
                continue
            remind(round_id=rnd.pk)
            if rnd.deadline is not None:
                remind(round_id=rnd.pk, deadline=True)
        return Notification.objects.count() - before

    @transaction.atomic
    def _live_table(self) -> str:
        """A table a visitor can watch: Oleh and three bots, a few tricks into the first deal, Oleh to play.

        Oleh's move clock is an hour (the longest the rules allow); when it runs out the table ends
        and the next run of this command (every `bin/site` start) opens a new one."""
        player = get_user_model().objects.filter(username=LIVE_TABLE_PLAYER).first()
        if player is None:
            return "skipped (no demo account)"
        playing = Table.objects.filter(status=TableStatus.PLAYING, seats__user=player).first()
        if playing is not None:
            return f"#{playing.pk} still playing"
        table = tables.play_now(user=player, rules={"move_seconds": 3600})
        seat = table.seats.get(user=player).seat
        rng = random.Random(2026)  # noqa: S311 - demo play
        for _ in range(200):  # a few tricks are far fewer moves; the bound only guards the loop
            table.refresh_from_db()
            state = tables.load_state(table)
            if state is None or state.to_move is None:
                break
            if state.to_move == seat and sum(state.tricks_taken) >= 3:
                break
            if state.to_move == seat:
                action = tables.public_action(choose_action(state.observation(seat), rng))
                tables.play(table_id=table.pk, seat=seat, action=action, expected_event=table.event_seq)
            else:
                tables.bot_move(table_id=table.pk, expected_event=table.event_seq, rng=rng)
        self.stdout.write(f"  live table #{table.pk}")
        return f"#{table.pk} opened"


def demo_sheet(rules: dict, *, seed: int) -> list[dict]:
    """The score sheet of a match the engine's bots play (``bot_match``): each played deal's points
    and the pair that held the jack of clubs, as a scorer writes them down (redeals are not)."""
    state = bot_match(Rules.from_json(rules or {}), seed=seed, provable=True)
    deals = []
    for log in state.deals:
        if log.redeal is not None or log.outcome is None:
            continue
        pairs = {winner & 1 for winner in log.trick_winners}
        deals.append({
            "points": tuple(log.points),
            "jack_holder": log.pair_on_duty,
            "all_tricks": pairs.pop() if len(pairs) == 1 else None,
        })
    return deals


def _held(tournament: Tournament, rnd: Round) -> None:
    """Put a demo round at its evening: the results an organiser enters are learnt at the round's
    pairing (``services.archiving``), so the ratings' history, charts and the archive show the events
    on their own days rather than every match at the minute the seed ran. Rounds an hour apart from
    18:00 of the first day, a league's a matchday apart; today's event early enough to be over."""
    now = timezone.now()
    start = timezone.make_aware(datetime.datetime.combine(tournament.starts_on, datetime.time(18)))
    start = min(start, now - datetime.timedelta(hours=6))
    days = tournament.matchday_days or 0
    step = datetime.timedelta(days=days) if days else datetime.timedelta(hours=1)
    rnd.created_at = min(start + (rnd.number - 1) * step, now)  # the round's own save keeps it too
    Round.objects.filter(pk=rnd.pk).update(created_at=rnd.created_at)
    # and its matches were played then: where the organiser sits at one himself, his entry is the
    # players' report, which would otherwise be learnt at the minute it was made
    Match.objects.filter(round=rnd, bye=False).update(played_at=rnd.created_at)


def _accounts_at(match: Match) -> int:
    """How many players with an account sit at the match."""
    entries = (match.home, match.away)
    return sum(1 for e in entries if e for p in (e.player_a, e.player_b) if p is not None and p.user_id)
