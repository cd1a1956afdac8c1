"""Two finished duplicate events for the Uspenka club made by `seed_demo`: one played online, one over
the board, so that a visitor of the demo site finds their travellers, par, percentages, the seed
check and the replays of every board.

- Online (4 pairs with accounts, every pair meets the others, 2 boards a round): each round paired,
  its tables dealt their boards from the event seed, played out by bots through the table services,
  and the boards' results taken from the tables, as on a real evening.
- Over the board (6 pairs, a Mitchell, 2 boards a round): each table's boards played by the engine's
  bots from the event's hand records (the hands every table deals from), and the card points
  entered per board by the organiser, as from the tables' slips.

Each event's boards' seed is fixed by its name (the SHA-256 of "Bilka demo: <name>") instead of drawn
at round 1, so the demo deals, plays and scores the same every time it is made (a real event draws
its seed secretly). The online event's 4 pairs could otherwise all end at 50 %, now and then.

Idempotent: an event that already exists (by name, in the club) is left as it is; an online event
stopped half way is taken up where it stopped.
"""

import datetime
import hashlib
import random

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from clubs.models import Club
from gameplay.engine import MatchState, Phase, Rules
from gameplay.engine.bot import choose_action
from gameplay.management.commands.seed_demo_tables import play_on, quietly
from tournaments import services
from tournaments.models import Match, MatchStatus, RoundStatus, Tournament, TournamentStatus
from tournaments.services import online
from tournaments.services.duplicate import draw_board_seed
from tournaments.services.online_boards import board_set_for

from .seed_demo_tournaments import ONLINE_PAIRS, PAIRS

ONLINE = "Дубликат онлайн: вечер одинаковых сдач"
OVER_THE_BOARD = "Дубликат в клубе: зимний вечер"


def erring(observation, rng: random.Random):
    """The beginner bot's card, but a third of the time any legal one: the same boards then end
    differently at different tables, as people's play does (the bot alone would play each board
    the same everywhere, and every pair would score 50 %)."""
    if observation.legal and rng.random() < 0.35:
        return rng.choice(observation.legal)
    return choose_action(observation, rng)


def played_points(match: Match, tournament: Tournament, rng: random.Random) -> list[int]:
    """NS's card points on each board of the match's set, the boards played out by erring beginner
    bots from the event's hand records."""
    boards = board_set_for(match, tournament)
    state = MatchState(Rules.from_json(tournament.rules or {}), rng=rng, boards=boards)
    while state.phase != Phase.OVER:
        seat = state.redeal_pending[0] if state.phase == Phase.REDEAL else state.to_move
        state.apply(erring(state.observation(seat), rng), seat)
    return [deal.points[0] for deal in state.deals]


class Command(BaseCommand):
    help = "Create two finished duplicate events in the Uspenka club (after seed_demo; safe to run again)."

    def handle(self, *args, **options):
        club = Club.objects.filter(name="Успенка").first()
        organiser = get_user_model().objects.filter(username="organiser").first()
        if club is None or organiser is None:
            raise CommandError(
                "Run `manage.py seed_demo` first: the Uspenka club and its organiser are missing.")
        today = datetime.date.today()
        made = self._online(club, organiser, today) + self._over_the_board(club, organiser, today)
        self.stdout.write(self.style.SUCCESS(f"Demo duplicate events ready ({made} new this run)."))

    def _event(self, club, organiser, name, pairs, **settings) -> tuple[Tournament, bool]:
        t = Tournament.objects.filter(club=club, name=name).first()
        if t is not None:
            return t, False
        with transaction.atomic():
            t = services.create_tournament(actor=organiser, club=club, name=name, format="duplicate",
                                           board_scale="points", seeding="manual", **settings)
            services.register_entries_bulk(actor=organiser, tournament=t, text=pairs)
            # round 1 keeps a seed already drawn
            draw_board_seed(t, seed=hashlib.sha256(f"Bilka demo: {name}".encode()).digest())
        self.stdout.write(f"  tournament {name}")
        return t, True

    def _online(self, club, organiser, today) -> int:
        t, made = self._event(club, organiser, ONLINE, ONLINE_PAIRS, movement="howell", boards_per_round=2,
                              play_mode="online", starts_on=today - datetime.timedelta(days=2),
                              venue="Онлайн, столы сайта")
        with quietly():
            while True:
                t.refresh_from_db()
                if t.status == TournamentStatus.FINISHED:
                    break
                rnd = t.rounds.exclude(status=RoundStatus.COMPLETE).order_by("number").first()
                if rnd is None:
                    rnd = services.pair_next_round(actor=organiser, tournament=t)
                with transaction.atomic():
                    online.open_tables(round_id=rnd.pk)
                waiting = Match.objects.filter(round=rnd, live_table__isnull=False,
                                               status=MatchStatus.SCHEDULED)
                for match in waiting.order_by("table"):
                    rng = random.Random(f"{ONLINE} {rnd.number} {match.table}")  # noqa: S311 - demo play
                    table = play_on(match.live_table, rng, choose=erring)
                    online.record_table_result(table_id=table.pk)
                    self.stdout.write(f"  duplicate online, round {rnd.number}, table {match.table}: "
                                      f"#{table.pk}")
        return int(made)

    @transaction.atomic
    def _over_the_board(self, club, organiser, today) -> int:
        t, made = self._event(club, organiser, OVER_THE_BOARD, "\n".join(PAIRS.splitlines()[:6]),
                              movement="mitchell", boards_per_round=2,
                              starts_on=today - datetime.timedelta(days=1), venue="Клуб «Успенка», зал")
        if not made:
            return 0
        while t.status != TournamentStatus.FINISHED:
            rnd = services.pair_next_round(actor=organiser, tournament=t)
            t.refresh_from_db()  # round 1 drew the event's seed
            for match in Match.objects.filter(round=rnd, bye=False).order_by("table"):
                rng = random.Random(f"{OVER_THE_BOARD} {rnd.number} {match.table}")  # noqa: S311 - demo play
                points = played_points(match, t, rng)
                boards = board_set_for(match, t).numbers
                services.enter_board_results(actor=organiser, match=match, entries=[
                    services.BoardEntry(b, ns_points=p) for b, p in zip(boards, points, strict=True)])
            t.refresh_from_db()
        return 1
