"""Demo tournaments for the Uspenka club made by `seed_demo`: a Swiss under way, a finished cup, a league,
an individual evening (new partner every round).

Idempotent: a tournament that already exists (by name, in the club) is left as it is. Every change
goes through the services, as an organiser's evening would, with fixed random draws and scores.
"""

import datetime
import random

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from clubs.models import Club
from tournaments import services
from tournaments.models import Match, MatchStatus, Tournament

PAIRS = """Нұрлан Ахметов & Жанар Сәрсенова
Әсел Жұмабаева & Олег Ткаченко
Ерлан Қасымов & Айгерім Бекова
Қайрат Оспанов & Сәуле Нұрланқызы
Галина Шевченко & Мирослава Коваленко
Ғалым Тоқтаров & Марат Исаев
Тетяна Бондар & Серік Жақсылықов"""

PRIZES = ["Кубок и 30 000 ₸", "Мешок муки", "Торт «Наполеон»"]


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
        self.stdout.write(self.style.SUCCESS(f"Demo tournaments ready ({made} new this run)."))

    def _new(self, club, organiser, name, **settings):
        if Tournament.objects.filter(club=club, name=name).exists():
            return None
        tournament = services.create_tournament(
            actor=organiser, club=club, name=name, prizes=PRIZES, **settings
        )
        self.stdout.write(f"  tournament {name}")
        return tournament

    def _play(self, tournament, organiser, rnd, rng, *, leave_open: int = 0):
        """Enter results for the round's open matches; the last ``leave_open`` stay unplayed."""
        open_matches = list(
            Match.objects.filter(round=rnd, bye=False, status=MatchStatus.SCHEDULED).order_by("table", "game")
        )
        for match in open_matches[: len(open_matches) - leave_open]:
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
            self._play(t, organiser, rnd, rng)
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
