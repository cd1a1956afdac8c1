"""The match page's preview is exactly what learning the match now applies: a result entered
without its deals moves each player by the preview's figure, to the hundredth. After the match the
page shows the stored change, says how it was learnt, and, once a recompute has redone it, when and
why; a visitor who may not see the match yet reads what actually happened to the ratings."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from archive import services as archive_services
from gameplay.engine import Rules, write_record
from gameplay.engine.cards import PAIRS
from gameplay.engine.selfplay import bot_match
from ratings.models import RatingChange
from ratings.selectors.match import match_ratings
from ratings.services import recompute as ratings
from tests.tournaments.conftest import player_with_account, register_pairs
from tournaments import services

pytestmark = pytest.mark.django_db


def _history(players, deliver):
    """Some rated matches of these players in the last weeks, so no one is a newcomer."""
    start = timezone.now() - datetime.timedelta(days=20)
    for i in range(6):
        four = [players[(i + k) % len(players)] for k in (0, 1, 2, 3)]
        state = bot_match(Rules(), seed=700 + i)
        ns, ew = state.capped_score
        seats = [archive_services.SeatIn(seat=s, name=p.display_name, player_id=p.pk)
                 for s, p in enumerate(four)]
        m = archive_services.archive_match(played=archive_services.PlayedMatch(
            source="tournament", seats=seats, rules={}, played_at=start + datetime.timedelta(days=2 * i),
            ns_eyes=ns, ew_eyes=ew, winner=PAIRS[state.winner], reason="eyes", record=write_record(state),
            tournament=88_888, tournament_match=60_000 + i, event_name="Autumn League", rated=True))
        deliver(ratings.match_changed, sender=None, match_id=m.pk, change="created", players=[])


@pytest.fixture
def paired(club, organiser, deliver):
    t = services.create_tournament(actor=organiser, club=club, name="Spring Swiss", format="swiss",
                                   swiss_rounds=3, starts_on=datetime.date(2026, 12, 5))
    entries = register_pairs(t, organiser, 4)
    _history([p for e in entries for p in (e.player_a, e.player_b)], deliver)
    rnd = services.pair_next_round(actor=organiser, tournament=t)
    return t, rnd


@pytest.mark.parametrize("home_wins", [True, False])
@pytest.mark.parametrize("lost_eyes", [11, 0])
def test_the_preview_is_what_learning_the_result_applies(paired, organiser, deliver, client, home_wins,
                                                         lost_eyes):
    t, rnd = paired
    m = rnd.matches.select_related("home", "away", "tournament").order_by("table").first()
    preview = match_ratings(m, AnonymousUser()).prediction
    assert preview is not None
    page = client.get(m.get_absolute_url()).content.decode()
    for seen in (*preview.home, *preview.away):
        assert f"+{seen.win:.0f}…{seen.win_big:.0f}" in page
    deliver(services.enter_result, actor=organiser, match=m, home_eyes=12 if home_wins else lost_eyes,
            away_eyes=lost_eyes if home_wins else 12)
    changes = {c.player_id: c.change for c in RatingChange.objects.filter(match__tournament_match=m.pk)}
    assert len(changes) == 4
    winners, losers = (preview.home, preview.away) if home_wins else (preview.away, preview.home)
    close = lost_eyes == 11  # the preview's two ends: a win 12:11 and 12:0 (a loss 11:12 and 0:12)
    for seen in winners:
        assert changes[seen.player_id] == pytest.approx(seen.win if close else seen.win_big, abs=1e-9)
    for seen in losers:
        assert changes[seen.player_id] == pytest.approx(seen.loss if close else seen.loss_big, abs=1e-9)


def test_after_the_match_the_page_says_what_happened(paired, organiser, deliver, client):
    t, rnd = paired
    m = rnd.matches.order_by("table").first()
    deliver(services.enter_result, actor=organiser, match=m, home_eyes=12, away_eyes=9)
    # the round still runs: a visitor sees no changes, but is not told they are still to come
    page = client.get(m.get_absolute_url()).content.decode()
    assert "the ratings have changed from it" in page
    assert "change once it is confirmed" not in page and "What this match did" not in page
    client.force_login(organiser)
    page = client.get(m.get_absolute_url()).content.decode()
    assert "What this match did to the ratings" in page
    assert "Learnt from the final score, as the preview before the match reckoned." in page
    assert "Recomputed on" not in page
    # the organiser corrects it: the page shows the stored figures and says they were recomputed
    deliver(services.correct_result, actor=organiser, match=m, home_eyes=9, away_eyes=12,
            reason="Read the wrong way round")
    page = client.get(m.get_absolute_url()).content.decode()
    assert "after a corrected result in Spring Swiss, round 1: these are the figures the whole" in page
    stored = RatingChange.objects.filter(match__tournament_match=m.pk)
    for c in stored:
        assert f"{c.before:.0f} → {c.after:.0f}" in page


def test_a_reported_or_disputed_result_says_the_ratings_have_not_changed(club, organiser, deliver, client):
    t = services.create_tournament(actor=organiser, club=club, name="Spring Swiss", format="swiss",
                                   swiss_rounds=3, starts_on=datetime.date(2026, 12, 5))
    me, partner = player_with_account(club, "asel"), player_with_account(club, "bota")
    mine = services.register_entry(actor=organiser, tournament=t, player_a=me, player_b=partner)
    register_pairs(t, organiser, 1)
    m = services.pair_next_round(actor=organiser, tournament=t).matches.get()
    deliver(services.enter_result, actor=me.user, match=m, home_eyes=12, away_eyes=7)
    page = client.get(m.get_absolute_url()).content.decode()
    assert "The result waits for confirmation; the ratings change once it is confirmed." in page
    m.refresh_from_db()
    other = "away" if m.home_id == mine.pk else "home"
    deliver(services.dispute_result, actor=None, match=m, pin=m.pin_of(other), note="12:5, not 12:7")
    page = client.get(m.get_absolute_url()).content.decode()
    assert "The result is disputed; the ratings change only once the organiser settles it." in page
    assert "waits for confirmation" not in page and not RatingChange.objects.exists()
