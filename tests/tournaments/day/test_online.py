"""Online rounds: tables opened at round start, players told where to sit, no bots, results flowing back."""

import logging

import pytest
from django.urls import reverse
from django.utils import timezone

from clubs.models import AuditEntry
from gameplay.models import Seat, Table, TableStatus
from tests.clubs.factories import PASSWORD
from tournaments import services
from tournaments.models import ActionKind, Match, MatchStatus, Notification, ScheduledAction
from tournaments.services import online, runner

from .helpers import play_out

pytestmark = pytest.mark.django_db


@pytest.fixture
def started(online8, organiser):
    rnd = services.pair_next_round(actor=organiser, tournament=online8)
    runner.run_due()
    return rnd


def test_round_start_opens_a_table_per_match_with_the_pairs_opposite(online8, started):
    matches = list(started.matches.order_by("table"))
    assert len(matches) == 4 and all(m.live_table for m in matches)
    for m in matches:
        table = Table.objects.get(pk=m.live_table)
        assert table.status == TableStatus.PLAYING
        assert table.rules == online8.rules
        seats = {s.seat: s for s in Seat.objects.filter(table=table)}
        assert not any(s.is_bot for s in seats.values())
        home = {m.home.player_a.user_id, m.home.player_b.user_id}
        away = {m.away.player_a.user_id, m.away.player_b.user_id}
        assert {seats[0].user_id, seats[2].user_id} == home
        assert {seats[1].user_id, seats[3].user_id} == away
    # a second tick opens nothing more
    runner.run_plan(f"{ActionKind.START_ROUND}:{online8.pk}:1")
    assert Table.objects.count() == 4


def test_players_are_told_where_to_sit(started):
    m = started.matches.get(table=2)
    note = Notification.objects.get(user=m.away.player_b.user, kind="tournament.table_ready")
    assert note.url == f"/tables/{m.live_table}/"
    assert Notification.objects.filter(kind="tournament.table_ready").count() == 16


def test_a_finished_table_becomes_the_confirmed_result_once(online8, started, organiser):
    m = started.matches.get(table=1)
    table = play_out(m.live_table, seed=7)

    assert online.record_table_result(table_id=table.pk) == "recorded"
    assert online.record_table_result(table_id=table.pk) == "already"
    m.refresh_from_db()
    assert m.live_refusal is None
    assert AuditEntry.objects.filter(action="match.live_result", object_id=str(m.pk)).count() == 1
    home_side = "NS"  # the home pair sits N/S
    assert m.status == MatchStatus.CONFIRMED and m.confirmed_how == "table"
    assert (m.home_eyes, m.away_eyes) == (table.result["score"]["NS"], table.result["score"]["EW"])
    assert m.winner_id == (m.home_id if table.result["winner"] == home_side else m.away_id)


def test_the_beat_records_a_table_whose_hook_was_lost(started):
    m = started.matches.get(table=3)
    play_out(m.live_table, seed=3)
    runner.run_due()
    m.refresh_from_db()
    assert m.status == MatchStatus.CONFIRMED


def test_a_player_who_never_comes_forfeits_his_pair(online8, started):
    m = started.matches.get(table=1)
    Seat.objects.filter(table_id=m.live_table).exclude(seat=3).update(connections=1)
    others = started.matches.exclude(pk=m.pk)
    for other in others:  # everyone else is there
        Seat.objects.filter(table_id=other.live_table).update(connections=1)
    ScheduledAction.objects.filter(kind=ActionKind.NO_SHOW).update(due_at=timezone.now())

    runner.run_due()

    m.refresh_from_db()
    assert m.status == MatchStatus.CONFIRMED and m.forfeit
    assert (m.home_eyes, m.away_eyes) == (12, 0) and m.winner_id == m.home_id  # W (away) was missing
    assert not Match.objects.filter(pk__in=[o.pk for o in others], status=MatchStatus.CONFIRMED).exists()


def test_both_pairs_missing_goes_to_the_organiser(online8, started, organiser):
    ScheduledAction.objects.filter(kind=ActionKind.NO_SHOW).update(due_at=timezone.now())
    runner.run_due()
    assert Notification.objects.filter(user=organiser, kind="tournament.both_absent").count() == 4
    assert not started.matches.filter(status=MatchStatus.CONFIRMED).exists()


def test_the_online_deadline_hands_unfinished_matches_to_the_organiser(online8, organiser):
    online8.day.round_minutes = 90
    online8.day.save()
    services.pair_next_round(actor=organiser, tournament=online8)
    runner.run_due()
    deadline = ScheduledAction.objects.get(kind=ActionKind.ROUND_DEADLINE)
    assert 89 * 60 < (deadline.due_at - deadline.created_at).total_seconds() <= 90 * 60 + 5
    ScheduledAction.objects.filter(pk=deadline.pk).update(due_at=timezone.now())
    runner.run_due()
    note = Notification.objects.get(user=organiser, kind="tournament.round_deadline")
    assert "4 match(es) unfinished" in note.text


def test_the_next_online_round_opens_its_tables_when_paired_by_the_plan(online8, started):
    for m in started.matches.order_by("table"):
        play_out(m.live_table, seed=m.table)
    runner.run_due()  # records the four results, completes round 1, pairs and starts round 2
    r2 = online8.rounds.get(number=2)
    assert r2.matches.filter(live_table__isnull=False).count() == 4
    assert Table.objects.filter(status=TableStatus.PLAYING).count() == 4


def test_no_bot_and_no_stranger_takes_a_tournament_seat(started, outsider):
    from gameplay import services as tables

    m = started.matches.get(table=1)
    player = m.home.player_a.user
    with pytest.raises(tables.TableError):
        tables.fill_with_bots(table_id=m.live_table, user=player)
    with pytest.raises(tables.TableError):
        tables.sit(table_id=m.live_table, user=outsider)
    assert not Seat.objects.filter(table_id=m.live_table, is_bot=True).exists()
    assert Seat.objects.filter(table_id=m.live_table).count() == 4


def test_the_tables_use_the_tournaments_rules_and_clock(club, organiser):
    from .conftest import swiss_with_accounts

    t = swiss_with_accounts(
        club, organiser, 4, play_mode="online", online=True, rules={"deck": "36", "move_seconds": 90}
    )
    services.pair_next_round(actor=organiser, tournament=t)
    runner.run_due()
    for m in t.matches.all():
        table = Table.objects.get(pk=m.live_table)
        assert table.rules["deck"] == "36" and table.rules["move_seconds"] == 90
        assert table.move_deadline is not None  # the clock of the first player to move runs


def _tamper(table_id: int) -> dict:
    """Change a finished table's stored result in the database, as a bug or a hand in the DB might:
    the loser becomes the winner with the same eyes swapped (a score that looks quite possible)."""
    table = Table.objects.get(pk=table_id)
    honest = table.result
    loser = "EW" if honest["winner"] == "NS" else "NS"
    score = {"NS": honest["score"]["EW"], "EW": honest["score"]["NS"]}
    Table.objects.filter(pk=table_id).update(result={**honest, "winner": loser, "score": score})
    return honest


def test_a_table_whose_stored_result_disagrees_with_its_record_is_not_taken(
    client, online8, started, organiser, caplog
):
    m = started.matches.get(table=1)
    table = play_out(m.live_table, seed=7)
    _tamper(table.pk)

    with caplog.at_level(logging.WARNING, logger="tournaments.services.online"):
        assert online.record_table_result(table_id=table.pk) == "refused: record_disagrees"

    m.refresh_from_db()
    assert m.status == MatchStatus.DISPUTED and not m.has_result and m.winner_id is None
    assert m.live_refusal["code"] == "record_disagrees" and m.live_refusal["table"] == table.pk
    assert f"live table {table.pk}: result not taken for match {m.pk}" in caplog.text
    assert not AuditEntry.objects.filter(action="match.live_result", object_id=str(m.pk)).exists()
    assert AuditEntry.objects.filter(action="match.live_result_refused", object_id=str(m.pk)).count() == 1
    note = Notification.objects.get(user=organiser, kind="tournament.live_result_refused")
    assert "replaying its record gives" in note.text and note.url.endswith(f"/t/{online8.slug}/day/")
    started.refresh_from_db()
    assert started.status == "playing"  # the round waits for the organiser

    # the organiser sees why on the dashboard and on the match page, in the page's language
    client.login(username="organiser", password=PASSWORD)
    dashboard = client.get(reverse("tournaments:dashboard", kwargs={"slug": online8.slug})).content.decode()
    why = f"The result of live table #{table.pk} was not taken automatically:"
    assert why in dashboard and f"Table {table.pk} stored the result" in dashboard
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "ru"
    page = client.get(m.get_absolute_url()).content.decode()
    assert f"Результат живого стола №{table.pk} не принят автоматически:" in page
    assert "но запись партии даёт" in page


def test_a_refused_table_result_run_again_changes_nothing(online8, started, organiser):
    m = started.matches.get(table=2)
    table = play_out(m.live_table, seed=5)
    _tamper(table.pk)
    assert online.record_table_result(table_id=table.pk).startswith("refused")
    m.refresh_from_db()
    before = (m.state(), m.live_refusal)

    assert online.record_table_result(table_id=table.pk) == "refused already"
    runner.run_due()  # the beat's sweep for lost hooks leaves it alone too

    m.refresh_from_db()
    assert (m.state(), m.live_refusal) == before
    assert AuditEntry.objects.filter(action="match.live_result_refused", object_id=str(m.pk)).count() == 1
    assert Notification.objects.filter(user=organiser, kind="tournament.live_result_refused").count() == 1


def test_the_organiser_settles_a_refused_live_result_on_the_match_page(client, online8, started, organiser):
    m = started.matches.get(table=3)
    table = play_out(m.live_table, seed=3)
    honest = _tamper(table.pk)
    online.record_table_result(table_id=table.pk)
    player = m.home.player_a.user
    client.force_login(player)  # a player cannot take over the organiser's decision
    assert 'name="final-home_eyes"' not in client.get(m.get_absolute_url()).content.decode()
    client.post(m.get_absolute_url(), {"action": "final", "final-home_eyes": 12, "final-away_eyes": 0})
    m.refresh_from_db()
    assert m.status == MatchStatus.DISPUTED and not m.has_result

    client.login(username="organiser", password=PASSWORD)
    assert 'name="final-home_eyes"' in client.get(m.get_absolute_url()).content.decode()
    home, away = honest["score"]["NS"], honest["score"]["EW"]  # the home pair sits N/S
    client.post(m.get_absolute_url(), {"action": "final", "final-home_eyes": home, "final-away_eyes": away})
    m.refresh_from_db()
    assert m.status == MatchStatus.CONFIRMED and (m.home_eyes, m.away_eyes) == (home, away)
