"""A whole Swiss event run through the API alone — created and filled with the organising key, every
round paired with it, every result reported by one pair's key and confirmed by the other's, one
corrected after the next round was paired, the event finishing by itself — ends with the same
standings as the same event run through the organiser's pages (the round and match forms) with the
same results."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from clubs.models import Role
from tests.clubs.factories import MembershipFactory
from tests.tournaments.conftest import player_with_account
from tournaments import services
from tournaments.models import Entry, Match, Tournament, TournamentStatus

from .conftest import bearer, key_for

pytestmark = pytest.mark.django_db

PAIRS = 6
ROUNDS = 3
NAMES = (
    "asel",
    "oleh",
    "ivan",
    "nurlan",
    "dana",
    "taras",
    "aigerim",
    "bohdan",
    "marat",
    "olena",
    "yerlan",
    "petro",
)
REASON = "Перепутали стороны при записи"


@pytest.fixture
def players(club):
    made = [player_with_account(club, name) for name in NAMES]
    for player in made:
        MembershipFactory(club=club, user=player.user, role=Role.MEMBER)
    return made


def _event(club, organiser, players, name: str) -> Tournament:
    """The same field in the same order: pair i is players 2i and 2i+1, seeded by hand as entered."""
    event = services.create_tournament(
        actor=organiser, club=club, name=name, starts_on=datetime.date(2026, 12, 12), format="swiss",
        swiss_rounds=ROUNDS,
    )  # fmt: skip
    for i in range(PAIRS):
        services.register_entry(
            actor=organiser, tournament=event, player_a=players[2 * i], player_b=players[2 * i + 1]
        )
    services.update_tournament(actor=organiser, tournament=event, seeding="manual")
    return event


def _strength(entry: Entry) -> int:
    """Pair 0 is the strongest: the result of a match depends on who plays, never on ids."""
    return NAMES.index(entry.player_a.user.username) // 2


def _score(match: Match, number: int) -> tuple[int, int]:
    """The stronger pair wins; the loser's eyes vary with the round and the pairs."""
    home, away = _strength(match.home), _strength(match.away)
    loser = (home + away + 2 * number) % 12
    return (12, loser) if home < away else (loser, 12)


def _playing(event: Tournament, number: int) -> list[Match]:
    return list(
        Match.objects.filter(tournament=event, round__number=number, bye=False)
        .select_related("home__player_a__user", "away__player_a__user")
        .order_by("table")
    )


def _corrected(event: Tournament) -> Match:
    """Round 1's match of the strongest pair, whose result is turned round after round 2 is paired."""
    return next(m for m in _playing(event, 1) if 0 in (_strength(m.home), _strength(m.away)))


def _shown(api, event: Tournament) -> list[dict]:
    """The API's standings, each line's entry by its players' ids (the two events' entries differ)."""
    answer = api.get(reverse("api:standings", kwargs={"slug": event.slug}))
    assert answer.status_code == 200
    lines = answer.json()["lines"]
    for line in lines:
        line["entry"] = [p["id"] for p in line["entry"]["players"]]
    return lines


def _made_through_the_api(api, club, organiser, players, name: str) -> Tournament:
    """The same event as ``_event``, created and filled by the organising key alone."""
    okey = key_for(organiser, "organise", [club])
    body = {"club": club.slug, "name": name, "starts_on": "2026-12-12", "format": "swiss",
            "swiss_rounds": ROUNDS, "seeding": "manual"}  # fmt: skip
    made = api.post(reverse("api:tournament_list"), body, format="json", **bearer(okey))
    assert made.status_code == 201, made.json()
    entries = [{"player_a": players[2 * i].pk, "player_b": players[2 * i + 1].pk} for i in range(PAIRS)]
    url = reverse("api:entries_bulk", kwargs={"slug": made.json()["slug"]})
    filled = api.post(url, {"entries": entries}, format="json", **bearer(okey))
    assert filled.status_code == 201, filled.json()
    return Tournament.objects.get(slug=made.json()["slug"])


def _run_through_the_api(api, club, organiser, event: Tournament) -> None:
    okey = key_for(organiser, "organise", [club])
    keys: dict[int, str] = {}  # each player's results key, made when he first plays
    for number in range(1, ROUNDS + 1):
        paired = api.post(
            reverse("api:round_pair_next", kwargs={"slug": event.slug}), format="json", **bearer(okey)
        )
        assert paired.status_code == 201, paired.json()
        assert paired.json()["number"] == number
        if number == 2:  # a correction once a later round stands on the old result: it needs a reason
            m = _corrected(event)
            home, away = _score(m, 1)
            body = {"home_eyes": away, "away_eyes": home, "reason": REASON}
            fixed = api.post(
                reverse("api:match_correct", kwargs={"pk": m.pk}), body, format="json", **bearer(okey)
            )
            assert fixed.status_code == 200, fixed.json()
        for m in _playing(event, number):
            reporter, answerer = m.home.player_a.user, m.away.player_a.user
            for user in (reporter, answerer):
                keys.setdefault(user.pk, key_for(user, "write", [club]))
            home, away = _score(m, number)
            url = reverse("api:match_result", kwargs={"pk": m.pk})
            reported = api.post(
                url, {"home_eyes": home, "away_eyes": away}, format="json", **bearer(keys[reporter.pk])
            )
            assert reported.status_code == 200 and reported.json()["status"] == "unconfirmed", reported.json()
            url = reverse("api:match_confirm", kwargs={"pk": m.pk})
            confirmed = api.post(url, format="json", **bearer(keys[answerer.pk]))
            assert confirmed.status_code == 200 and confirmed.json()["status"] == "confirmed", (
                confirmed.json()
            )


def _run_through_the_pages(client, organiser, event: Tournament) -> None:
    client.force_login(organiser)
    for number in range(1, ROUNDS + 1):
        paired = client.post(reverse("tournaments:pair_next", kwargs={"slug": event.slug}))
        assert paired.url == reverse("tournaments:round", kwargs={"slug": event.slug, "number": number})
        if number == 2:
            m = _corrected(event)
            home, away = _score(m, 1)
            form = {"action": "final", "final-home_eyes": away, "final-away_eyes": home, "reason": REASON}
            fixed = client.post(reverse("tournaments:match", kwargs={"slug": event.slug, "pk": m.pk}), form)
            assert fixed.status_code == 302
        for m in _playing(event, number):
            home, away = _score(m, number)
            form = {"action": "final", "final-home_eyes": home, "final-away_eyes": away}
            saved = client.post(reverse("tournaments:match", kwargs={"slug": event.slug, "pk": m.pk}), form)
            assert saved.status_code == 302


def test_an_event_run_through_the_api_ends_as_the_same_event_run_through_the_pages(
    api, client, club, organiser, players
):
    by_api = _made_through_the_api(api, club, organiser, players, "Швейцарка через API")
    by_pages = _event(club, organiser, players, "Швейцарка через страницы")
    _run_through_the_api(api, club, organiser, by_api)
    _run_through_the_pages(client, organiser, by_pages)

    for event in (by_api, by_pages):
        event.refresh_from_db()
        assert event.status == TournamentStatus.FINISHED
        assert _corrected(event).corrections.get().reason == REASON
    detail = api.get(reverse("api:tournament_detail", kwargs={"slug": by_api.slug})).json()
    assert detail["status"] == TournamentStatus.FINISHED
    # the same pairings, round by round, and so the same standings line by line
    for number in range(1, ROUNDS + 1):
        pairings = [
            [
                [(m.home.player_a_id, m.away.player_a_id), (m.home_eyes, m.away_eyes)]
                for m in _playing(e, number)
            ]
            for e in (by_api, by_pages)
        ]
        assert pairings[0] == pairings[1]
    shown = _shown(api, by_api)
    assert len(shown) == PAIRS and shown[0]["wins"] >= 2
    assert shown == _shown(api, by_pages)
