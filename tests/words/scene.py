"""The realistic site every page of the words test is rendered against.

The demo data (`seed_demo`, `seed_demo_tournaments`: a club, its players, a Swiss under way with
results, a finished knockout, a league and an individual evening), plus what the demo lacks: a
result reported and waiting for the other pair's PIN, day plans done, a live table with bots under way and one
finished, an invitation link, invitations to the club waiting for an answer, and a tournament still
open for registration with a pair waiting for its partner, and a knockout over best of 3 started.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.utils import timezone

from archive.services import fairplay
from clubs import services as club_services
from clubs.models import Club, ClubPlayer, MemberInvitation, Player, PlayerInvitation
from gameplay import services as table_services
from gameplay.models import Table
from tests.gameplay.tables.tables_helpers import play_random
from tournaments import services
from tournaments.models import (
    ACTIVE_STATUSES,
    ActionKind,
    ByeRequest,
    Entry,
    IndividualEntry,
    Match,
    MatchStatus,
    Tournament,
)
from tournaments.services import plans, runner


@dataclass
class Scene:
    club: Club
    swiss: Tournament
    cup: Tournament
    league: Tournament
    mix: Tournament
    fresh: Tournament
    users: dict
    open_match: Match
    reported_match: Match
    confirmed_match: Match
    mix_match: Match
    table: Table
    finished_table: Table
    invitation: PlayerInvitation
    #: demo's invitation to ivan by name, his QR code shown in person, and timur's pair in the fresh
    #: tournament waiting for dana to accept it.
    member_invitation: MemberInvitation | None = None
    in_person: MemberInvitation | None = None
    partner_request: Entry | None = None
    mix_match_entry: int = 0
    #: A table waiting for players, asel seated: the form that picks each empty seat's bot level.
    open_table: Table | None = None
    #: A Kozyol khvalyony table under way, oleh against three beginner bots.
    kozyol_table: Table | None = None
    #: A Bilka-for-two table under way, oleh against one beginner bot.
    bilka2_table: Table | None = None
    #: The Swiss and the mix grant half-point requested byes; a Swiss pair asked for the next round.
    bye: ByeRequest | None = None
    names: frozenset[str] = field(default=frozenset())
    #: A knockout over best of 3, round 1 paired: the sheets of every match of its ties are printed.
    series: Tournament | None = None
    #: A duplicate event of four pairs, round 1 paired, both tables' boards entered (one adjusted).
    duplicate: Tournament | None = None
    dup_match: Match | None = None
    #: An individual duplicate of eight players, round 1 played at both tables.
    ind_duplicate: Tournament | None = None

    def user(self, username: str | None):
        return None if username is None else self.users[username]


def build_scene() -> Scene:
    call_command("seed_demo", verbosity=0)
    call_command("seed_demo_tournaments", verbosity=0)
    users = {u.username: u for u in get_user_model().objects.all()}
    organiser = users["organiser"]
    club = Club.objects.get(name="Успенка")
    swiss = Tournament.objects.get(name="Чемпионат Успенки 2026")
    scheduled = list(swiss.matches.filter(status=MatchStatus.SCHEDULED, bye=False).order_by("table"))
    open_match, to_report = scheduled[0], scheduled[-1]
    services.enter_result(
        actor=_player_of(to_report, club, users["demo"]), match=to_report, home_eyes=12, away_eyes=7
    )
    users = {u.username: u for u in get_user_model().objects.all()}
    _run_day_plans(swiss)
    mix = Tournament.objects.get(name="Белка-микс: индивидуальный турнир")
    fresh = services.create_tournament(
        actor=organiser, club=club, name="Весенний турнир", format="swiss", swiss_rounds=4,
        self_registration=True, venue="Дом культуры, Успенка",
    )  # fmt: skip
    services.register_entries_bulk(
        actor=organiser, tournament=fresh, text="Галина Шевченко & Мирослава Коваленко"
    )
    table = table_services.play_now(user=users["asel"])
    finished = table_services.play_now(user=users["oleh"])
    play_random(finished.pk, random.Random(5), 12)
    table_services.resign(table_id=finished.pk, seat=2)
    cp = ClubPlayer.objects.filter(club=club, player__user__isnull=True).order_by("pk").first()
    club_services.invite_player(actor=users["demo"], club=club, player=cp.player)
    scene = Scene(
        club=club, swiss=swiss, league=Tournament.objects.get(name="Пятничная лига"),
        cup=Tournament.objects.get(name="Осенний кубок Успенки"), mix=mix, fresh=fresh, users=users,
        open_match=open_match, reported_match=Match.objects.get(pk=to_report.pk),
        confirmed_match=swiss.matches.filter(status=MatchStatus.CONFIRMED, bye=False).first(),
        mix_match=mix.matches.filter(bye=False).first(), table=table,
        finished_table=Table.objects.get(pk=finished.pk),
        invitation=PlayerInvitation.objects.filter(club=club).latest("pk"),
    )  # fmt: skip
    scene.open_table = table_services.create_table(rules={}, user=users["asel"])
    scene.kozyol_table = table_services.create_table(rules={"game": "kozyol"}, user=users["oleh"], bots=True)
    scene.bilka2_table = table_services.create_table(rules={"game": "bilka-2"}, user=users["oleh"], bots=True)
    services.update_tournament(
        actor=organiser, tournament=swiss, bye_requests="half", bye_requests_not_last=1
    )
    services.update_tournament(actor=organiser, tournament=mix, bye_requests="half")
    last = swiss.entries.filter(seed__gt=0, status__in=ACTIVE_STATUSES).order_by("seed").last()
    scene.bye = services.ask_bye(actor=organiser, entry=last, round_number=swiss.rounds.count() + 1)
    scene.member_invitation = club_services.invite_member(actor=users["demo"], club=club, who="ivan")
    scene.in_person = club_services.invite_in_person(actor=users["demo"], club=club)
    scene.partner_request = services.self_register(
        actor=users["timur"], tournament=fresh, partner=Player.objects.get(user=users["dana"])
    )
    scene.mix_match_entry = (
        IndividualEntry.objects.filter(tournament=mix, player__in=_players_at(scene.mix_match)).first().pk
    )
    scene.series = services.create_tournament(
        actor=organiser, club=club, name="Кубок до двух побед", format="single_elim", best_of=3,
        seeding="manual", venue="Үшқоңыр",
    )  # fmt: skip
    services.register_entries_bulk(actor=organiser, tournament=scene.series, text="\n".join((
        "Әсел Құрманғали & Ұлжан Өтебаева", "Ғалым Үсенов & Іңкәр Һадиева",
        "Нұрлан Қожахметов & Айгүл Ыбырай", "Ерлан Ңұрғали & Дәурен Сәрсенбаев")))
    services.pair_next_round(actor=organiser, tournament=scene.series)
    # the site's staff, who read a player's fair-play review; oleh's (his game against bots) is run
    users["staff"] = get_user_model().objects.create_superuser(username="staff", password="x-staff-1",
                                                               email="staff@example.org")
    review, _queued = fairplay.request_review(user=users["staff"], allowed=True,
                                              player=users["oleh"].player.pk, samples=4)
    fairplay.run_review(review_id=review.pk, generation=review.generation)
    scene.duplicate, scene.dup_match = _duplicate(organiser, club)
    scene.ind_duplicate = _ind_duplicate(organiser, club)
    scene.names = frozenset(
        {u.username for u in users.values()}
        | {t.slug for t in Tournament.objects.all()}
        | {c.slug for c in Club.objects.all()}
    )
    return scene


def _duplicate(organiser, club: Club) -> tuple[Tournament, Match]:
    """A duplicate event of four pairs, Howell, two boards a round; round 1 played (a board adjusted)."""
    event = services.create_tournament(
        actor=organiser, club=club, name="Дубль Успенки", format="duplicate", movement="howell",
        boards_per_round=2, seeding="manual",
    )  # fmt: skip
    services.register_entries_bulk(actor=organiser, tournament=event, text="\n".join((
        "Арман Сейткали & Болат Нуржанов", "Вера Ким & Галия Ахметова",
        "Данияр Омаров & Елена Павленко", "Жанна Исаева & Зарина Толеу")))
    rnd = services.pair_next_round(actor=organiser, tournament=event)
    first, second = rnd.matches.filter(bye=False).order_by("table")
    entry = services.BoardEntry
    services.enter_board_results(actor=organiser, match=first, entries=[
        entry(1, ns_points=74), entry(2, ns_adjusted="plus", ew_adjusted="minus")])
    services.enter_board_results(actor=organiser, match=second, entries=[
        entry(1, ns_points=46), entry(2, ns_points=60)])
    return event, first


def _ind_duplicate(organiser, club: Club) -> Tournament:
    """An individual duplicate of eight players, two boards a round; round 1 played at both tables."""
    event = services.create_tournament(
        actor=organiser, club=club, name="Личный дубль Успенки", format="ind_duplicate", swiss_rounds=7,
        boards_per_round=2, seeding="manual",
    )  # fmt: skip
    services.register_players_bulk(actor=organiser, tournament=event, text="\n".join((
        "Арман Сейткали", "Болат Нуржанов", "Вера Ким", "Галия Ахметова", "Данияр Омаров",
        "Елена Павленко", "Жанна Исаева", "Зарина Толеу")))
    rnd = services.pair_next_round(actor=organiser, tournament=event)
    for points, match in zip((74, 46), rnd.matches.filter(bye=False).order_by("table"), strict=True):
        services.enter_board_results(actor=organiser, match=match, entries=[
            services.BoardEntry(1, ns_points=points), services.BoardEntry(2, ns_points=120 - points)])
    return event


def _player_of(match: Match, club: Club, owner):
    """A user who plays in the match's home pair: the player claims his profile with a link if he
    has no account yet, as a villager would."""
    for player in (match.home.player_a, match.home.player_b):
        if player.user_id:
            return player.user
    player = match.home.player_a
    invitation = club_services.invite_player(actor=owner, club=club, player=player)
    user = get_user_model().objects.create_user(username="erlan", email="erlan@bilka.local", password="x")
    club_services.claim_player(actor=user, token=invitation.token)
    return user


def _run_day_plans(swiss: Tournament) -> None:
    """Plans the beat found nothing to do for, as a real day leaves them on the dashboard: pairing
    a round already paired, closing check-in after round 1, reminding players of an unpaired round."""
    for kind, number in (
        (ActionKind.PAIR_NEXT, 1),
        (ActionKind.CLOSE_CHECK_IN, None),
        (ActionKind.REMIND, 9),
    ):
        plans.plan(kind, tournament_id=swiss.pk, due_at=timezone.now(), round_number=number)
        assert runner.run_plan(plans.plan_key(kind, swiss.pk, number))


def _players_at(match: Match) -> list:
    """The four players at an individual event's table (its two partnerships)."""
    return [match.home.player_a_id, match.home.player_b_id, match.away.player_a_id, match.away.player_b_id]
