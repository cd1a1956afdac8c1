"""Admin: every model is listed and searchable; role changes obey the same rules as the site."""

import pytest
from django.urls import reverse

from clubs.models import AuditEntry, Membership, Role, User

from .factories import ClubPlayerFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client):
    admin_user = UserFactory(username="staff", is_staff=True, is_superuser=True)
    client.force_login(admin_user)
    client.admin_user = admin_user
    return client


@pytest.mark.parametrize(
    "model", ["user", "player", "club", "membership", "clubplayer", "playerinvitation", "auditentry"]
)
def test_changelists_render_with_search(staff_client, club, owner, model):
    ClubPlayerFactory(club=club, player=PlayerFactory(display_name="Нұрлан"))
    url = reverse(f"admin:clubs_{model}_changelist")
    assert staff_client.get(url).status_code == 200
    assert staff_client.get(url, {"q": "Nurlan"}).status_code == 200


def test_admin_player_search_finds_cyrillic_by_latin(staff_client):
    PlayerFactory(display_name="Нұрлан Ахметов")
    response = staff_client.get(reverse("admin:clubs_player_changelist"), {"q": "Nurlan"})
    assert "Нұрлан Ахметов" in response.content.decode()


def test_admin_action_changes_role_through_the_service(staff_client, club, owner, member):
    membership = Membership.objects.get(user=member)
    staff_client.post(
        reverse("admin:clubs_membership_changelist"),
        {"action": "make_organiser", "_selected_action": [membership.pk]},
    )
    membership.refresh_from_db()
    assert membership.role == Role.ORGANISER
    assert AuditEntry.objects.filter(action="membership.set_role", actor=staff_client.admin_user).exists()


def test_admin_cannot_demote_the_last_owner(staff_client, club, owner):
    membership = Membership.objects.get(user=owner)
    response = staff_client.post(
        reverse("admin:clubs_membership_changelist"),
        {"action": "make_member", "_selected_action": [membership.pk]},
        follow=True,
    )
    membership.refresh_from_db()
    assert membership.role == Role.OWNER
    assert "at least one owner" in response.content.decode()


def test_role_is_read_only_on_the_change_form(staff_client, club, owner):
    membership = Membership.objects.get(user=owner)
    url = reverse("admin:clubs_membership_change", args=[membership.pk])
    staff_client.post(url, {"role": "member"})
    membership.refresh_from_db()
    assert membership.role == Role.OWNER
    assert 'name="role"' not in staff_client.get(url).content.decode()


def test_admin_delete_of_last_owner_is_refused(staff_client, club, owner):
    membership = Membership.objects.get(user=owner)
    url = reverse("admin:clubs_membership_delete", args=[membership.pk])
    assert staff_client.post(url, {"post": "yes"}).status_code == 403
    assert Membership.objects.filter(pk=membership.pk).exists()


def test_admin_delete_of_a_member_goes_through_the_service(staff_client, club, owner, member):
    membership = Membership.objects.get(user=member)
    staff_client.post(reverse("admin:clubs_membership_delete", args=[membership.pk]), {"post": "yes"})
    assert not Membership.objects.filter(pk=membership.pk).exists()
    assert AuditEntry.objects.filter(action="membership.remove", actor=staff_client.admin_user).exists()


def test_admin_add_membership_goes_through_the_service(staff_client, club, owner):
    user = UserFactory(username="newbie")
    staff_client.post(
        reverse("admin:clubs_membership_add"), {"club": club.pk, "user": user.pk, "role": "organiser"}
    )
    assert Membership.objects.get(user=user).role == Role.ORGANISER
    assert AuditEntry.objects.filter(action="membership.add").exists()


def test_staff_can_add_a_user_in_the_admin(staff_client):
    response = staff_client.post(
        reverse("admin:clubs_user_add"),
        {
            "username": "villager",
            "password1": "uspenka-bilka-2026",
            "password2": "uspenka-bilka-2026",
            "usable_password": "true",
        },
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    assert User.objects.filter(username="villager").exists()
