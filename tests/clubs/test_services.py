"""Services: the rules organisers and players rely on, each with its permission check and audit row."""

from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone

from clubs import services
from clubs.models import AuditEntry, ClubPlayer, Membership, Player, PlayerInvitation, Role
from clubs.translit import search_key

from .factories import ClubFactory, ClubPlayerFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_create_club_makes_creator_owner_and_transliterated_slug():
    user = UserFactory()
    club = services.create_club(actor=user, name="Успенка", city="Успенка", description="По пятницам")
    assert club.slug == "uspenka"
    assert Membership.objects.get(club=club, user=user).role == Role.OWNER
    assert AuditEntry.objects.filter(action="club.create", club=club, actor=user).exists()
    second = services.create_club(actor=user, name="Успенка!")  # another name, the same address
    assert second.slug == "uspenka-2"


def test_create_club_needs_a_name():
    with pytest.raises(ValidationError):
        services.create_club(actor=UserFactory(), name="   ")


def test_update_club_only_by_owner(club, owner, organiser):
    with pytest.raises(PermissionDenied):
        services.update_club(actor=organiser, club=club, name="Другое")
    services.update_club(actor=owner, club=club, name="Успенка-2", city="Успенка", description="Новое")
    club.refresh_from_db()
    assert club.name == "Успенка-2"
    entry = AuditEntry.objects.get(action="club.update")
    assert entry.before["name"] == "Успенка" and entry.after["name"] == "Успенка-2"


def test_set_member_role_by_owner_with_audit(club, owner, member):
    services.set_member_role(actor=owner, club=club, user=member, role=Role.ORGANISER)
    assert Membership.objects.get(club=club, user=member).role == Role.ORGANISER
    entry = AuditEntry.objects.get(action="membership.set_role")
    assert entry.before["role"] == "member" and entry.after["role"] == "organiser"


@pytest.mark.parametrize("who", ["organiser", "member", "outsider"])
def test_set_member_role_refused_for_non_owners(request, club, owner, member, who):
    actor = request.getfixturevalue(who)
    with pytest.raises(PermissionDenied):
        services.set_member_role(actor=actor, club=club, user=member, role=Role.OWNER)
    assert Membership.objects.get(club=club, user=member).role == Role.MEMBER


def test_last_owner_cannot_be_demoted_or_removed(club, owner):
    with pytest.raises(ValidationError):
        services.set_member_role(actor=owner, club=club, user=owner, role=Role.MEMBER)
    with pytest.raises(ValidationError):
        services.remove_member(actor=owner, club=club, user=owner)
    assert Membership.objects.get(club=club, user=owner).role == Role.OWNER


def test_owner_can_step_down_once_another_owner_exists(club, owner, member):
    services.set_member_role(actor=owner, club=club, user=member, role=Role.OWNER)
    services.set_member_role(actor=owner, club=club, user=owner, role=Role.MEMBER)
    assert Membership.objects.get(club=club, user=owner).role == Role.MEMBER


def test_add_and_remove_member(club, owner, organiser):
    newcomer = UserFactory()
    for actor in (organiser, owner):  # owners invite; only site staff add an account at once
        with pytest.raises(PermissionDenied):
            services.add_member(actor=actor, club=club, user=newcomer)
    invitation = services.invite_member(actor=owner, club=club, who=newcomer.username, role=Role.ORGANISER)
    services.accept_invitation(actor=newcomer, token=invitation.token)
    assert Membership.objects.get(club=club, user=newcomer).role == Role.ORGANISER
    with pytest.raises(PermissionDenied):
        services.remove_member(actor=organiser, club=club, user=newcomer)
    services.remove_member(actor=owner, club=club, user=newcomer)
    assert not Membership.objects.filter(club=club, user=newcomer).exists()
    assert AuditEntry.objects.filter(action="membership.remove", before__user_id=newcomer.pk).exists()


def test_member_may_leave_and_anyone_may_join(club, member, outsider):
    services.remove_member(actor=member, club=club, user=member)
    services.join_club(actor=outsider, club=club)
    services.join_club(actor=outsider, club=club)  # twice is harmless
    assert Membership.objects.get(club=club, user=outsider).role == Role.MEMBER
    assert AuditEntry.objects.filter(action="membership.join").count() == 1


@pytest.mark.parametrize("who", ["owner", "organiser"])
def test_roster_managers_add_players_without_accounts(request, club, who):
    actor = request.getfixturevalue(who)
    entry = services.add_player(actor=actor, club=club, display_name="  Нұрлан  Ахметов ", city="Успенка")
    assert entry.player.display_name == "Нұрлан Ахметов"
    assert entry.player.user is None
    assert entry.player.search_name == search_key("Nurlan Akhmetov Uspenka")
    assert entry.added_by == actor and entry.active
    assert AuditEntry.objects.filter(action="roster.add", actor=actor).exists()


@pytest.mark.parametrize("who", ["member", "outsider"])
def test_others_cannot_touch_the_roster(request, club, who):
    actor = request.getfixturevalue(who)
    with pytest.raises(PermissionDenied):
        services.add_player(actor=actor, club=club, display_name="Ерлан")
    with pytest.raises(PermissionDenied):
        services.bulk_add_players(actor=actor, club=club, text="Ерлан")
    assert not Player.objects.exists()


def test_bulk_add_skips_blanks_and_reports_twins(club, organiser):
    services.add_player(actor=organiser, club=club, display_name="Нұрлан", city="Успенка")
    text = "\n".join(
        [
            "Nurlan, Uspenka",  # already on the roster, typed in Latin
            "",
            "   ",
            "Әсел Жумабаева, Успенка",
            "Жанар",
            "Janar",  # the same as the line above
            "Нурлан, Павлодар",  # a namesake from another town is another person
            ", Успенка",  # no name
        ]
    )
    result = services.bulk_add_players(actor=organiser, club=club, text=text)
    assert [e.player.display_name for e in result.created] == ["Әсел Жумабаева", "Жанар", "Нурлан"]
    assert [line for line, _p in result.duplicates] == ["Nurlan, Uspenka"]
    assert result.duplicates[0][1].display_name == "Нұрлан"
    assert result.repeated == ["Janar"]
    assert result.blank_lines == 3
    assert ClubPlayer.objects.filter(club=club, active=True).count() == 4
    created = Player.objects.get(display_name="Әсел Жумабаева")
    assert created.city == "Успенка" and created.search_name == "asel jumabaeva uspenka"
    assert AuditEntry.objects.get(action="roster.bulk_add").after["repeated"] == ["Janar"]


def test_invite_and_claim_links_the_player_to_the_account(club, organiser):
    entry = services.add_player(actor=organiser, club=club, display_name="Ерлан")
    invitation = services.invite_player(actor=organiser, club=club, player=entry.player)
    villager = UserFactory(username="yerlan")
    player = services.claim_player(actor=villager, token=invitation.token)
    assert player.pk == entry.player.pk and player.user == villager
    invitation.refresh_from_db()
    assert invitation.claimed_by == villager and invitation.claimed_at is not None
    with pytest.raises(ValidationError):
        services.claim_player(actor=UserFactory(), token=invitation.token)
    assert AuditEntry.objects.filter(action="player.claim", actor=villager).exists()


def test_claim_merges_the_users_own_profile_and_keeps_roster_history(club, organiser):
    other_club = ClubFactory()
    villager = UserFactory(username="asel")
    own = services.ensure_player_for_user(user=villager)
    ClubPlayerFactory(club=other_club, player=own)
    entry = services.add_player(actor=organiser, club=club, display_name="Әсел")
    invitation = services.invite_player(actor=organiser, club=club, player=entry.player)
    player = services.claim_player(actor=villager, token=invitation.token)
    own.refresh_from_db()
    assert player.user == villager and own.user is None and own.merged_into == player
    assert set(ClubPlayer.objects.filter(player=player).values_list("club_id", flat=True)) == {
        club.pk,
        other_club.pk,
    }
    assert ClubPlayer.objects.count() == 2


def test_expired_or_unknown_invitations_are_refused(club, organiser):
    entry = services.add_player(actor=organiser, club=club, display_name="Ерлан")
    invitation = services.invite_player(actor=organiser, club=club, player=entry.player)
    PlayerInvitation.objects.filter(pk=invitation.pk).update(expires_at=timezone.now() - timedelta(minutes=1))
    with pytest.raises(ValidationError):
        services.claim_player(actor=UserFactory(), token=invitation.token)
    with pytest.raises(ValidationError):
        services.claim_player(actor=UserFactory(), token="nope")
    assert Player.objects.get(pk=entry.player.pk).user is None


def test_invite_refused_for_members_and_for_players_off_the_roster(club, organiser, member):
    entry = services.add_player(actor=organiser, club=club, display_name="Ерлан")
    with pytest.raises(PermissionDenied):
        services.invite_player(actor=member, club=club, player=entry.player)
    with pytest.raises(ValidationError):
        services.invite_player(actor=organiser, club=club, player=PlayerFactory())


def test_merge_repoints_roster_rows_and_keeps_them(club, organiser):
    a = services.add_player(actor=organiser, club=club, display_name="Нурлан", city="Успенка").player
    b = services.add_player(actor=organiser, club=club, display_name="Nurlan A.").player
    other = ClubFactory()
    ClubPlayerFactory(club=other, player=b)
    invitation = PlayerInvitation.objects.create(
        player=b, club=club, created_by=organiser, expires_at=timezone.now() + timedelta(days=1)
    )
    services.merge_players(actor=organiser, club=club, source=b, target=a)
    b.refresh_from_db()
    assert b.merged_into == a
    rows = ClubPlayer.objects.filter(player=a)
    assert rows.count() == 3  # nothing deleted
    assert rows.filter(club=club, active=True).count() == 1
    assert rows.filter(club=club, active=False, added_as="Nurlan A.").count() == 1
    assert rows.filter(club=other, active=True).count() == 1
    invitation.refresh_from_db()
    assert invitation.player == a
    entry = AuditEntry.objects.get(action="player.merge")
    assert entry.before["source"]["merged_into_id"] is None
    assert entry.after["source"]["merged_into_id"] == a.pk


def test_merge_moves_the_account_and_refuses_two_accounts(club, organiser):
    user_a, user_b = UserFactory(), UserFactory()
    a = services.ensure_player_for_user(user=user_a)
    b = services.ensure_player_for_user(user=user_b)
    c = services.add_player(actor=organiser, club=club, display_name="Ерлан").player
    ClubPlayerFactory(club=club, player=a)
    ClubPlayerFactory(club=club, player=b)
    with pytest.raises(ValidationError):
        services.merge_players(actor=organiser, club=club, source=a, target=b)
    services.merge_players(actor=organiser, club=club, source=a, target=c)
    c.refresh_from_db()
    assert c.user == user_a


def test_merge_refusals(club, organiser, member):
    a = services.add_player(actor=organiser, club=club, display_name="Ерлан").player
    b = services.add_player(actor=organiser, club=club, display_name="Yerlan").player
    with pytest.raises(PermissionDenied):
        services.merge_players(actor=member, club=club, source=b, target=a)
    with pytest.raises(ValidationError):
        services.merge_players(actor=organiser, club=club, source=a, target=a)
    with pytest.raises(ValidationError):
        services.merge_players(actor=organiser, club=club, source=PlayerFactory(), target=a)
    assert not Player.objects.filter(merged_into__isnull=False).exists()


def test_update_player_own_or_managed(club, organiser, outsider):
    own = services.ensure_player_for_user(user=outsider)
    services.update_player(actor=outsider, player=own, display_name="Жанар", city="Алматы")
    own.refresh_from_db()
    assert own.search_name == "janar almati"
    villager = services.add_player(actor=organiser, club=club, display_name="Ерлан").player
    with pytest.raises(PermissionDenied):
        services.update_player(actor=outsider, player=villager, display_name="X")
    services.update_player(actor=organiser, player=villager, display_name="Ерлан Б.")
    with pytest.raises(PermissionDenied):
        services.update_player(actor=organiser, player=own, display_name="X")


def test_deactivating_keeps_the_row(club, organiser):
    entry = services.add_player(actor=organiser, club=club, display_name="Ерлан")
    services.set_roster_active(actor=organiser, club=club, entry=entry, active=False)
    entry.refresh_from_db()
    assert not entry.active
    services.set_roster_active(actor=organiser, club=club, entry=entry, active=True)
    entry.refresh_from_db()
    assert entry.active


def test_add_to_roster_is_idempotent_and_refused_to_members(club, owner, member):
    player = services.ensure_player_for_user(user=member)
    with pytest.raises(PermissionDenied):
        services.add_to_roster(actor=member, club=club, player=player)
    first = services.add_to_roster(actor=owner, club=club, player=player)
    assert services.add_to_roster(actor=owner, club=club, player=player) == first
    assert AuditEntry.objects.filter(action="roster.add_existing").count() == 1


def test_asking_twice_for_an_invitation_gives_the_same_live_link(club, organiser):
    entry = services.add_player(actor=organiser, club=club, display_name="Ерлан")
    first = services.invite_player(actor=organiser, club=club, player=entry.player)
    assert services.invite_player(actor=organiser, club=club, player=entry.player) == first
    PlayerInvitation.objects.filter(pk=first.pk).update(expires_at=timezone.now() - timedelta(minutes=1))
    assert services.invite_player(actor=organiser, club=club, player=entry.player) != first
