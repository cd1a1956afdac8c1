"""Search finds people however their name was typed; list pages use a fixed number of queries."""

import pytest

from clubs import selectors, services
from clubs.models import Role

from .factories import ClubFactory, ClubPlayerFactory, MembershipFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def villagers():
    names = [
        "Нұрлан Ахметов",
        "Әсел Жумабаева",
        "Жанар Сәрсенова",
        "Ерлан Қасымов",
        "Олег Ткаченко",
        "Иван Петров",
    ]
    return {n: PlayerFactory(display_name=n, city="Успенка") for n in names}


@pytest.mark.parametrize(
    "query,expected",
    [
        ("Nurlan", ["Нұрлан Ахметов"]),
        ("нурлан", ["Нұрлан Ахметов"]),
        ("Asel", ["Әсел Жумабаева"]),
        ("Janar", ["Жанар Сәрсенова"]),
        ("zhanar sarsenova", ["Жанар Сәрсенова"]),
        ("Yerlan Kasymov", ["Ерлан Қасымов"]),
        ("Qasymov", ["Ерлан Қасымов"]),
        ("Oleh", ["Олег Ткаченко"]),
        ("ахмет", ["Нұрлан Ахметов"]),
        ("Пушкин", []),
        ("   ", []),
    ],
)
def test_search_finds_names_in_either_alphabet(villagers, query, expected):
    assert [p.display_name for p in selectors.search_players(query=query)] == expected


def test_search_by_city_and_hides_merged_records(villagers):
    assert len(selectors.search_players(query="Uspenka")) == 6
    dup = PlayerFactory(display_name="Nurlan Nurik", city="")
    dup.merged_into = villagers["Нұрлан Ахметов"]
    dup.save()
    assert [p.pk for p in selectors.search_players(query="nurlan")] == [villagers["Нұрлан Ахметов"].pk]
    # the old name still finds the person, shown once as the surviving record
    assert [p.pk for p in selectors.search_players(query="Нурик")] == [villagers["Нұрлан Ахметов"].pk]


def test_search_query_count_does_not_grow(django_assert_max_num_queries):
    club = ClubFactory()
    for i in range(15):
        ClubPlayerFactory(club=club, player=PlayerFactory(display_name=f"Нурлан {i}"))
    with django_assert_max_num_queries(3):
        found = selectors.search_players(query="nurlan")
        assert sum(len(p.roster_entries.all()) for p in found) == 15


def test_club_list_counts_without_n_plus_one(django_assert_num_queries):
    for _ in range(5):
        club = ClubFactory()
        MembershipFactory(club=club, role=Role.OWNER)
        ClubPlayerFactory(club=club)
    with django_assert_num_queries(1):
        clubs = list(selectors.club_list())
        assert [c.member_count for c in clubs] == [1] * 5
        assert [c.player_count for c in clubs] == [1] * 5


def test_members_are_listed_owners_first(club):
    MembershipFactory(club=club, user=UserFactory(username="zed"), role=Role.OWNER)
    MembershipFactory(club=club, user=UserFactory(username="amy"), role=Role.MEMBER)
    MembershipFactory(club=club, user=UserFactory(username="bob"), role=Role.ORGANISER)
    assert [m.user.username for m in selectors.club_members(club=club)] == ["zed", "bob", "amy"]


def test_roster_hides_inactive_rows_unless_asked(club, owner):
    entry = services.add_player(actor=owner, club=club, display_name="Ерлан")
    services.add_player(actor=owner, club=club, display_name="Асель")
    services.set_roster_active(actor=owner, club=club, entry=entry, active=False)
    assert [e.player.display_name for e in selectors.club_roster(club=club)] == ["Асель"]
    assert len(selectors.club_roster(club=club, include_inactive=True)) == 2
