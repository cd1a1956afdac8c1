"""Pages: what each role sees and may do. Every write view refuses anonymous users (login
redirect) and signed-in users without the role (403), and changes nothing when it refuses."""

import pytest
from django.urls import reverse

from clubs import services
from clubs.models import (
    AuditEntry,
    Club,
    ClubPlayer,
    MemberInvitation,
    Membership,
    Player,
    PlayerInvitation,
    Role,
)

from .factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def villager(club, organiser):
    return services.add_player(actor=organiser, club=club, display_name="Нұрлан", city="Успенка")


@pytest.fixture
def second_villager(club, organiser):
    return services.add_player(actor=organiser, club=club, display_name="Nurlan A.")


@pytest.fixture
def invitation(club, organiser, villager):
    return services.invite_player(actor=organiser, club=club, player=villager.player)


# (url name, method, kwargs factory, POST data factory, roles that must get 403)
WRITE_VIEWS = [
    ("club_edit", "get", lambda f: {"slug": f["club"].slug}, None, ["organiser", "member", "outsider"]),
    (
        "club_edit",
        "post",
        lambda f: {"slug": f["club"].slug},
        lambda f: {"name": "Взлом"},
        ["organiser", "member", "outsider"],
    ),
    ("members", "get", lambda f: {"slug": f["club"].slug}, None, ["organiser", "member", "outsider"]),
    (
        "member_add",
        "post",
        lambda f: {"slug": f["club"].slug},
        lambda f: {"who": "newbie", "role": "owner"},
        ["organiser", "member", "outsider"],
    ),
    (
        "member_role",
        "post",
        lambda f: {"slug": f["club"].slug, "user_id": f["member"].pk},
        lambda f: {"role": "owner"},
        ["organiser", "member", "outsider"],
    ),
    (
        "member_remove",
        "post",
        lambda f: {"slug": f["club"].slug, "user_id": f["member"].pk},
        lambda f: {},
        ["organiser", "outsider"],
    ),
    ("roster", "get", lambda f: {"slug": f["club"].slug}, None, ["member", "outsider"]),
    (
        "roster_add",
        "post",
        lambda f: {"slug": f["club"].slug},
        lambda f: {"display_name": "Чужой"},
        ["member", "outsider"],
    ),
    (
        "roster_add_member",
        "post",
        lambda f: {"slug": f["club"].slug, "player_id": f["member_player"].pk},
        lambda f: {},
        ["member", "outsider"],
    ),
    ("roster_bulk", "get", lambda f: {"slug": f["club"].slug}, None, ["member", "outsider"]),
    (
        "roster_bulk",
        "post",
        lambda f: {"slug": f["club"].slug},
        lambda f: {"text": "Чужой\nЕщё"},
        ["member", "outsider"],
    ),
    (
        "roster_invite",
        "post",
        lambda f: {"slug": f["club"].slug, "player_id": f["villager"].player_id},
        lambda f: {},
        ["member", "outsider"],
    ),
    (
        "invitation",
        "get",
        lambda f: {"slug": f["club"].slug, "pk": f["invitation"].pk},
        None,
        ["member", "outsider"],
    ),
    (
        "roster_toggle",
        "post",
        lambda f: {"slug": f["club"].slug, "entry_id": f["villager"].pk},
        lambda f: {},
        ["member", "outsider"],
    ),
    ("roster_merge", "get", lambda f: {"slug": f["club"].slug}, None, ["member", "outsider"]),
    (
        "roster_merge",
        "post",
        lambda f: {"slug": f["club"].slug},
        lambda f: {"source": f["second_villager"].player_id, "target": f["villager"].player_id},
        ["member", "outsider"],
    ),
    ("player_edit", "get", lambda f: {"pk": f["villager"].player_id}, None, ["member", "outsider"]),
    (
        "player_edit",
        "post",
        lambda f: {"pk": f["villager"].player_id},
        lambda f: {"display_name": "Взлом"},
        ["member", "outsider"],
    ),
    ("club_create", "get", lambda f: {}, None, []),
    ("club_create", "post", lambda f: {}, lambda f: {"name": "Новый"}, []),
    ("club_join", "post", lambda f: {"slug": f["club"].slug}, lambda f: {}, []),
    ("club_leave", "post", lambda f: {"slug": f["club"].slug}, lambda f: {}, []),
    ("my_profile", "get", lambda f: {}, None, []),
    ("my_profile", "post", lambda f: {}, lambda f: {"display_name": "Я"}, []),
]


def _snapshot():
    return (
        list(Club.objects.values_list("name", "slug").order_by("pk")),
        list(Membership.objects.values_list("club_id", "user_id", "role").order_by("pk")),
        list(ClubPlayer.objects.values_list("club_id", "player_id", "active").order_by("pk")),
        list(Player.objects.values_list("display_name", "user_id", "merged_into_id").order_by("pk")),
        PlayerInvitation.objects.count(),
        MemberInvitation.objects.count(),
        AuditEntry.objects.count(),
    )


@pytest.fixture
def world(club, owner, organiser, member, outsider, villager, second_villager, invitation):
    UserFactory(username="newbie")
    member_player = services.ensure_player_for_user(user=member)
    return locals()


def _call(client, name, method, world, kwargs, data):
    url = reverse(f"clubs:{name}", kwargs=kwargs(world))
    return url, (client.post(url, data(world)) if method == "post" else client.get(url))


@pytest.mark.parametrize(
    "name,method,kwargs,data,_roles", WRITE_VIEWS, ids=[f"{v[0]}-{v[1]}" for v in WRITE_VIEWS]
)
def test_anonymous_users_are_sent_to_login(client, world, name, method, kwargs, data, _roles):
    before = _snapshot()
    url, response = _call(client, name, method, world, kwargs, data)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))
    assert _snapshot() == before


FORBIDDEN = [(v[0], v[1], v[2], v[3], role) for v in WRITE_VIEWS for role in v[4]]


@pytest.mark.parametrize(
    "name,method,kwargs,data,role", FORBIDDEN, ids=[f"{v[0]}-{v[1]}-{v[4]}" for v in FORBIDDEN]
)
def test_signed_in_users_without_the_role_get_403(client, world, name, method, kwargs, data, role):
    client.force_login(world[role])
    before = _snapshot()
    _url, response = _call(client, name, method, world, kwargs, data)
    assert response.status_code == 403
    assert _snapshot() == before


def test_public_pages_render_for_anonymous_visitors(client, world):
    club = world["club"]
    for url in [
        reverse("clubs:home"),
        reverse("clubs:club_list"),
        club.get_absolute_url(),
        reverse("clubs:player_search") + "?q=Nurlan",
        world["villager"].player.get_absolute_url(),
        reverse("clubs:claim", kwargs={"token": world["invitation"].token}),
        reverse("account_login"),
        reverse("account_signup"),
        reverse("account_reset_password"),
    ]:
        assert client.get(url).status_code == 200, url


def test_club_page_shows_roster_members_and_honest_empty_events(client, world):
    page = client.get(world["club"].get_absolute_url()).content.decode()
    assert "Нұрлан" in page and "Nurlan A." in page
    assert "owner" in page and "organiser" in page
    assert 'id="events"' in page
    assert "Manage roster" not in page  # anonymous visitors get no management links


def test_club_page_shows_management_links_by_role(client, world):
    client.force_login(world["organiser"])
    page = client.get(world["club"].get_absolute_url()).content.decode()
    assert reverse("clubs:roster", kwargs={"slug": "uspenka"}) in page
    assert reverse("clubs:members", kwargs={"slug": "uspenka"}) not in page
    client.force_login(world["owner"])
    page = client.get(world["club"].get_absolute_url()).content.decode()
    assert reverse("clubs:members", kwargs={"slug": "uspenka"}) in page


def test_create_club_then_add_a_player(client):
    user = UserFactory()
    client.force_login(user)
    response = client.post(reverse("clubs:club_create"), {"name": "Қызылжар", "city": "Петропавл"})
    club = Club.objects.get(name="Қызылжар")
    assert response["Location"] == club.get_absolute_url() == "/clubs/qyzylzhar/"
    client.post(reverse("clubs:roster_add", kwargs={"slug": club.slug}), {"display_name": "Әсел", "city": ""})
    assert list(club.roster.values_list("player__display_name", flat=True)) == ["Әсел"]
    assert "Әсел" in client.get(club.get_absolute_url()).content.decode()


def test_bulk_paste_reports_duplicates(client, world):
    client.force_login(world["organiser"])
    response = client.post(
        reverse("clubs:roster_bulk", kwargs={"slug": "uspenka"}), {"text": "Nurlan, Uspenka\nЖанар\n\nЕрлан"}
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert "Nurlan, Uspenka" in page and "Жанар" in page
    assert set(world["club"].roster.values_list("player__display_name", flat=True)) == {
        "Нұрлан",
        "Nurlan A.",
        "Жанар",
        "Ерлан",
    }


def test_owner_changes_role_and_last_owner_rule_shows_a_message(client, world):
    client.force_login(world["owner"])
    url = reverse("clubs:member_role", kwargs={"slug": "uspenka", "user_id": world["member"].pk})
    client.post(url, {"role": "organiser"})
    assert Membership.objects.get(user=world["member"]).role == Role.ORGANISER
    url = reverse("clubs:member_role", kwargs={"slug": "uspenka", "user_id": world["owner"].pk})
    response = client.post(url, {"role": "member"}, follow=True)
    assert Membership.objects.get(user=world["owner"]).role == Role.OWNER
    assert "at least one owner" in response.content.decode()


def test_owner_invites_by_email_and_the_person_joins_only_by_accepting(client, world):
    client.force_login(world["owner"])
    client.post(
        reverse("clubs:member_add", kwargs={"slug": "uspenka"}),
        {"who": "newbie@example.com", "role": "member"},
    )
    assert not Membership.objects.filter(club=world["club"], user__username="newbie").exists()
    invitation = MemberInvitation.objects.get(club=world["club"], user__username="newbie")
    client.force_login(invitation.user)
    client.post(invitation.get_absolute_url(), {"answer": "accept"})
    assert Membership.objects.filter(club=world["club"], user__username="newbie").exists()


def test_invitation_link_and_claim_flow(client, world):
    client.force_login(world["organiser"])
    response = client.post(
        reverse(
            "clubs:roster_invite", kwargs={"slug": "uspenka", "player_id": world["second_villager"].player_id}
        ),
        follow=True,
    )
    invitation = PlayerInvitation.objects.get(player=world["second_villager"].player)
    assert f"/claim/{invitation.token}/" in response.content.decode()
    claimer = UserFactory()
    client.force_login(claimer)
    response = client.post(reverse("clubs:claim", kwargs={"token": invitation.token}))
    assert response["Location"] == world["second_villager"].player.get_absolute_url()
    assert Player.objects.get(pk=world["second_villager"].player_id).user == claimer


def test_anonymous_claim_post_goes_to_login(client, world):
    url = reverse("clubs:claim", kwargs={"token": world["invitation"].token})
    response = client.post(url)
    assert response.status_code == 302 and response["Location"].startswith(reverse("account_login"))
    assert Player.objects.get(pk=world["villager"].player_id).user is None


def test_merge_view(client, world):
    client.force_login(world["organiser"])
    client.post(
        reverse("clubs:roster_merge", kwargs={"slug": "uspenka"}),
        {"source": world["second_villager"].player_id, "target": world["villager"].player_id},
    )
    merged = Player.objects.get(pk=world["second_villager"].player_id)
    assert merged.merged_into_id == world["villager"].player_id
    response = client.get(merged.get_absolute_url())
    assert response.status_code == 302 and response["Location"] == world["villager"].player.get_absolute_url()


def test_signup_creates_a_player_profile(client):
    response = client.post(
        reverse("account_signup"),
        {
            "email": "zhanar@example.com",
            "username": "zhanar",
            "password1": "uspenka-bilka-2026",
            "password2": "uspenka-bilka-2026",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    player = Player.objects.get(user__username="zhanar")
    assert player.display_name == "zhanar"
    assert client.get(reverse("clubs:my_profile")).status_code == 200


def test_logout_is_a_post_form_in_the_header(client, world):
    client.force_login(world["member"])
    page = client.get(reverse("clubs:home")).content.decode()
    assert f'action="{reverse("account_logout")}"' in page
    client.post(reverse("account_logout"))
    assert "_auth_user_id" not in client.session


def test_language_switcher_sets_kazakh(client, world):
    response = client.post("/i18n/setlang/", {"language": "kk", "next": "/"}, follow=True)
    assert response.status_code == 200
    assert response.wsgi_request.LANGUAGE_CODE == "kk"
    assert '<html lang="kk">' in response.content.decode()


@pytest.mark.parametrize(
    "lang,expected",
    [
        ("kk", ["Тіркелу", "Құпиясөз", "Пайдаланушы аты"]),
        ("uk", ["Зареєструватися", "Пароль"]),
        ("ru", ["Зарегистрироваться"]),
    ],
)
def test_signup_page_speaks_the_users_language(client, lang, expected):
    """allauth has no Kazakh; our message files cover its labels for every language."""
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = lang
    page = client.get(reverse("account_signup")).content.decode()
    for text in expected:
        assert text in page


def test_plural_forms_of_the_club_list(client, club, owner, organiser, member):
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "ru"
    assert "3 участника" in client.get(reverse("clubs:club_list")).content.decode()


def test_organiser_corrects_a_villagers_name(client, world):
    client.force_login(world["organiser"])
    player = world["villager"].player
    assert (
        reverse("clubs:player_edit", kwargs={"pk": player.pk})
        in client.get(player.get_absolute_url()).content.decode()
    )
    client.post(
        reverse("clubs:player_edit", kwargs={"pk": player.pk}),
        {"display_name": "Нұрлан Ахметов", "city": "Успенка"},
    )
    player.refresh_from_db()
    assert player.display_name == "Нұрлан Ахметов"
    assert AuditEntry.objects.filter(action="player.update", actor=world["organiser"]).exists()


def test_club_page_query_count_does_not_grow_with_the_roster(client, world, django_assert_max_num_queries):
    url = world["club"].get_absolute_url()
    client.get(url)
    with django_assert_max_num_queries(12) as small:
        client.get(url)
    for i in range(20):
        services.add_player(actor=world["organiser"], club=world["club"], display_name=f"Игрок {i}")
        UserFactory(username=f"m{i}")
    for i in range(10):
        services.join_club(actor=UserFactory(username=f"joiner{i}"), club=world["club"])
    with django_assert_max_num_queries(len(small.captured_queries)):
        client.get(url)


def test_password_reset_sends_a_link_in_the_users_language(client, mailoutbox):
    UserFactory(username="asel", email="asel@example.com")
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    response = client.post(reverse("account_reset_password"), {"email": "asel@example.com"})
    assert response.status_code == 302
    assert len(mailoutbox) == 1
    message = mailoutbox[0]
    assert message.subject.endswith("Reset your Bilka password")
    assert "/accounts/password/reset/key/" in message.body and "asel" in message.body
    link = next(w for w in message.body.split() if "/accounts/password/reset/key/" in w)
    path = link.split("://", 1)[1].split("/", 1)[1]
    page = client.get("/" + path, follow=True)
    assert page.status_code == 200 and b'name="password1"' in page.content


def test_organiser_puts_a_member_on_the_roster(client, world):
    client.force_login(world["organiser"])
    page = client.get(reverse("clubs:roster", kwargs={"slug": "uspenka"})).content.decode()
    assert 'id="members-off-roster"' in page and "member" in page
    client.post(
        reverse("clubs:roster_add_member", kwargs={"slug": "uspenka", "player_id": world["member_player"].pk})
    )
    assert ClubPlayer.objects.filter(club=world["club"], player=world["member_player"], active=True).exists()
    page = client.get(reverse("clubs:roster", kwargs={"slug": "uspenka"})).content.decode()
    assert 'id="members-off-roster"' not in page


def test_only_members_can_be_put_on_the_roster_this_way(client, world):
    stranger = services.ensure_player_for_user(user=UserFactory(username="stranger"))
    client.force_login(world["organiser"])
    url = reverse("clubs:roster_add_member", kwargs={"slug": "uspenka", "player_id": stranger.pk})
    assert client.post(url).status_code == 404


def test_bulk_paste_refuses_an_enormous_list(client, world):
    client.force_login(world["organiser"])
    text = "\n".join(f"Игрок {i}" for i in range(301))
    response = client.post(reverse("clubs:roster_bulk", kwargs={"slug": "uspenka"}), {"text": text})
    assert "At most 300 players" in response.content.decode()
    assert world["club"].roster.count() == 2


def test_roster_page_shows_recent_changes_in_words(client, world):
    client.force_login(world["organiser"])
    page = client.get(reverse("clubs:roster", kwargs={"slug": "uspenka"})).content.decode()
    assert 'id="history"' in page
    assert "Player added to the roster" in page and "Invitation link made" in page


def test_home_asks_a_new_user_for_a_real_name(client):
    user = UserFactory(username="zhanar")
    player = services.ensure_player_for_user(user=user)
    client.force_login(user)
    assert 'id="ask-name"' in client.get(reverse("clubs:home")).content.decode()
    services.update_player(actor=user, player=player, display_name="Жанар Сәрсенова", city="Успенка")
    assert 'id="ask-name"' not in client.get(reverse("clubs:home")).content.decode()
