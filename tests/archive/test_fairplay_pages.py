"""The stored fair-play review and its pages: only the event club's organisers and the staff reach
them; a planted seat that plays the double-dummy best card everywhere gets a smaller p than an
honest one in the stored review; the task run twice leaves one review; a request while one is
queued queues nothing; a run that dies leaves the last finished figures; the page lists the
heaviest decisions with links to their replay positions. (One 30-deal match per player at 8
layouts a decision: a few seconds a run.)"""

from __future__ import annotations

import copy
import datetime
import functools
import json
from typing import Any
from unittest import mock

import pytest
import redis
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from archive import services as archive_services
from archive.models import FairPlayReview, FairPlayRow, SeatKind
from archive.services import fairplay as service
from archive.tasks import fairplay_review_task
from bench.fairplay.players import play_deals
from clubs.models import Player, Role
from gameplay.engine.cards import PAIRS
from gameplay.engine.record import read_record
from tests.clubs.factories import ClubFactory, MembershipFactory, UserFactory
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db


@functools.cache
def whole_match(kind: str, seed: int) -> dict[str, Any]:
    return play_deals(kind, 30, seed=seed)[0]


def archive_online(played: dict[str, Any], player: Player, *, cup, number: int) -> None:
    seats = [archive_services.SeatIn(seat=0, name=player.display_name, player_id=player.pk)]
    seats += [archive_services.SeatIn(seat=s, name="", kind=SeatKind.BOT, bot_level="beginner")
              for s in (1, 2, 3)]
    record = copy.deepcopy(played)
    state = read_record(record)
    assert state.winner is not None
    archive_services.archive_match(played=archive_services.PlayedMatch(
        source="tournament", seats=seats, rules={},
        played_at=datetime.datetime(2026, 12, 1, tzinfo=datetime.UTC),
        ns_eyes=min(state.score[0], 12), ew_eyes=min(state.score[1], 12), winner=PAIRS[state.winner],
        record=record, public=False, tournament=cup.pk, tournament_match=number, club_id=cup.club_id,
        event_name=cup.name, round_number=1))


@pytest.fixture
def client(client):
    """Pages in English, so assertions read the same whatever the site's language is."""
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


@pytest.fixture
def cup(club, organiser, settings):
    settings.FAIRPLAY_SAMPLES = 8
    cup = tournament_services.create_tournament(actor=organiser, club=club, name="Кубок Успенки",
                                                starts_on=datetime.date(2026, 11, 7), format="swiss",
                                                swiss_rounds=3)
    cheat = Player.objects.create(display_name="Сова")
    honest = Player.objects.create(display_name="Ёж", user=UserFactory(username="ezh"))
    archive_online(whole_match("all-seeing", 2), cheat, cup=cup, number=1)
    archive_online(whole_match("beginner", 2), honest, cup=cup, number=2)
    return cup


@pytest.fixture
def staff(db):
    return get_user_model().objects.create_superuser(username="staff", password="x-secret-1",
                                                     email="s@example.org")


def _reviewed(client, user, cup, django_capture_on_commit_callbacks) -> FairPlayReview:
    """The organiser asks for the review; the queued task is run here, as the worker would."""
    client.force_login(user)
    with django_capture_on_commit_callbacks(execute=False) as sent:
        assert client.post(reverse("tournaments:fairplay", args=[cup.slug])).status_code == 302
    assert len(sent) == 1
    review = FairPlayReview.objects.get()
    assert review.status == "queued"
    assert "reviewed 2 players" in service.run_review(review_id=review.pk, generation=review.generation)
    review.refresh_from_db()
    return review


def test_only_the_clubs_organisers_and_staff_reach_the_event_review(client, cup, staff):
    url = reverse("tournaments:fairplay", args=[cup.slug])
    response = client.get(url)
    assert response.status_code == 302 and "login" in response["Location"]
    assert client.post(url).status_code == 302 and not FairPlayReview.objects.exists()
    other_club = ClubFactory(name="Другой", slug="drugoi")
    refused = {
        "another club's organiser": MembershipFactory(club=other_club, user=UserFactory(username="org2"),
                                                      role=Role.ORGANISER).user,
        "a player of the event": get_user_model().objects.get(username="ezh"),
    }
    for who, user in refused.items():
        client.force_login(user)
        assert client.get(url).status_code == 403, who
        assert client.post(url).status_code == 403, who
        dashboard = client.get(reverse("tournaments:home", args=[cup.slug])).content.decode()
        assert url not in dashboard, who
    assert not FairPlayReview.objects.exists()
    client.force_login(staff)
    assert client.get(url).status_code == 200


def test_the_player_page_is_for_staff_only(client, cup, organiser, staff):
    cheat = Player.objects.get(display_name="Сова")
    url = reverse("archive:fairplay_player", args=[cheat.pk])
    assert "login" in client.get(url)["Location"]
    for user in (organiser, get_user_model().objects.get(username="ezh")):
        client.force_login(user)
        assert client.get(url).status_code == 404
        assert client.post(url).status_code == 404
        assert url not in client.get(reverse("archive:player", args=[cheat.pk])).content.decode()
    assert not FairPlayReview.objects.exists()
    client.force_login(staff)
    assert client.get(url).status_code == 200
    assert url in client.get(reverse("archive:player", args=[cheat.pk])).content.decode()


def test_the_planted_seat_gets_the_smaller_p_and_the_page_links_its_decisions(
        client, cup, organiser, staff, django_capture_on_commit_callbacks):
    review = _reviewed(client, organiser, cup, django_capture_on_commit_callbacks)
    assert review.status == "done" and review.matches == 2
    cheat, honest = FairPlayRow.objects.filter(review=review).order_by("rank")
    assert (cheat.name, honest.name) == ("Сова", "Ёж")
    assert cheat.p < honest.p and cheat.p < 0.01
    assert cheat.p_holm == pytest.approx(min(1.0, 2 * cheat.p)) and honest.p_holm >= cheat.p_holm
    assert cheat.heaviest and all(h["url"].startswith("/archive/") and "?deal=" in h["url"]
                                  for h in cheat.heaviest)
    page = client.get(reverse("tournaments:fairplay", args=[cup.slug])).content.decode()
    first = cheat.heaviest[0]["url"].replace("&", "&amp;")
    assert f'href="{first}"' in page
    # the card in the reader's words and the suit's sign, not its code (e.g. "Q♥", not "QH")
    code = cheat.heaviest[0]["card"]
    assert f"played {code[0].replace('T', '10')}{dict(C='♣', D='♦', H='♥', S='♠')[code[1]]}," in page
    assert f"played {code}," not in page
    assert "Holm" in page and "never a verdict" in page and "cheater" not in page.lower()
    assert page.index("Сова") < page.index("Ёж")
    # the staff's page of the player shows the same row under the event's review
    client.force_login(staff)
    player_page = client.get(reverse("archive:fairplay_player", args=[cheat.player_id])).content.decode()
    assert "Кубок Успенки" in player_page and f'href="{first}"' in player_page


def test_run_twice_gives_one_review_and_a_second_request_queues_nothing(
        client, cup, organiser, django_capture_on_commit_callbacks):
    review = _reviewed(client, organiser, cup, django_capture_on_commit_callbacks)
    before = list(FairPlayRow.objects.filter(review=review).values_list("name", "p", "heaviest"))
    assert service.run_review(review_id=review.pk, generation=review.generation) == "already done"
    assert FairPlayReview.objects.count() == 1
    assert list(FairPlayRow.objects.filter(review=review).values_list("name", "p", "heaviest")) == before
    # refresh: queued once, a second press while it waits queues nothing
    with django_capture_on_commit_callbacks(execute=False) as sent:
        client.post(reverse("tournaments:fairplay", args=[cup.slug]))
        client.post(reverse("tournaments:fairplay", args=[cup.slug]))
    assert len(sent) == 1
    review.refresh_from_db()
    assert review.status == "queued" and review.generation == 2
    assert service.run_review(review_id=review.pk, generation=1) == "superseded"
    # the run's worker dies after claiming it: the row says running, the last figures stay whole
    assert not isinstance(service._claim(review.pk, 2), str)
    assert list(FairPlayRow.objects.filter(review=review).values_list("name", "p", "heaviest")) == before
    page = client.get(reverse("tournaments:fairplay", args=[cup.slug])).content.decode()
    assert "Running since" in page and "Сова" in page
    # the redelivered message runs it again, to the same figures, one review still
    assert service.run_review(review_id=review.pk, generation=2).startswith("reviewed")
    assert list(FairPlayRow.objects.filter(review=review).values_list("name", "p", "heaviest")) == before
    assert FairPlayReview.objects.count() == 1


def test_a_failed_run_keeps_the_last_figures_and_can_be_asked_again(
        client, cup, organiser, django_capture_on_commit_callbacks):
    review = _reviewed(client, organiser, cup, django_capture_on_commit_callbacks)
    client.post(reverse("tournaments:fairplay", args=[cup.slug]))
    review.refresh_from_db()
    with mock.patch.object(service, "review_players", side_effect=RuntimeError("solver gone")), \
            pytest.raises(RuntimeError):
        service.run_review(review_id=review.pk, generation=review.generation)
    review.refresh_from_db()
    assert review.status == "failed" and "solver gone" in review.error
    assert FairPlayRow.objects.filter(review=review).count() == 2
    page = client.get(reverse("tournaments:fairplay", args=[cup.slug])).content.decode()
    assert "The last run failed" in page and "Сова" in page
    with django_capture_on_commit_callbacks(execute=False) as sent:
        client.post(reverse("tournaments:fairplay", args=[cup.slug]))
    assert len(sent) == 1


def test_a_silent_run_may_be_asked_again(cup, organiser, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as sent:
        review, queued = service.request_review(user=organiser, allowed=True, tournament=cup.pk)
        assert queued
        assert not service.request_review(user=organiser, allowed=True, tournament=cup.pk)[1]
        FairPlayReview.objects.filter(pk=review.pk).update(
            asked_at=timezone.now() - service.STALE_AFTER - datetime.timedelta(minutes=1))
        assert service.request_review(user=organiser, allowed=True, tournament=cup.pk)[1]
    assert len(sent) == 2


def test_the_dashboard_links_the_review_only_for_an_event_with_online_matches(client, cup, club, organiser):
    client.force_login(organiser)
    url = reverse("tournaments:fairplay", args=[cup.slug])
    assert url in client.get(reverse("tournaments:dashboard", args=[cup.slug])).content.decode()
    plain = tournament_services.create_tournament(actor=organiser, club=club, name="Без сети",
                                                  starts_on=datetime.date(2026, 11, 8), format="swiss",
                                                  swiss_rounds=3)
    other = reverse("tournaments:fairplay", args=[plain.slug])
    assert other not in client.get(reverse("tournaments:dashboard", args=[plain.slug])).content.decode()
    assert "nothing to review" in client.get(other).content.decode()
    refused = client.post(other, follow=True)
    assert "nothing to review" in refused.content.decode() and not FairPlayReview.objects.exists()


def test_holm_corrects_for_the_players_reviewed_together():
    assert service.holm([0.01, 0.04, 0.03, 0.5]) == pytest.approx([0.04, 0.09, 0.09, 0.5])
    assert service.holm([0.6, 0.9]) == [1.0, 1.0]
    assert service.holm([]) == []


def test_one_message_on_the_analysis_queue_and_its_task_run_twice_gives_one_review(
        cup, organiser, settings, django_capture_on_commit_callbacks):
    broker = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    broker.delete(settings.ANALYSIS_QUEUE)
    with django_capture_on_commit_callbacks(execute=True):
        review, _queued = service.request_review(user=organiser, allowed=True, tournament=cup.pk)
    with django_capture_on_commit_callbacks(execute=True):
        service.request_review(user=organiser, allowed=True, tournament=cup.pk)  # while it waits
    queued = [json.loads(m) for m in broker.lrange(settings.ANALYSIS_QUEUE, 0, -1)]
    broker.delete(settings.ANALYSIS_QUEUE)
    assert [(m["headers"]["task"], m["headers"]["argsrepr"]) for m in queued] == [
        ("archive.fairplay_review", f"({review.pk}, 1)")]
    assert fairplay_review_task(review.pk, 1).startswith("reviewed 2 players")
    assert fairplay_review_task(review.pk, 1) == "already done"  # delivered twice
    assert FairPlayReview.objects.count() == 1 and FairPlayRow.objects.count() == 2


def test_the_partner_known_test_tells_shared_cards_from_seen_ones(
        client, cup, organiser, django_capture_on_commit_callbacks):
    """A seat that plays knowing only its partner's hand (a pair sharing cards) fits the real hands
    under the plain test and no better than chance once the partner's hand is in every layout; the
    all-seeing seat fits under both; the honest one under neither. The page shows both p."""
    fox = Player.objects.create(display_name="Лиса")
    for number, record in enumerate(play_deals("partner-seeing", 45, seed=3)[:2], start=3):
        archive_online(record, fox, cup=cup, number=number)
    client.force_login(organiser)
    with django_capture_on_commit_callbacks(execute=False):
        client.post(reverse("tournaments:fairplay", args=[cup.slug]))
    review = FairPlayReview.objects.get()
    assert "reviewed 3 players" in service.run_review(review_id=review.pk, generation=review.generation)
    rows = {row.name: row for row in FairPlayRow.objects.filter(review__pk=review.pk)}
    assert rows["Лиса"].p < 0.01 and rows["Лиса"].p_partner > 0.05
    assert rows["Сова"].p < 0.01 and rows["Сова"].p_partner < 0.01
    assert rows["Ёж"].p > 0.05 and rows["Ёж"].p_partner > 0.05
    page = client.get(reverse("tournaments:fairplay", args=[cup.slug])).content.decode()
    assert "partner&#x27;s hand known" in page or "partner's hand known" in page
    assert f"<td>{rows['Лиса'].p_partner:.2g}</td>" in page
