"""One world for the authorisation matrix: a club with its owner, organiser and member, a stranger,
a tournament with a paired match, a private live table in play with its seated players, a public
table with players of its own, archived matches public and private, and an API key per person.

Beside it, another club (``Other``) with a running pair event and an individual event taking
entries, whose objects' ids the matrix borrows into the first club's addresses: none of the
people above has a role there, and every name in it starts "Чужак", so that a page showing one
of them is told apart.

Built with the factories of tests/ and the real services, so every object is one the site would make.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any

from django.test import Client

from archive.models import ArchivedMatch, Puzzle
from clubs import services as club_services
from clubs.models import ApiToken, ClubPlayer, MemberInvitation, Player, PlayerInvitation, Role, TokenScope
from gameplay import services as table_services
from gameplay.models import Seating, Table
from tests.archive.puzzle_factory import make_puzzle
from tests.clubs.factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory
from tests.tournaments.conftest import player_with_account, register_pairs
from tournaments import services as tournament_services
from tournaments.models import ByeRequest, Entry, IndividualEntry, Match, WithdrawalRequest

#: The people the matrix asks about, in the order its rows name them.
ROLES = ("anonymous", "stranger", "member", "organiser", "owner", "seated", "other_player")
SIGNED_IN = ROLES[1:]


@dataclass
class Other:
    """The other club: its owner (on its roster), a running Swiss with round 1 paired and a player's
    ask to withdraw, an individual event still taking entries (a player waiting for approval, one
    withdrawn), a roster player without an account and his invitation."""

    club: Any
    owner: Any
    pairs: Any
    ask: WithdrawalRequest
    solo: Any
    unclaimed: Player
    #: a pair's ask to sit out round 3 of ``pairs``
    bye: ByeRequest
    invitation: PlayerInvitation
    #: the owner's invitation to a roster player's account, by name (waiting for his answer)
    member_invitation: MemberInvitation


@dataclass
class World:
    users: dict[str, Any]
    club: Any
    other_club: Any
    other: Other
    tournament: Any
    match: Any
    entry: Any
    ask: WithdrawalRequest
    #: the organiser's ask for a pair to sit out round 3 of ``tournament`` (and one in ``solo``)
    bye: ByeRequest
    solo: Any
    solo_match: Any
    solo_entry: IndividualEntry
    solo_ask: WithdrawalRequest
    #: A duplicate event, round 1 paired, one board of table 1 entered (its board 1 not public yet).
    dup: Any
    dup_match: Any
    #: The organiser's message to the hall of ``tournament`` (the matrix takes it off the wall).
    announcement: Any
    private_table: Table
    public_table: Table
    open_table: Table
    public_archived: ArchivedMatch
    private_archived: ArchivedMatch
    #: A puzzle of each archived match: only the public match's is shown, to anyone.
    public_puzzle: Puzzle
    private_puzzle: Puzzle
    roster_entry: ClubPlayer
    unclaimed: Player
    invitation: PlayerInvitation
    #: The owner's QR code shown in person, and his invitation to the stranger by name (only the
    #: stranger sees it; he declines it in the matrix's last row about it).
    in_person: MemberInvitation
    named: MemberInvitation
    owner_token: ApiToken
    keys: dict[str, str] = field(default_factory=dict)
    clients: dict[str, Client] = field(default_factory=dict)

    def user(self, role: str) -> Any:
        return self.users.get(role)

    def client(self, role: str) -> Client:
        return self.clients[role]


def _seat_four(users: list, *, public: bool) -> Table:
    table = table_services.create_table(rules={}, seating=Seating.IN_ORDER, user=users[0], public=public)
    for user in users[1:]:
        table_services.sit(table_id=table.pk, user=user)
    return Table.objects.get(pk=table.pk)


def _answer_redeal(table: Table) -> Table:
    """Every seat answers "play" to the redeal question, so the first deal is in play."""
    state = table_services.load_state(table)
    for seat in state.redeal_pending:
        assert table_services.play(table_id=table.pk, seat=seat, action="pass",
                                   expected_event=table.decision_event).ok
    return Table.objects.get(pk=table.pk)


def _finished(users: list, *, public: bool) -> ArchivedMatch:
    table = _answer_redeal(_seat_four(users, public=public))
    table_services.resign(table_id=table.pk, seat=1)
    return ArchivedMatch.objects.get(table_id=table.pk)


def _club_people() -> tuple[dict[str, Any], Any]:
    """The club with its owner, organiser and member (each with a player), and a stranger."""
    users: dict[str, Any] = {"anonymous": None}
    club = ClubFactory(name="Успенка", slug="uspenka", city="Успенка")
    for role, club_role in (("owner", Role.OWNER), ("organiser", Role.ORGANISER), ("member", Role.MEMBER)):
        users[role] = MembershipFactory(club=club, user=UserFactory(username=role), role=club_role).user
        player = PlayerFactory(display_name=role.title(), user=users[role])
        ClubPlayer.objects.create(club=club, player=player, added_as=player.display_name)
    users["stranger"] = UserFactory(username="stranger")
    return users, club


def _live_tables(users: dict[str, Any]) -> tuple[list, list, Table, Table]:
    """The private table in play and a public one with players of its own; "seated" and
    "other_player" are the player to move at each, so that a move of theirs is one the table takes."""
    seated = [UserFactory(username=f"seat{i}") for i in range(4)]
    others = [UserFactory(username=f"other{i}") for i in range(4)]
    for user in seated + others:
        Player.objects.create(display_name=user.username.title(), user=user)
    private_table = _answer_redeal(_seat_four(seated, public=False))
    public_table = _answer_redeal(_seat_four(others, public=True))
    users["seated"] = seated[table_services.load_state(private_table).to_move]
    users["other_player"] = others[table_services.load_state(public_table).to_move]
    return seated, others, private_table, public_table


@dataclass
class TableWorld:
    """The socket matrix's smaller world: the people, the two live tables, a tournament."""

    users: dict[str, Any]
    private_table: Table
    public_table: Table
    tournament: Any


def build_table_world() -> TableWorld:
    users, club = _club_people()
    _seated, _others, private_table, public_table = _live_tables(users)
    tournament = tournament_services.create_tournament(
        actor=users["organiser"], club=club, name="Кубок Успенки", starts_on=datetime.date(2026, 11, 7),
        format="swiss", swiss_rounds=3,
    )
    return TableWorld(users=users, private_table=private_table, public_table=public_table,
                      tournament=tournament)


def _stranger_player(club, number: int, *, account: bool = True) -> Player:
    """A player of the other club's roster, named so that a page showing him is told apart."""
    user = UserFactory(username=f"chuzhak{number}") if account else None
    player = Player.objects.create(display_name=f"Чужак {number}", user=user)
    ClubPlayer.objects.create(club=club, player=player, added_as=player.display_name)
    return player


def _other_club() -> Other:
    club = ClubFactory(name="Бирлик", slug="birlik", city="Бирлик")
    owner = MembershipFactory(club=club, user=UserFactory(username="birlik-owner"), role=Role.OWNER).user
    own = Player.objects.create(display_name="Чужак Хозяин", user=owner)
    ClubPlayer.objects.create(club=club, player=own, added_as=own.display_name)
    pairs = tournament_services.create_tournament(
        actor=owner, club=club, name="Кубок Бирлика", starts_on=datetime.date(2026, 11, 7), format="swiss",
        swiss_rounds=3, seeding="manual", bye_requests="half",
    )
    people = [_stranger_player(club, i) for i in range(8)]
    for i in range(0, 8, 2):
        tournament_services.register_entry(actor=owner, tournament=pairs, player_a=people[i],
                                           player_b=people[i + 1])
    tournament_services.pair_next_round(actor=owner, tournament=pairs)
    ask = tournament_services.ask_to_withdraw(actor=people[0].user,
                                              entry=pairs.entries.order_by("pk").first())
    bye = tournament_services.ask_bye(actor=owner, entry=pairs.entries.order_by("pk").first(),
                                      round_number=3)
    solo = tournament_services.create_tournament(
        actor=owner, club=club, name="Бирлик один на один", starts_on=datetime.date(2026, 11, 8),
        format="ind_swiss", swiss_rounds=3, seeding="manual", self_registration=True,
    )
    for i in range(8, 14):
        tournament_services.register_player(actor=owner, tournament=solo,
                                            player=_stranger_player(club, i, account=False))
    tournament_services.withdraw_player(actor=owner, entry=solo.individual_entries.order_by("pk").last())
    tournament_services.self_register_player(actor=_stranger_player(club, 14).user, tournament=solo)
    for event in (pairs, solo):  # an announcement of each of another club's events, to borrow its id
        tournament_services.post_announcement(actor=owner, tournament=event, text="Чужое объявление")
    unclaimed = club_services.add_player(actor=owner, club=club, display_name="Чужак Безаккаунтный").player
    invitation = club_services.invite_player(actor=owner, club=club, player=unclaimed)
    member_invitation = club_services.invite_member(actor=owner, club=club, who=people[1].user.username)
    return Other(club=club, owner=owner, pairs=pairs, ask=ask, solo=solo, unclaimed=unclaimed, bye=bye,
                 invitation=invitation, member_invitation=member_invitation)


def build_world() -> World:
    """Every object the rows and leak checks refer to (call inside a transaction the caller ends)."""
    users, club = _club_people()
    other = _other_club()
    other_club = other.club
    seated, others, private_table, public_table = _live_tables(users)
    private_archived = _finished(seated, public=False)
    # a private table still waiting for players: "seated" opened it and sits there alone
    open_table = table_services.create_table(rules={}, seating=Seating.IN_ORDER, user=users["seated"],
                                             public=False)
    public_archived = _finished(others, public=True)

    # a tournament of the club with round 1 paired
    tournament = tournament_services.create_tournament(
        actor=users["organiser"], club=club, name="Кубок Успенки", starts_on=datetime.date(2026, 11, 7),
        format="swiss", swiss_rounds=3, bye_requests="half",
    )
    pair = [player_with_account(club, u) for u in ("asel", "oleh", "ivan", "nurlan")]
    tournament_services.register_entry(actor=users["organiser"], tournament=tournament,
                                       player_a=pair[0], player_b=pair[1])
    register_pairs(tournament, users["organiser"], 1, prefix="Сельчанин")
    tournament_services.register_entry(actor=users["organiser"], tournament=tournament,
                                       player_a=pair[2], player_b=pair[3])
    register_pairs(tournament, users["organiser"], 1, prefix="Селянин")
    tournament_services.update_tournament(actor=users["organiser"], tournament=tournament, seeding="manual")
    round1 = tournament_services.pair_next_round(actor=users["organiser"], tournament=tournament)
    match = round1.matches.get(table=1)
    # PINs no page of anyone's but the organisers' (and the side's own players) may show; eight
    # digits, so that a leak is told apart from any other number on a page
    Match.objects.filter(pk=match.pk).update(home_pin="90817263", away_pin="81726354")
    match.refresh_from_db()
    entry = Entry.objects.filter(tournament=tournament).order_by("pk").first()
    ask = tournament_services.ask_to_withdraw(actor=pair[0].user, entry=entry)
    bye = tournament_services.ask_bye(actor=users["organiser"], entry=entry, round_number=3)
    announcement = tournament_services.post_announcement(
        actor=users["organiser"], tournament=tournament, text="Обед в 13:00"
    )

    # an individual event (players alone, new partners each round), round 1 paired
    solo = tournament_services.create_tournament(
        actor=users["organiser"], club=club, name="Индивидуалка", starts_on=datetime.date(2026, 11, 8),
        format="ind_swiss", swiss_rounds=3, seeding="manual", bye_requests="half",
    )
    for i in range(8):
        tournament_services.register_player(actor=users["organiser"], tournament=solo,
                                            player=player_with_account(club, f"solo{i}"))
    solo_round = tournament_services.pair_next_round(actor=users["organiser"], tournament=solo)
    solo_match = solo_round.matches.get(table=1)
    solo_entry = IndividualEntry.objects.filter(tournament=solo).order_by("pk").first()
    tournament_services.post_announcement(actor=users["organiser"], tournament=solo, text="Обед в 13:00")
    players_of_solo = IndividualEntry.objects.filter(tournament=solo).select_related("player__user")
    leaving = players_of_solo.order_by("pk").last()
    solo_ask = tournament_services.ask_to_withdraw(actor=leaving.player.user, entry=leaving)
    tournament_services.ask_bye(actor=users["organiser"], entry=solo_entry, round_number=3)

    dup = tournament_services.create_tournament(
        actor=users["organiser"], club=club, name="Дубль Успенки", starts_on=datetime.date(2026, 11, 9),
        format="duplicate", movement="howell", boards_per_round=2,
    )
    register_pairs(dup, users["organiser"], 4, prefix="Дублёр")
    dup_round = tournament_services.pair_next_round(actor=users["organiser"], tournament=dup)
    dup_match = dup_round.matches.get(table=1)
    tournament_services.enter_board_results(actor=users["organiser"], match=dup_match,
                                            entries=[tournament_services.BoardEntry(1, ns_points=83)])

    unclaimed = club_services.add_player(actor=users["organiser"], club=club, display_name="Безаккаунтный")
    unclaimed = unclaimed.player
    roster_entry = ClubPlayer.objects.get(club=club, player=unclaimed)
    invitation = club_services.invite_player(actor=users["organiser"], club=club, player=unclaimed)
    in_person = club_services.invite_in_person(actor=users["owner"], club=club, role=Role.MEMBER)
    named = club_services.invite_member(actor=users["owner"], club=club, who="stranger")

    keys: dict[str, str] = {}
    for role in SIGNED_IN:
        write = role in ("owner", "organiser", "member")
        # the organiser's key runs events too; the owner's enters results only (a results key)
        scope = TokenScope.ORGANISE if role == "organiser" else TokenScope.WRITE if write else TokenScope.READ
        token, keys[role] = club_services.create_token(
            actor=users[role], name=f"{role} key", scope=scope,
            clubs=[club] if write else [],
        )
        if role == "owner":
            owner_token = token

    clients = {"anonymous": Client(HTTP_ACCEPT_LANGUAGE="en")}
    for role in SIGNED_IN:
        clients[role] = Client(HTTP_ACCEPT_LANGUAGE="en")
        clients[role].force_login(users[role])
    return World(
        users=users, club=club, other_club=other_club, other=other, tournament=tournament, match=match,
        entry=entry, ask=ask, bye=bye, solo=solo, solo_match=solo_match, solo_entry=solo_entry,
        solo_ask=solo_ask, dup=dup, dup_match=dup_match,
        announcement=announcement,
        private_table=private_table,
        public_table=public_table, open_table=open_table, public_archived=public_archived,
        private_archived=private_archived, public_puzzle=make_puzzle(public_archived),
        private_puzzle=make_puzzle(private_archived), roster_entry=roster_entry, unclaimed=unclaimed,
        invitation=invitation, in_person=in_person, named=named, owner_token=owner_token, keys=keys,
        clients=clients,
    )
