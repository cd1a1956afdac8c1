"""A club's audit log: its managers read every change in the club and its tournaments, worded in
their language, with what changed before → after."""

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from clubs import services
from clubs.models import Role
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db


def _get(user, url, language="en"):
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client.get(url)


def test_club_managers_read_the_clubs_changes_in_their_language(club, owner, organiser, member):
    with translation.override("ru"):
        services.bulk_add_players(actor=organiser, club=club, text="1. Жанар\n2. Janar")
        services.set_member_role(actor=owner, club=club, user=member, role=Role.ORGANISER)
        tournament_services.create_tournament(actor=organiser, club=club, name="Кубок клуба")
    url = reverse("clubs:audit", args=[club.slug])
    page = _get(owner, url).content.decode()
    assert "List of players pasted" in page and "repeated in the list" in page and "Janar" in page
    assert "Role changed" in page and "member</span> → <span class=\"audit-after\">organiser" in page
    assert "Tournament created" in page and "Кубок клуба" in page
    t = club.tournaments.get()
    tournament_services.update_tournament(actor=organiser, tournament=t, swiss_rounds=4)
    a, b = (
        services.add_player(actor=organiser, club=club, display_name=n).player for n in ("Арман", "Берик")
    )
    tournament_services.register_entry(actor=organiser, tournament=t, player_a=a, player_b=b)
    page = _get(owner, url).content.decode()
    assert "Tournament settings changed" in page and "5</span> → <span class=\"audit-after\">4" in page
    assert "Pair entered</span> <span class=\"audit-subject\">· Арман &amp; Берик" in page
    assert "organiser · Кубок клуба" in page, "a club's log says which tournament a change is in"
    for code in ("roster.bulk_add", "membership.set_role", "tournament.create"):
        assert code not in page
    ru = _get(organiser, url, "ru").content.decode()
    assert "Вставлен список игроков" in ru
    assert "Турнир создан" in ru and "List of players pasted" not in ru


def test_only_the_clubs_managers_open_it(club, member, outsider, organiser):
    url = reverse("clubs:audit", args=[club.slug])
    assert _get(member, url).status_code == 403
    assert _get(outsider, url).status_code == 403
    response = Client().get(url)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    for page in ("clubs:club_detail", "clubs:roster"):
        assert url in _get(organiser, reverse(page, args=[club.slug])).content.decode(), page
    assert url not in _get(member, reverse("clubs:club_detail", args=[club.slug])).content.decode()


def test_the_filter_shows_one_kind(club, organiser):
    services.add_player(actor=organiser, club=club, display_name="Олег")
    tournament_services.create_tournament(actor=organiser, club=club, name="Весна")
    page = _get(organiser, reverse("clubs:audit", args=[club.slug]) + "?kind=roster").content.decode()
    assert "Player added to the roster" in page and "Tournament created" not in page
