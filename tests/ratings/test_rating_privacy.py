"""Nothing private through the ratings: every route of the URL conf, asked by a visitor, a stranger,
a player, an organiser and the player himself, over one public match, one private invitation match
and one match of a tournament round still being played. A match the asker may not see lends no
link, date, opponent, change or place in a count; the ones he may see are there (so a page that
shows nothing at all does not pass for a private one).

The routes come from the resolver (``tests.authz.routes``): each is asked with its arguments filled
from this world, or named in ``NOT_ASKED`` with the reason it shows no match; a new route must be
one or the other.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import formats, timezone, translation

from archive import services as archive_services
from archive.models import ArchivedMatch
from clubs import services as club_services
from clubs.models import TokenScope
from gameplay.engine import Rules, write_record
from gameplay.engine.cards import PAIRS
from gameplay.engine.selfplay import bot_match
from ratings.models import BILKA_FOUR, RatingChange
from ratings.services import recompute as ratings
from tests.authz.routes import url_routes
from tests.clubs.factories import PlayerFactory, UserFactory
from tests.tournaments.conftest import player_with_account
from tournaments import services
from tournaments.models import Round

pytestmark = pytest.mark.django_db

ROLES = ("visitor", "stranger", "player", "organiser", "himself")
#: Which of the three matches each asker may see (the archive's rule: public; the players who sat;
#: the club's owners and organisers for the club's matches).
SEES = {
    "visitor": {"public"},
    "stranger": {"public"},
    "player": {"public"},
    "organiser": {"public", "running"},
    "himself": {"public", "private", "running"},
}
#: Routes about the player and his matches: here nothing of a hidden match may show, not even an
#: opponent's name or a date. Elsewhere (a tournament's own pages list its pairings to anyone) no
#: link to a hidden match and no change it made.
ABOUT_HIM = (
    "archive:player",
    "archive:list",
    "ratings:chart",
    "ratings:board",
    "ratings:club",
    "ratings:city",
    "clubs:player_detail",
    "api:rating_list",
    "api:archive_list",
    "api:player_detail",
)
#: Routes that are not asked, and why: none shows a match or a rating change.
NOT_ASKED = {
    "health": "whether the database, Redis and a worker answer (503 here, with no worker)",
    "account_confirm_email": "signing up",
    "clubs:manifest": "the web app manifest: the site's name and icons",
    "clubs:offline": "the page shown offline for a page the phone has no copy of: no match",
    "gameplay:rules": "the rules of the game, the same for everyone: no match",
    "gameplay:rules_kozyol": "the rules of Kozyol khvalyony, the same for everyone: no match",
    "gameplay:rules_bilka2": "the rules of Bilka for two, the same for everyone: no match",
    "gameplay:help": "the site's help, the same for everyone: no match",
    "account_reset_password_from_key": "signing in",
    **{
        f"gameplay:{n}": "a live table's own page: no archived match, no rating change"
        for n in (
            "table",
            "invite",
            "sit",
            "bots",
            "client_seed",
            "verify_table",
            "state_json",
            "record_json",
            "replay",
        )
    },
    **{f"archive:{n}": "puzzles: positions of public matches that name nobody, no rating of a player"
       for n in ("puzzles", "puzzle")},
    "archive:table_match": "a redirect to the archived match of a live table, asked as archive:match",
    "archive:share": "a POST that shows or hides a game against bots; it answers with a redirect",
    **{f"archive:{n}": "a picture of a position: no rating, and the match's own visibility rule"
       for n in ("position_svg", "position_png")},
    **{
        f"clubs:{n}": "a club's members, roster and settings: no match"
        for n in (
            "club_edit",
            "club_join",
            "club_leave",
            "members",
            "member_add",
            "member_role",
            "member_remove",
            "audit",
            "roster",
            "roster_add",
            "roster_bulk",
            "roster_add_member",
            "roster_merge",
            "roster_toggle",
            "roster_invite",
            "invitation",
            "member_invite_in_person",
            "member_invitation",
            "member_invitation_withdraw",
            "join_invitation",
            "player_edit",
            "claim",
            "api_token_revoke",
        )
    },
    **{
        f"api:{n}": "an action (POST only)"
        for n in ("entry_approve", "entry_withdraw", "match_result", "match_confirm",
                  "event_entry_approve", "event_entry_withdraw", "event_entry_reinstate",
                  "event_start", "entries_bulk", "event_entry_check_in", "round_pair_next", "round_unpair",
                  "round_swap", "match_table", "match_correct", "match_forfeit", "match_dispute",
                  "match_settle")
    },
    **{
        f"webhooks:{n}": "a club's webhooks and their delivery log: ids and statuses, no match shown"
        for n in ("hooks", "hook_toggle", "hook_delete")
    },
    "webhooks:stream": "a tournament's events for programs: ids, tables and eyes as its pages show them",
    "tournaments:hall": "the hall screen: pairings and standings as the tournament page shows them",
    "tournaments:table_device": "a table's device: the pairs' names and the match's eyes, no rating",
    "tournaments:table_cards": "the organiser's printable table cards: table numbers and codes",
    "tournaments:player_details": "the organisers' page of players' details for prize categories: no rating",
    "tournaments:print_prizes": "the organisers' printable prize list and certificates: names, no rating",
    "tournaments:entries_export": "the organisers' CSV of entries and what each paid: names, no rating",
    "tournaments:entry_payment": "an organiser's action: the entry fee an entry paid",
    **{
        f"tournaments:{n}": "a duplicate event's boards: card points and hands, no archived match, no rating"
        for n in ("boards", "board", "print_boards", "board_entry", "board_replay")
    },
    **{
        f"tournaments:{n}": "an organiser's action on the hall screen"
        for n in ("hall_pin", "announce", "announcement_withdraw")
    },
    **{
        f"tournaments:{n}": "an organiser's form or action on entries and pairings"
        for n in (
            "create",
            "edit",
            "entries_bulk",
            "self_register",
            "substitute",
            "entry_action",
            "pair_next",
            "round_edit",
            "unpair",
            "swap",
            "table_number",
            "players_bulk",
            "player_register",
            "player_substitute",
            "player_approve",
            "player_check_in",
            "player_withdraw",
            "player_ask_withdraw",
            "player_reinstate",
            "no_show",
            "dashboard_action",
            "withdrawal_answer",
            "bye_ask",
            "bye_withdraw",
            "forfeit",
        )
    },
}


@dataclass
class Played:
    archived: ArchivedMatch
    opponents: tuple[str, ...]
    changes: list[RatingChange]


def _archive(seats, *, seed, played_at, **extra) -> ArchivedMatch:
    state = bot_match(Rules(), seed=seed)
    ns, ew = state.capped_score
    return archive_services.archive_match(
        played=archive_services.PlayedMatch(
            seats=[
                archive_services.SeatIn(seat=i, name=p.display_name, player_id=p.pk)
                for i, p in enumerate(seats)
            ],
            rules={},
            played_at=played_at,
            ns_eyes=ns,
            ew_eyes=ew,
            winner=PAIRS[state.winner],
            reason="eyes",
            record=write_record(state),
            rated=True,
            **extra,
        )
    )


@pytest.fixture
def world(club, organiser):
    now = timezone.now()
    hero = player_with_account(club, "hero")
    igrok = player_with_account(club, "igrok")  # "a player": he sat in the public match only
    people = {}
    for key in ("pub_partner", "pub_opp", "sec_partner", "sec_opp1", "sec_opp2"):
        people[key] = PlayerFactory(
            display_name={
                "pub_partner": "Открытый Напарник",
                "pub_opp": "Открытый Соперник",
                "sec_partner": "Тайный Напарник",
                "sec_opp1": "Тайный Соперник",
                "sec_opp2": "Тайная Соперница",
            }[key]
        )
    public = _archive(
        [hero, igrok, people["pub_partner"], people["pub_opp"]],
        seed=701,
        played_at=now - datetime.timedelta(days=20, hours=3),
        source="table",
        public=True,
    )
    private = _archive(
        [hero, people["sec_opp1"], people["sec_partner"], people["sec_opp2"]],
        seed=702,
        played_at=now - datetime.timedelta(days=10, hours=5),
        source="table",
        public=False,
    )
    # A rated Swiss of the club whose round 1 is still being played: the hero's match is confirmed,
    # the other one is not played yet.
    cup = services.create_tournament(
        actor=organiser,
        club=club,
        name="Осенний Кубок",
        format="swiss",
        swiss_rounds=3,
        starts_on=(now - datetime.timedelta(days=4)).date(),
    )
    partner = player_with_account(club, "partner")
    names = (
        "Текущий Противник",
        "Текущая Противница",
        "Другой Первый",
        "Другая Вторая",
        "Другой Третий",
        "Другая Четвёртая",
    )
    others = [PlayerFactory(display_name=n) for n in names]
    services.register_entry(actor=organiser, tournament=cup, player_a=hero, player_b=partner)
    services.register_entry(actor=organiser, tournament=cup, player_a=others[0], player_b=others[1])
    services.register_entry(actor=organiser, tournament=cup, player_a=others[2], player_b=others[3])
    services.register_entry(actor=organiser, tournament=cup, player_a=others[4], player_b=others[5])
    services.update_tournament(actor=organiser, tournament=cup, seeding="manual")
    rnd = services.pair_next_round(actor=organiser, tournament=cup)
    Round.objects.filter(pk=rnd.pk).update(created_at=now - datetime.timedelta(days=3, hours=2))
    match = rnd.matches.get(table=1)
    services.enter_result(actor=organiser, match=match, home_eyes=12, away_eyes=5)
    running = ArchivedMatch.objects.get(tournament_match=match.pk)
    assert not running.public and running.club_id == club.pk
    ratings.recompute()

    def played(m):
        mine = m.seats.get(player=hero).seat
        opponents = tuple(
            s.player.display_name for s in m.seats.select_related("player") if s.seat % 2 != mine % 2
        )
        return Played(m, opponents, list(RatingChange.objects.filter(match=m, game=BILKA_FOUR)))

    users = {
        "visitor": None,
        "stranger": UserFactory(username="stranger"),
        "player": igrok.user,
        "organiser": organiser,
        "himself": hero.user,
    }
    clients = {}
    for role, user in users.items():
        if user is None:
            clients[role] = Client(HTTP_ACCEPT_LANGUAGE="en")
            continue
        _token, key = club_services.create_token(actor=user, name="read", scope=TokenScope.READ, clubs=[])
        clients[role] = Client(
            HTTP_ACCEPT_LANGUAGE="en", HTTP_AUTHORIZATION=f"Bearer {key}"
        )  # the API's way in
        clients[role].force_login(user)  # the pages' way in
    return {
        "hero": hero,
        "club": club,
        "cup": cup,
        "match": match,
        "clients": clients,
        "played": {"public": played(public), "private": played(private), "running": played(running)},
    }


def _fillers(w) -> dict[str, list[dict]]:
    """The arguments each route is asked with (several: the same page about several objects)."""
    hero = {"pk": w["hero"].pk}
    archived = [{"pk": p.archived.pk} for p in w["played"].values()]
    event = {"slug": w["cup"].slug}
    return {
        "api:club_detail": [{"slug": w["club"].slug}],
        "api:player_detail": [hero],
        **{f"api:{n}": [event] for n in ("tournament_detail", "round_list", "standings", "entry_list")},
        "api:match_detail": [{"pk": w["match"].pk}],
        "api:archive_detail": archived,
        "api:archive_record": archived,
        **{f"archive:{n}": archived for n in ("match", "record", "sheet_csv", "sheet_json")},
        "archive:player": [hero],
        "archive:fairplay_player": [hero],
        "ratings:chart": [hero],
        "clubs:player_detail": [hero],
        "clubs:club_detail": [{"slug": w["club"].slug}],
        "ratings:club": [{"slug": w["club"].slug}],
        "ratings:city": [{"city": "Успенка"}],
        "tournaments:club_list": [{"club_slug": w["club"].slug}],
        **{
            f"tournaments:{n}": [event]
            for n in (
                "home",
                "entries",
                "results",
                "standings",
                "crosstable",
                "print_crosstable",
                "print_report",
                "bracket",
                "dashboard",
                "audit",
                "fairplay",
                "now_playing",
            )
        },
        **{f"tournaments:{n}": [{**event, "number": 1}] for n in ("round", "print_pairings", "print_sheets")},
        "tournaments:export": [
            {**event, "what": what, "fmt": fmt}
            for what in ("standings", "results", "seats")
            for fmt in ("csv", "json")
        ],
        "tournaments:match": [{**event, "pk": w["match"].pk}],
        "tournaments:match_record": [{**event, "pk": w["match"].pk}],
    }


def _urls(w) -> list[tuple[str, str]]:
    fillers = _fillers(w)
    out, missing = [], []
    for route in url_routes():
        if route.name in NOT_ASKED:
            continue
        if not re.search(r"<|\(\?P<", route.route):
            if route.name == "api:not_found":
                continue
            out.append((route.name, reverse(route.name)))
        elif route.name in fillers:
            out += [(route.name, reverse(route.name, kwargs=kw)) for kw in fillers[route.name]]
        else:
            missing.append(route.name)
    assert not missing, f"routes neither asked nor named in NOT_ASKED: {missing}"
    return out


def _dates(moment: datetime.datetime) -> set[str]:
    local = timezone.localtime(moment)
    with translation.override("en"):
        return {
            local.date().isoformat(),
            formats.date_format(local, "j E Y"),
            formats.date_format(local, "SHORT_DATE_FORMAT"),
            formats.date_format(local, "j N Y"),
        }


def _change_words(c: RatingChange) -> str:
    return f"{c.before:.0f} → {c.after:.0f}"


def test_every_route_shows_a_hidden_match_to_nobody_who_may_not_see_it(world, settings):
    settings.RATING_BOARD_MIN_MATCHES = 2  # the boards list him alone (the others played once)
    urls = _urls(world)
    assert len(urls) > 40  # the walk is the site's, not a handful of pages
    for role in ROLES:
        client = world["clients"][role]
        hidden = {k: p for k, p in world["played"].items() if k not in SEES[role]}
        for name, url in urls:
            response = client.get(url)
            body = (
                b"".join(response.streaming_content)
                if getattr(response, "streaming", False)
                else response.content
            ).decode("utf-8", errors="replace")
            assert response.status_code < 500, (role, url)
            if name.startswith(("archive:", "api:archive_")) and "pk" in (
                response.resolver_match.kwargs if response.resolver_match else {}
            ):
                shown = response.resolver_match.kwargs["pk"]
                if any(p.archived.pk == shown for p in hidden.values()):
                    assert response.status_code == 404, (role, url)  # the same answer as no such match
            if response.status_code != 200:
                continue  # a 404 or a redirect echoes only the address asked
            for kind, p in hidden.items():
                where = f"{role} sees the {kind} match on {url}"
                assert f"/archive/{p.archived.pk}/" not in body, where
                if name == "api:archive_list":
                    assert p.archived.pk not in {m["id"] for m in response.json()["results"]}, where
                for c in p.changes:
                    assert _change_words(c) not in body, where
                if name in ABOUT_HIM:
                    for opponent in p.opponents:
                        assert opponent not in body, f"{where}: its opponent {opponent}"
                    for date in _dates(p.archived.played_at):
                        assert date not in body, f"{where}: its date {date}"


def test_the_card_lists_and_counts_exactly_what_the_asker_may_see(world, settings):
    settings.RATING_BOARD_MIN_MATCHES = 2
    hero = world["hero"]
    for role in ROLES:
        client = world["clients"][role]
        seen = [p for k, p in world["played"].items() if k in SEES[role]]
        page = client.get(reverse("archive:player", args=[hero.pk])).content.decode()
        assert f"{len(seen)} rated match{'es' if len(seen) != 1 else ''} shown" in page, role
        assert page.count('class="rc-point"') == len(seen), role
        assert page.count('class="rc-change"') == len(seen), role
        for p in seen:  # each visible match: its link, an opponent, its change in the list
            assert f"/archive/{p.archived.pk}/" in page, role
            assert p.opponents[-1] in page, role
        chart = client.get(reverse("ratings:chart", args=[hero.pk])).content.decode()
        assert chart.count('class="rc-point"') == len(seen), role
        rows = client.get(reverse("api:rating_list")).json()["results"]
        mine = next(r for r in rows if r["player"]["id"] == hero.pk)
        assert mine["matches"] == len(seen), role
        last = max(p.archived.played_at for p in seen)
        assert datetime.datetime.fromisoformat(mine["last_played"]) == last, role
        board = client.get(reverse("ratings:board")).content.decode()
        row = re.search(rf'{hero.display_name}</a>.*?<td class="num">(\d+)</td>', board, re.S)
        assert row and int(row.group(1)) == len(seen), role


def test_the_match_page_of_a_running_round_says_what_happened_and_shows_no_change_to_others(world):
    url = world["match"].get_absolute_url()
    running = world["played"]["running"]
    for role in ROLES:
        page = world["clients"][role].get(url).content.decode()
        if "running" in SEES[role]:
            assert "What this match did to the ratings" in page, role
            assert all(_change_words(c) in page for c in running.changes), role
        else:
            assert "shown here once its round is over" in page, role
            assert not any(_change_words(c) in page for c in running.changes), role
        assert "once the result is confirmed" not in page, role  # it is confirmed: never say otherwise
