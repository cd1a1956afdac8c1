"""A duplicate event's online tables in the archive: each table's board set kept card by card, with no
winner and never rated, private until the event is finished (the other tables play the same boards),
and read by the fair-play review like any online match."""

import pytest

from archive.fairplay_selectors import reviewable_matches
from archive.models import ArchivedMatch
from archive.selectors import check_record
from gameplay import services as tables
from gameplay.engine import fairplay
from tests.tournaments.day.helpers import play_out
from tests.tournaments.duplicate.test_online import _event
from tournaments import services
from tournaments.formats.duplicate import set_boards
from tournaments.models import Match
from tournaments.services import online

pytestmark = pytest.mark.django_db


def _play_round(event, organiser):
    rnd = services.pair_next_round(actor=organiser, tournament=event)
    online.open_tables(round_id=rnd.pk)
    for m in Match.objects.filter(round=rnd, bye=False).order_by("table"):
        assert online.record_table_result(table_id=play_out(m.live_table, seed=m.pk).pk) == "recorded"
    return rnd


def test_each_online_table_is_archived_unrated_and_private_until_the_event_ends(club, organiser, client):
    event = _event(club, organiser)
    rnd = _play_round(event, organiser)
    matches = list(Match.objects.filter(round=rnd, bye=False).order_by("table"))
    archived = {a.tournament_match: a for a in ArchivedMatch.objects.filter(tournament=event.pk)}
    assert set(archived) == {m.pk for m in matches}
    for m in matches:
        a = archived[m.pk]
        assert a.table_id == m.live_table and a.has_record and a.record["duplicate"]["event"] == event.slug
        assert (a.reason, a.winner, a.rated) == ("boards", "", False)
        assert a.deal_count == len(set_boards(event, m.slot))
        assert not a.public  # the round is over, but its boards are played at other tables later
        assert check_record(a) == ""  # the archive's own check: the record leads to what is stored
    # a visitor sees none of them; the organiser sees both, and the review can read them
    assert client.get(f"/archive/{archived[matches[0].pk].pk}/").status_code == 404
    assert reviewable_matches(organiser, tournament=event.pk).count() == 2
    first = archived[matches[0].pk]
    decisions = fairplay.review_record(first.record, seats="N", key=first.record_hash, samples=2)
    assert decisions and all(d.seat == "N" for d in decisions)
    client.force_login(organiser)
    seat = first.seats.exclude(player=None).first()
    html = client.get(f"/archive/players/{seat.player_id}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert f"Дубликат: сдач — {first.deal_count}, каждая засчитана в турнире" in html
    assert 'badge-muted">поражение' not in html  # no winner, so no "lost" badge either

    _play_round(event, organiser)
    _play_round(event, organiser)
    event.refresh_from_db()
    assert event.status == "finished"
    assert ArchivedMatch.objects.filter(tournament=event.pk).count() == 6
    assert not ArchivedMatch.objects.filter(tournament=event.pk, public=False).exists()
    assert not ArchivedMatch.objects.filter(tournament=event.pk, rated=True).exists()


def test_a_resigned_table_is_archived_with_its_end(club, organiser):
    event = _event(club, organiser)
    rnd = services.pair_next_round(actor=organiser, tournament=event)
    online.open_tables(round_id=rnd.pk)
    m = Match.objects.filter(round=rnd, bye=False).order_by("table").first()
    tables.resign(table_id=m.live_table, seat=1)  # E resigns before a card
    assert online.record_table_result(table_id=m.live_table) == "recorded"
    a = ArchivedMatch.objects.get(tournament_match=m.pk)
    assert (a.reason, a.winner, a.reason_seat, a.rated, a.public) == ("resign", "NS", 1, False, False)
    assert check_record(a) == ""
