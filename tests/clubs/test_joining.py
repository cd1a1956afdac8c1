"""Membership by consent: an owner's invitation makes nobody a member until he accepts; the answer
never tells whether an address has an account; founding clubs and inviting are rate-limited."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation

from clubs import selectors, services
from clubs.models import AuditEntry, Club, InvitationStatus, MemberInvitation, Membership, Role
from tests.clubs.factories import UserFactory
from tournaments import tasks
from tournaments.models import Notification

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english():
    """Service messages in English, so assertions read the same whatever LANGUAGE_CODE is."""
    with translation.override("en"):
        yield


@pytest.fixture
def asel(db):
    return UserFactory(username="asel", email="asel@example.com")


def _invite(client, club, who: str, role: str = "member"):
    return client.post(reverse("clubs:member_add", kwargs={"slug": club.slug}), {"who": who, "role": role})


def _members_page(client, club) -> str:
    return client.get(reverse("clubs:members", kwargs={"slug": club.slug})).content.decode()


def test_adding_asel_by_email_makes_no_member_until_she_accepts(
    client, club, owner, asel, mailoutbox, django_capture_on_commit_callbacks
):
    client.force_login(owner)
    with django_capture_on_commit_callbacks() as queued:
        response = _invite(client, club, "asel@example.com")
    assert response.status_code == 302 and len(queued) == 1  # the notice goes out from a worker
    assert not Membership.objects.filter(club=club, user=asel).exists()
    page = client.get(response.url).content.decode()
    assert "an invitation was sent" in page and "asel added" not in page
    # the member list does not show her: only the invitation, as the owner typed it
    members = [m.user for m in selectors.club_members(club=club)]
    assert asel not in members
    invitation = MemberInvitation.objects.get(club=club)
    assert invitation.user == asel and invitation.addressed_to == "asel@example.com"

    # the worker tells her, in a notice with the link and by e-mail
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.tell_invited_member(invitation.pk) is True
    notice = Notification.objects.get(user=asel, kind="club.invitation")
    assert notice.url == invitation.get_absolute_url() and club.name in notice.text
    assert mailoutbox and mailoutbox[0].to == ["asel@example.com"]

    # she sees it on her profile and her notifications, and accepts
    client.force_login(asel)
    assert invitation.get_absolute_url() in client.get(reverse("clubs:my_profile")).content.decode()
    assert (
        invitation.get_absolute_url() in client.get(reverse("tournaments:my_notifications")).content.decode()
    )
    page = client.get(invitation.get_absolute_url())
    assert page.status_code == 200 and club.name in page.content.decode()
    client.post(invitation.get_absolute_url(), {"answer": "accept"})
    assert Membership.objects.get(club=club, user=asel).role == Role.MEMBER
    invitation.refresh_from_db()
    assert invitation.status == InvitationStatus.ACCEPTED
    assert asel in [m.user for m in selectors.club_members(club=club)]


def test_declining_keeps_her_out_and_the_club_does_not_ask_again_soon(client, club, owner, asel):
    invitation = services.invite_member(actor=owner, club=club, who="asel", role=Role.ORGANISER)
    client.force_login(asel)
    client.post(invitation.get_absolute_url(), {"answer": "decline"})
    assert not Membership.objects.filter(club=club, user=asel).exists()
    again = services.invite_member(actor=owner, club=club, who="asel")
    assert again.user is None  # made and answered the same, but it reaches nobody
    assert tasks.tell_invited_member(again.pk) is False
    with pytest.raises(ValidationError, match="already been answered"):
        services.accept_invitation(actor=asel, token=invitation.token)


def _told(page: str) -> str:
    """The page's messages: what the owner is told after a POST."""
    return re.search(r'<ul class="messages">.*?</ul>', page, re.S).group(0)


def _row(page: str, who: str) -> str:
    """The invitation's line in the owner's list, with the address and the row's own numbers left out."""
    line = re.search(
        rf'<li class="list-item">\s*<span><span class="list-title">{re.escape(who)}</span>.*?</li>',
        page,
        re.S,
    )
    return re.sub(r"invitations/\d+/", "invitations/N/", line.group(0).replace(who, "X"))


def test_the_unknown_address_gets_the_answer_the_known_one_gets(
    client, club, owner, asel, django_capture_on_commit_callbacks
):
    client.force_login(owner)
    answers = {}
    for who in ("asel@example.com", "nobody@example.com", "asel", "nobody"):
        with django_capture_on_commit_callbacks() as queued:
            response = _invite(client, club, who)
        page = client.get(response.url).content.decode()
        answers[who] = (response.status_code, response.url, len(queued), _told(page))
    assert answers["asel@example.com"] == answers["nobody@example.com"]
    assert answers["asel"] == answers["nobody"] == answers["asel@example.com"]
    assert "an invitation was sent" in answers["asel"][3] and "No account" not in answers["nobody"][3]
    # the owner's list shows each as typed, the same way
    page = _members_page(client, club)
    assert _row(page, "asel@example.com") == _row(page, "nobody@example.com")
    assert _row(page, "asel") == _row(page, "nobody")
    # the club's audit log keeps what the owner typed, never the account it reached
    row = AuditEntry.objects.filter(action="membership.invite").order_by("at").first()
    assert "user" not in str(row.after) and row.subject == {"kind": "invitation", "name": "asel@example.com"}


def test_inviting_a_known_and_an_unknown_address_does_the_same_work(club, owner, asel):
    counts = {}
    for who in ("asel@example.com", "nobody@example.com"):
        actor = type(owner).objects.get(pk=owner.pk)  # as each request has: no role cached yet
        with CaptureQueriesContext(connection) as queries:
            services.invite_member(actor=actor, club=club, who=who)
        counts[who] = len(queries)
    assert counts["asel@example.com"] == counts["nobody@example.com"]


def test_invitations_expire_and_the_owner_can_withdraw_one(client, club, owner, asel):
    old = services.invite_member(actor=owner, club=club, who="asel")
    MemberInvitation.objects.filter(pk=old.pk).update(expires_at=timezone.now() - timedelta(minutes=1))
    with pytest.raises(ValidationError, match="expired"):
        services.accept_invitation(actor=asel, token=old.token)
    assert selectors.invitations_for(user=asel) == []

    fresh = services.invite_member(actor=owner, club=club, who="asel")  # the expired one is no bar
    assert fresh.user == asel and selectors.invitations_for(user=asel) == [fresh]
    client.force_login(owner)
    client.post(reverse("clubs:member_invitation_withdraw", kwargs={"slug": club.slug, "pk": fresh.pk}))
    fresh.refresh_from_db()
    assert fresh.status == InvitationStatus.WITHDRAWN
    assert tasks.tell_invited_member(fresh.pk) is False  # withdrawn before the worker ran: no notice
    client.force_login(asel)
    response = client.post(fresh.get_absolute_url(), {"answer": "accept"}, follow=True)
    assert "withdrawn" in response.content.decode()
    assert not Membership.objects.filter(club=club, user=asel).exists()


def test_only_the_invited_account_may_answer(club, owner, asel, outsider):
    invitation = services.invite_member(actor=owner, club=club, who="asel")
    with pytest.raises(ValidationError, match="not valid"):
        services.accept_invitation(actor=outsider, token=invitation.token)
    assert not Membership.objects.filter(club=club, user=outsider).exists()


def test_only_owners_invite_and_add(club, organiser, member, owner, asel):
    for actor in (organiser, member):
        with pytest.raises(PermissionDenied):
            services.invite_member(actor=actor, club=club, who="asel")
        with pytest.raises(PermissionDenied):
            services.invite_in_person(actor=actor, club=club)
    with pytest.raises(PermissionDenied):  # owners invite: adding at once is the site staff's
        services.add_member(actor=owner, club=club, user=asel)


def test_accepting_never_demotes(club, owner, organiser):
    invitation = services.invite_member(actor=owner, club=club, who="organiser", role=Role.MEMBER)
    assert invitation.user is None  # already a member: not told
    in_person = services.invite_in_person(actor=owner, club=club, role=Role.MEMBER)
    services.accept_invitation(actor=organiser, token=in_person.token)
    assert Membership.objects.get(club=club, user=organiser).role == Role.ORGANISER


def test_the_qr_code_shown_in_person_lets_one_person_join(client, club, owner, asel, outsider):
    client.force_login(owner)
    response = client.post(
        reverse("clubs:member_invite_in_person", kwargs={"slug": club.slug}), {"role": "organiser"}
    )
    invitation = MemberInvitation.objects.get(club=club, addressed_to="")
    assert response.url == reverse("clubs:member_invitation", kwargs={"slug": club.slug, "pk": invitation.pk})
    page = client.get(response.url).content.decode()
    assert "<svg" in page and invitation.get_absolute_url() in page
    assert f'href="{response.url}"' in _members_page(client, club)  # reachable again from the members page

    client.force_login(asel)
    assert client.get(invitation.get_absolute_url()).status_code == 200
    client.post(invitation.get_absolute_url(), {"answer": "accept"})
    assert Membership.objects.get(club=club, user=asel).role == Role.ORGANISER
    with pytest.raises(ValidationError, match="already been answered"):
        services.accept_invitation(actor=outsider, token=invitation.token)


def test_a_link_that_is_not_yours_is_not_there(client, club, owner, asel, outsider):
    invitation = services.invite_member(actor=owner, club=club, who="asel")
    client.force_login(outsider)
    assert client.get(invitation.get_absolute_url()).status_code == 404
    assert client.get(reverse("clubs:join_invitation", kwargs={"token": "forged"})).status_code == 404
    response = client.post(invitation.get_absolute_url(), {"answer": "accept"}, follow=True)
    assert "not valid" in response.content.decode()
    response = client.post(invitation.get_absolute_url(), {"answer": "maybe"}, follow=True)
    assert response.status_code == 404 and not Membership.objects.filter(user=outsider, club=club).exists()


def test_the_ninth_club_in_a_minute_is_refused(client, outsider):
    client.force_login(outsider)
    statuses = []
    for n in range(1, 10):
        response = client.post(reverse("clubs:club_create"), {"name": f"Клуб номер {n}", "city": "Успенка"})
        statuses.append(response.status_code)
    founded = Club.objects.filter(created_by=outsider).count()
    assert founded == services.limits.clubs_per_day() < 9
    assert statuses[:founded] == [302] * founded and set(statuses[founded:]) == {429}
    # the refusal says why, in the page's language, and keeps what was typed
    assert "at most 3 clubs a day" in response.content.decode()
    assert 'value="Клуб номер 9"' in response.content.decode()


def test_the_club_limit_speaks_russian(client, outsider, settings):
    settings.BILKA_CLUBS_PER_DAY = 1
    client.force_login(outsider)
    client.post(reverse("clubs:club_create"), {"name": "Первый"})
    response = client.post(reverse("clubs:club_create"), {"name": "Второй"}, HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 429
    assert "не больше 1" in response.content.decode()


def test_the_club_allowance_comes_back_after_a_day(outsider, settings):
    settings.BILKA_CLUBS_PER_DAY = 2
    first = services.create_club(actor=outsider, name="Раз")
    services.create_club(actor=outsider, name="Два")
    with pytest.raises(ValidationError):
        services.create_club(actor=outsider, name="Три")
    Club.objects.filter(pk=first.pk).update(created_at=timezone.now() - timedelta(days=1, minutes=1))
    assert services.create_club(actor=outsider, name="Три").name == "Три"


def test_inviting_is_limited_per_hour_and_nothing_typed_is_lost(client, club, owner, settings):
    settings.BILKA_INVITATIONS_PER_HOUR = 3
    client.force_login(owner)
    for n in range(3):
        assert _invite(client, club, f"person{n}@example.com").status_code == 302
    response = _invite(client, club, "fourth@example.com", role="organiser")
    assert response.status_code == 429
    page = response.content.decode()
    assert "at most 3 invitations an hour" in page and 'value="fourth@example.com"' in page
    assert MemberInvitation.objects.filter(club=club).count() == 3
    # an in-person code counts too, and says so on the same page
    qr = client.post(reverse("clubs:member_invite_in_person", kwargs={"slug": club.slug}), {"role": "member"})
    assert qr.status_code == 429
    MemberInvitation.objects.update(created_at=timezone.now() - timedelta(hours=1, minutes=1))
    assert _invite(client, club, "fourth@example.com").status_code == 302


def test_a_bad_invitation_form_is_told_not_lost(client, club, owner):
    client.force_login(owner)
    response = _invite(client, club, "", role="king")
    assert response.status_code == 400
    assert "This field is required" in response.content.decode()
    response = _invite(client, club, "x" * 300)
    assert response.status_code == 400


def test_roster_players_without_an_account_are_added_as_before(club, organiser):
    entry = services.add_player(actor=organiser, club=club, display_name="Безаккаунтный Иван")
    assert entry.player.user_id is None and entry.active
    assert not MemberInvitation.objects.exists()
