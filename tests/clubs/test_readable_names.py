"""Names and texts people type, at the club pages, the services and the rows: invisible and
unbounded text is refused or tidied, and names that read the same are one name for duplicates."""

import pytest
from django.core.exceptions import ValidationError
from django.db import transaction
from django.urls import reverse

from clubs import services
from clubs.models import ApiToken, Club, ClubPlayer, Player
from clubs.text_fields import PROSE_LENGTH

from .factories import UserFactory

pytestmark = pytest.mark.django_db

NO_LETTERS_RU = "Напишите буквами или цифрами"
INVISIBLE_NAMES = {
    "zero-width characters": "\u200b\u200c\u200d\u2060",
    "the Hangul filler": "\u3164\u3164",
    "the braille blank": "\u2800\u2800\u2800",
    "bidi controls": "\u202e\u202d",
}
TWO_MB = "x" * (2 * 1024 * 1024)


def _ru(client, user):
    client.force_login(user)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "ru"
    return client


@pytest.mark.parametrize("typed", INVISIBLE_NAMES.values(), ids=INVISIBLE_NAMES.keys())
def test_a_club_named_with_nothing_visible_is_refused_on_the_page(client, typed):
    user = UserFactory()
    page = _ru(client, user).post(reverse("clubs:club_create"), {"name": typed, "city": "Успенка"})
    assert page.status_code == 200
    assert NO_LETTERS_RU in page.content.decode()
    assert not Club.objects.exists()


@pytest.mark.parametrize("typed", INVISIBLE_NAMES.values(), ids=INVISIBLE_NAMES.keys())
def test_a_player_named_with_nothing_visible_is_refused_by_the_service(club, organiser, typed):
    with pytest.raises(ValidationError):
        services.add_player(actor=organiser, club=club, display_name=typed)
    assert not Player.objects.exists()


def test_a_name_of_symbols_only_is_refused_with_the_reason(client, club, organiser):
    page = _ru(client, organiser).post(
        reverse("clubs:roster_add", kwargs={"slug": club.slug}), {"display_name": "★ ☆ ★", "city": ""}
    )
    assert page.status_code == 400 and NO_LETTERS_RU in page.content.decode()
    assert not ClubPlayer.objects.filter(club=club).exists()


def test_control_characters_are_dropped_from_a_name(club, organiser):
    entry = services.add_player(actor=organiser, club=club, display_name="Асель\x00\x07 Жумабаева\x1b")
    assert entry.player.display_name == "Асель Жумабаева"


def test_an_unclosed_right_to_left_override_leaves_a_name_and_a_city(client, club, organiser):
    _ru(client, organiser).post(
        reverse("clubs:roster_add", kwargs={"slug": club.slug}),
        {"display_name": "\u202eАсель Жумабаева", "city": "Успенка\u202e"},
    )
    player = Player.objects.get()
    assert (player.display_name, player.city) == ("Асель Жумабаева", "Успенка")
    club_page = services.create_club(actor=organiser, name="Белка\u202e", city="\u202eПавлодар")
    assert (club_page.name, club_page.city) == ("Белка", "Павлодар")


def test_a_club_beside_a_club_whose_name_differs_by_an_invisible_character_is_refused(client):
    user = UserFactory()
    services.create_club(actor=user, name="Alpha A1")
    page = _ru(client, user).post(reverse("clubs:club_create"), {"name": "Alpha A1\u200b", "city": ""})
    assert "Клуб «Alpha A1» уже есть" in page.content.decode()
    with pytest.raises(ValidationError):
        services.create_club(actor=user, name="ALPHA  a1")
    assert list(Club.objects.values_list("name", flat=True)) == ["Alpha A1"]


def test_a_club_whose_name_looks_the_same_in_another_script_is_refused():
    user = UserFactory()
    services.create_club(actor=user, name="Асель")  # Cyrillic
    with pytest.raises(ValidationError, match="уже есть|already"):
        services.create_club(actor=user, name="A\u0441\u0435\u043b\u044c")  # a Latin A
    with pytest.raises(ValidationError):
        services.create_club(actor=user, name="ACEЛЬ")  # Latin A, C, E in capitals
    services.create_club(actor=user, name="Әсел")  # another name


def test_a_club_renamed_to_look_like_another_is_refused_but_keeps_its_own_name(club, owner):
    other = services.create_club(actor=owner, name="Белка")
    with pytest.raises(ValidationError):
        services.update_club(actor=owner, club=club, name="Бeлкa")  # Latin e and a
    Club.objects.filter(pk=other.pk).update(name="Успенка", name_key="", name_key_upper="")  # as before
    services.update_club(actor=owner, club=club, name="Успенка", description="Новое")  # its own name
    club.refresh_from_db()
    assert club.description == "Новое"


def test_a_roster_player_who_looks_like_one_on_the_roster_is_refused(club, organiser):
    services.add_player(actor=organiser, club=club, display_name="Асель Жумабаева", city="Успенка")
    for twin in ("A\u0441ель Жумабаева", "Асель Жумабаева\u200b", "асель  жумабаева"):
        with pytest.raises(ValidationError, match="already on the roster|уже в списке"):
            services.add_player(actor=organiser, club=club, display_name=twin)
    services.add_player(actor=organiser, club=club, display_name="Асель Жумабаева", city="Павлодар")
    assert ClubPlayer.objects.filter(club=club).count() == 2


def test_a_pasted_list_reports_look_alikes_as_on_the_roster(club, organiser):
    services.add_player(actor=organiser, club=club, display_name="Асель")
    result = services.bulk_add_players(
        actor=organiser, club=club, text="A\u0441ель\nAlpha A1\nAlpha A1\u200b\n\u200b\u3164\nНұрлан"
    )
    assert [line for line, _player in result.duplicates] == ["A\u0441ель"]
    assert result.repeated == ["Alpha A1"]
    assert sorted(e.player.display_name for e in result.created) == ["Alpha A1", "Нұрлан"]
    assert result.blank_lines == 1


def test_a_pasted_line_of_symbols_refuses_the_paste_by_line(club, organiser):
    with pytest.raises(ValidationError) as refused:
        services.bulk_add_players(actor=organiser, club=club, text="Нұрлан\n★★★\nАсель")
    assert refused.value.messages[0].startswith(("Line 2:", "Строка 2:"))
    assert not ClubPlayer.objects.filter(club=club).exists()


def test_a_two_megabyte_description_is_refused_by_the_form_in_the_readers_language(client, club, owner):
    page = _ru(client, owner).post(
        reverse("clubs:club_edit", kwargs={"slug": club.slug}),
        {"name": club.name, "city": club.city, "description": TWO_MB},
    )
    assert page.status_code == 200
    assert f"Не больше {PROSE_LENGTH} символов, пожалуйста (здесь {len(TWO_MB)})" in page.content.decode()
    club.refresh_from_db()
    assert club.description == "Играем по пятницам."


def test_a_two_megabyte_description_is_refused_by_the_service_and_the_row():
    user = UserFactory()
    with pytest.raises(ValidationError):
        services.create_club(actor=user, name="Белка", description=TWO_MB)
    with pytest.raises(ValidationError), transaction.atomic():  # as a service's own transaction
        Club.objects.create(name="Белка", slug="belka", description=TWO_MB)
    with pytest.raises(ValidationError), transaction.atomic():
        Club.objects.create(name="\u200b", slug="nothing")
    assert not Club.objects.exists()


def test_a_description_keeps_its_paragraphs_and_loses_what_no_one_sees(club, owner):
    services.update_club(
        actor=owner,
        club=club,
        name=club.name,
        description="Пятница, 19:00\u200b\r\n\r\n\r\nЗвоните\u202e Асель",
    )
    club.refresh_from_db()
    assert club.description == "Пятница, 19:00\n\nЗвоните Асель"


def test_a_name_too_long_is_refused_with_its_limit(client, club, organiser):
    page = _ru(client, organiser).post(
        reverse("clubs:roster_add", kwargs={"slug": club.slug}), {"display_name": "Ы" * 121, "city": ""}
    )
    assert "Не больше 120 символов, пожалуйста (здесь 121)" in page.content.decode()


def test_an_api_key_name_is_a_readable_name(client):
    user = UserFactory()
    page = _ru(client, user).post(reverse("clubs:api_token_create"), {"name": "\u3164", "scope": "read"})
    assert NO_LETTERS_RU in page.content.decode()
    assert not ApiToken.objects.exists()


def test_an_account_name_of_fillers_is_refused_at_sign_up(client):
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "ru"
    page = client.post(
        reverse("account_signup"),
        {
            "email": "a@example.com",
            "username": "\u3164\u3164",
            "password1": "x7-Kq!long",
            "password2": "x7-Kq!long",
        },
    )
    assert "Используйте видимые буквы или цифры" in page.content.decode()
    assert not Player.objects.exists()


def test_an_older_account_named_with_fillers_gets_a_readable_player_name():
    user = UserFactory(username="\u3164")
    player = services.ensure_player_for_user(user=user)
    assert player.display_name == f"Игрок {user.pk}"
