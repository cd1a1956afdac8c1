"""The archive's pages: who sees which match, the filters, a player's figures, bounded queries."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from archive import services as archive_services
from archive.models import SeatKind
from clubs.models import Role
from gameplay.engine import Rules, write_record
from gameplay.engine.cards import PAIRS
from gameplay.engine.selfplay import bot_match
from tests.clubs.factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(client):
    """Pages in English, so assertions read the same whatever LANGUAGE_CODE is."""
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


@pytest.fixture
def people(db):
    names = ("asel", "oleh", "ivan", "nurlan", "stranger", "boss")
    users = {name: UserFactory(username=name) for name in names}
    players = {name: PlayerFactory(display_name=name.title(), user=u) for name, u in users.items()}
    return users, players


def _seats(players, names):
    out = []
    for seat, name in enumerate(names):
        if name == "bot":
            out.append(archive_services.SeatIn(seat=seat, name="Бот", kind=SeatKind.BOT))
        else:
            p = players[name]
            out.append(archive_services.SeatIn(seat=seat, name=p.display_name, player_id=p.pk,
                                               user_id=p.user_id))
    return out


def _archive(players, names, *, seed=1, public=True, club=None, days_ago=0, rules=None, sheet=False,
             tournament=None):
    state = bot_match(Rules.from_json(rules or {}), seed=seed)
    ns, ew = state.capped_score
    played = archive_services.PlayedMatch(
        source="tournament" if tournament else "table", seats=_seats(players, names), rules=rules or {},
        played_at=timezone.now() - datetime.timedelta(days=days_ago), ns_eyes=ns, ew_eyes=ew,
        winner=PAIRS[state.winner], record=None if sheet else write_record(state), public=public,
        club_id=club.pk if club else None, tournament=tournament,
        tournament_match=seed if tournament else None,
        event_name="Кубок" if tournament else "", round_number=1 if tournament else None,
        sheet=[archive_services.SheetDeal(outcome="win", pair_on_duty=0, ns_points=80, ew_points=40,
                                          ns_eyes=1,
                                  ew_eyes=0, ns_score=1, ew_score=0)] if sheet else (),
    )
    return archive_services.archive_match(played=played)


@pytest.fixture
def archive(people):
    users, players = people
    club = ClubFactory(name="Успенка", slug="uspenka-a")
    MembershipFactory(club=club, user=users["boss"], role=Role.ORGANISER)
    four = ["asel", "ivan", "oleh", "nurlan"]
    return {
        "public": _archive(players, four, seed=1),
        "private": _archive(players, ["asel", "bot", "oleh", "bot"], seed=2, public=False),
        "club": _archive(players, four, seed=3, public=False, club=club, tournament=7),
        "sheet": _archive(players, four, seed=4, club=club, sheet=True, days_ago=30, tournament=8),
    }


def _client(client, users, who):
    if who != "anonymous":
        client.force_login(users[who])
    return client


@pytest.mark.parametrize(("who", "sees"), [
    ("anonymous", {"public", "sheet"}),
    ("stranger", {"public", "sheet"}),
    ("asel", {"public", "private", "club", "sheet"}),  # she sat in all four
    ("ivan", {"public", "club", "sheet"}),  # not at the private table
    ("boss", {"public", "club", "sheet"}),  # organiser of the club: its private match too
])
def test_each_viewer_sees_what_he_may_on_every_route(client, people, archive, who, sees):
    users, players = people
    client = _client(client, users, who)
    listing = client.get(reverse("archive:list")).content.decode()
    for key, match in archive.items():
        url = reverse("archive:match", kwargs={"pk": match.pk})
        page = client.get(url)
        assert page.status_code == (200 if key in sees else 404), (who, key)
        assert (url in listing) == (key in sees), (who, key)
    missing = client.get(reverse("archive:match", kwargs={"pk": 999999}))
    assert missing.status_code == 404
    player_url = reverse("archive:player", kwargs={"pk": players["oleh"].pk})
    player_page = client.get(player_url).content.decode()
    for key, match in archive.items():
        url = reverse("archive:match", kwargs={"pk": match.pk})
        assert (url in player_page) == (key in sees), (who, key)


def test_the_filters_find_by_player_club_tournament_dates_and_rules(client, people, archive):
    users, players = people
    extra = _archive(players, ["ivan", "asel", "nurlan", "oleh"], seed=9, rules={"deck": "36"}, days_ago=3)
    url = reverse("archive:list")

    def found(**params):
        page = client.get(url, params).content.decode()
        return {k for k, m in {**archive, "extra": extra}.items()
                if reverse("archive:match", kwargs={"pk": m.pk}) in page}

    assert found() == {"public", "sheet", "extra"}
    assert found(player=players["ivan"].pk) == {"public", "sheet", "extra"}
    assert found(q="Ole") == {"public", "sheet", "extra"}
    assert found(club=archive["sheet"].club_id) == {"sheet"}
    assert found(tournament=8) == {"sheet"}
    today = timezone.localdate()
    assert found(date_from=(today - datetime.timedelta(days=7)).isoformat()) == {"public", "extra"}
    assert found(date_to=(today - datetime.timedelta(days=7)).isoformat()) == {"sheet"}
    assert found(rules=extra.rules_key) == {"extra"}
    assert "Clear" in client.get(url, {"club": archive["sheet"].club_id}).content.decode()


def test_the_search_finds_any_spelling_and_bots_by_level(client, people):
    """"Asel" finds "Әсел" and "Әсел" finds "Asel"; a guest's seat is found the same way; "Bot"
    finds every bot match whatever language its bots were archived in, and the bots filter takes
    a level."""
    users, players = people
    players["asel"].display_name = "Әсел"
    players["asel"].save()
    kazakh = _archive(players, ["asel", "ivan", "oleh", "nurlan"], seed=11)
    with_bots = []
    for seed, (name, level) in enumerate([("Бот", "beginner"), ("Bot", "strong"), ("Бот С", "strong")]):
        seats = _seats(players, ["ivan", "oleh", "nurlan", "asel"])
        seats[1] = archive_services.SeatIn(seat=1, name=name, kind=SeatKind.BOT, bot_level=level)
        seats[3] = archive_services.SeatIn(seat=3, name=name, kind=SeatKind.BOT, bot_level=level)
        state = bot_match(Rules(), seed=20 + seed)
        ns, ew = state.capped_score
        with_bots.append(archive_services.archive_match(played=archive_services.PlayedMatch(
            source="table", seats=seats, rules={}, played_at=timezone.now(), ns_eyes=ns, ew_eyes=ew,
            winner=PAIRS[state.winner], record=write_record(state), public=True)))
    guest_seats = _seats(players, ["ivan", "oleh", "nurlan", "asel"])
    guest_seats[3] = archive_services.SeatIn(seat=3, name="Нұрсұлтан Қ.", kind=SeatKind.GUEST)
    state = bot_match(Rules(), seed=30)
    guest = archive_services.archive_match(played=archive_services.PlayedMatch(
        source="table", seats=guest_seats, rules={}, played_at=timezone.now(),
        ns_eyes=state.capped_score[0], ew_eyes=state.capped_score[1], winner=PAIRS[state.winner],
        record=write_record(state), public=True))
    matches = {"kazakh": kazakh, "beginner": with_bots[0], "strong": with_bots[1], "strong2": with_bots[2],
               "guest": guest}

    def found(**params):
        page = client.get(reverse("archive:list"), params).content.decode()
        return {k for k, m in matches.items() if reverse("archive:match", kwargs={"pk": m.pk}) in page}

    assert found(q="Asel") == {"kazakh"} == found(q="Әсел") == found(q="asel")
    assert found(q="Nursultan") == {"guest"}
    assert found(q="Bot") == {"beginner", "strong", "strong2"} == found(q="бот")
    assert found(bots="strong") == {"strong", "strong2"}
    assert found(bots="beginner") == {"beginner"}
    assert found(bots="any") == {"beginner", "strong", "strong2"}
    assert found(bots="none") == {"kazakh", "guest"}
    assert found(bots="nonsense") == set(matches)  # not a choice: the filter is left out


def test_a_listed_match_says_who_won_and_how(client, people):
    """A bot game lost on time read "Bot N & newbie 2 : 0 Bot E & Bot W · on time", the losing
    pair looking like the winner: the list marks the winners and says who ran out of time."""
    users, players = people
    seats = _seats(players, ["ivan", "bot", "oleh", "bot"])
    state = bot_match(Rules(), seed=40)
    timed_out = archive_services.archive_match(played=archive_services.PlayedMatch(
        source="table", seats=seats, rules={}, played_at=timezone.now(), ns_eyes=2, ew_eyes=0,
        winner="EW", reason="timeout", reason_seat=0, record=None, public=True,
        sheet=[archive_services.SheetDeal(outcome="win", pair_on_duty=0, ns_points=80, ew_points=40,
                                          ns_eyes=2, ew_eyes=0, ns_score=2, ew_score=0)]))
    assert state.winner is not None
    page = client.get(reverse("archive:list")).content.decode()
    row = page.split(reverse("archive:match", kwargs={"pk": timed_out.pk}), 1)[1].split("</li>", 1)[0]
    assert "EW won — N ran out of time" in " ".join(row.split())
    ns, ew = row.split('class="archive-score"', 1)
    assert "archive-won" not in ns and "archive-won" in ew


def _queries(client, url):
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


def test_the_list_pages_count_their_queries_independently_of_their_size(client, people):
    users, players = people
    four = ["asel", "ivan", "oleh", "nurlan"]
    for seed in range(2):
        _archive(players, four, seed=seed)
    client.force_login(users["asel"])
    archive_url = reverse("archive:list")
    player_url = reverse("archive:player", kwargs={"pk": players["asel"].pk})
    client.get(archive_url)  # the first request of a session does its own sign-in bookkeeping
    few = _queries(client, archive_url), _queries(client, player_url)
    for seed in range(2, 22):
        _archive(players, four, seed=seed)
    many = _queries(client, archive_url), _queries(client, player_url)
    assert few == many
    assert many[0] <= 14 and many[1] <= 30


def test_a_match_page_is_a_bounded_number_of_queries(client, people, archive):
    users, _players = people
    client.force_login(users["asel"])
    url = reverse("archive:match", kwargs={"pk": archive["public"].pk})
    assert _queries(client, url) <= 12


def test_a_players_figures_say_what_they_count_from(client, people):
    users, players = people
    four = ["asel", "ivan", "oleh", "nurlan"]
    online = _archive(players, four, seed=11)
    _archive(players, four, seed=12, sheet=True)
    from archive.selectors import player_figures

    figures = player_figures(players["asel"], users["asel"])
    assert figures["matches"].value == 2 and figures["matches"].source == "both"
    assert figures["jack"].source == "records"
    deals = online.deals.exclude(outcome__in=("redeal", "unfinished"))
    assert figures["deals"].value == deals.count() + 1
    held = deals.filter(jack_holder=0).count()
    assert figures["jack"].value == (held, deals.count())
    assert figures["partners"][0]["name"] == "Oleh" and figures["partners"][0]["matches"] == 2
    page = client.get(reverse("archive:player", kwargs={"pk": players["asel"].pk})).content.decode()
    assert "from online records and deal sheets" in page and "from online records" in page


def test_the_upload_page_is_reached_from_the_archive_by_organisers_only(client, people, archive):
    users, _players = people
    upload = reverse("archive:upload")
    client.force_login(users["stranger"])
    assert upload not in client.get(reverse("archive:list")).content.decode()
    client.force_login(users["boss"])
    assert upload in client.get(reverse("archive:list")).content.decode()
