"""Each player's place in a round is told once, in his language: at the pairing, and again when it changes."""

import threading

import pytest
from django.db import connection, transaction

from clubs.models import Player
from tournaments import services, tasks
from tournaments.models import Match, Notification, Tournament
from tournaments.services.pairing_notices import CHANGED_KIND, PAIRED_KIND, tell_round_places

from .day.conftest import swiss_with_accounts

pytestmark = pytest.mark.django_db


@pytest.fixture
def swiss(club, organiser):
    return swiss_with_accounts(club, organiser, 8, auto_pair=False)


@pytest.fixture
def swiss7(club, organiser):
    return swiss_with_accounts(club, organiser, 7, name="Нечётная швейцарка", auto_pair=False)


def _users(match: Match) -> list:
    return [p.user for e in (match.home, match.away) if e for p in (e.player_a, e.player_b)]


def _pair(t, organiser):
    """Pair the next round and run the task its commit would queue."""
    rnd = services.pair_next_round(actor=organiser, tournament=t)
    tasks.notify_round_paired(rnd.pk)
    return rnd


def test_pairing_tells_each_player_his_place_once(swiss, organiser):
    rnd = _pair(swiss, organiser)
    assert Notification.objects.filter(kind=PAIRED_KIND).count() == 16
    table = rnd.matches.get(table=3)
    home_user, away = table.home.player_a.user, table.away
    note = Notification.objects.get(user=home_user)
    expected = f"round 1: table 3, NS, against {away.player_a.display_name} & {away.player_b.display_name}."
    assert expected in note.text and note.url == table.get_absolute_url()
    assert note.title == swiss.name
    away_note = Notification.objects.get(user=away.player_b.user)
    assert "table 3, EW, against" in away_note.text


def test_a_retried_task_tells_nobody_again(swiss, organiser):
    rnd = _pair(swiss, organiser)
    assert tasks.notify_round_paired(rnd.pk) == 0
    assert tasks.notify_round_paired(rnd.pk) == 0
    assert Notification.objects.count() == 16


def test_a_swap_tells_only_the_eight_players_it_moved(swiss, organiser):
    rnd = _pair(swiss, organiser)
    one, two = rnd.matches.get(table=1), rnd.matches.get(table=2)
    touched = {u.pk for u in _users(one) + _users(two)}
    before = Notification.objects.count()

    services.swap_in_round(actor=organiser, round=rnd, first=one.home_id, second=two.away_id)

    changed = Notification.objects.filter(kind=CHANGED_KIND)
    assert Notification.objects.count() == before + 8
    assert {n.user_id for n in changed} == touched and changed.count() == 8
    moved = Match.objects.get(pk=one.pk).home.player_a.user  # came from table 2's EW to table 1's NS
    note = Notification.objects.get(user=moved, kind=CHANGED_KIND)
    assert "round 1 was changed: table 1, NS, against" in note.text
    assert tasks.notify_round_paired(rnd.pk) == 0, "the queued task after the swap tells nobody again"


def test_a_swap_undone_tells_the_players_their_old_place_again(swiss, organiser):
    rnd = _pair(swiss, organiser)
    one, two = rnd.matches.get(table=1), rnd.matches.get(table=2)
    a, d = one.home_id, two.away_id
    services.swap_in_round(actor=organiser, round=rnd, first=a, second=d)
    services.swap_in_round(actor=organiser, round=rnd, first=a, second=d)
    assert Notification.objects.filter(kind=CHANGED_KIND).count() == 16
    user = one.home.player_a.user
    texts = list(Notification.objects.filter(user=user).order_by("id").values_list("text", flat=True))
    assert len(texts) == 3 and texts[0].split(": ", 1)[1] == texts[2].split(": ", 1)[1]


def test_a_moved_bye_tells_both_pairs_and_their_new_opponents(swiss7, organiser):
    rnd = _pair(swiss7, organiser)
    bye = rnd.matches.get(bye=True)
    table1 = rnd.matches.get(table=1)
    had_bye, gets_bye = bye.home, table1.home
    opponents = table1.away

    services.swap_in_round(actor=organiser, round=rnd, first=had_bye.pk, second=gets_bye.pk)

    changed = Notification.objects.filter(kind=CHANGED_KIND)
    told = {n.user_id for n in changed}
    expected = {p.user_id for e in (had_bye, gets_bye, opponents) for p in (e.player_a, e.player_b)}
    assert told == expected and changed.count() == 6
    note = changed.get(user=gets_bye.player_a.user)
    assert "round 1 was changed: you now have a bye." in note.text
    note = changed.get(user=had_bye.player_b.user)
    assert "table 1, NS, against" in note.text


def test_a_renumbered_table_tells_its_players(swiss, organiser):
    rnd = _pair(swiss, organiser)
    one = rnd.matches.get(table=1)
    services.set_table_number(actor=organiser, match=one, table=9)
    changed = Notification.objects.filter(kind=CHANGED_KIND)
    assert {n.user_id for n in changed} == {u.pk for u in _users(one)}
    assert all("table 9, " in n.text for n in changed)


def test_unpair_and_pair_again_tells_the_new_places(swiss, organiser):
    rnd = _pair(swiss, organiser)
    services.unpair_round(actor=organiser, round=rnd)
    again = _pair(swiss, organiser)
    assert again.pk != rnd.pk
    assert Notification.objects.filter(kind=PAIRED_KIND).count() == 32
    assert Notification.objects.filter(key__startswith=f"pairing:{again.pk}:").count() == 16


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("ru", ("тур 1", "стол 3", "против")),
        ("uk", ("тур 1", "стіл 3", "проти")),
        ("kk", ("1-тур", "3-үстел", "қарсыластар")),
    ],
)
def test_each_player_reads_his_place_in_his_own_language(swiss, organiser, language, words):
    for player in Player.objects.filter(user__isnull=False).select_related("user"):
        player.user.language = language
        player.user.save(update_fields=["language"])
    rnd = _pair(swiss, organiser)
    table = rnd.matches.get(table=3)
    text = Notification.objects.get(user=table.home.player_a.user).text
    assert all(w in text for w in words), text
    assert " NS" not in text and "round" not in text


@pytest.mark.django_db(transaction=True)
def test_telling_the_places_does_not_wait_for_the_event_a_result_has_locked(swiss, organiser):
    """A result entered locks the match, then the event, then updates the round; the task telling
    the round's places locked the round and, through its join, the event as well: each waited for
    the other (a deadlock CI met, 2026-12-08). The task now locks the round's row alone."""
    rnd = services.pair_next_round(actor=organiser, tournament=swiss)
    held, release = threading.Event(), threading.Event()

    def organiser_entering_a_result() -> None:
        try:
            with transaction.atomic():
                Tournament.objects.select_for_update().get(pk=swiss.pk)  # as lock_tournament does
                held.set()
                release.wait(20)
        finally:
            connection.close()

    thread = threading.Thread(target=organiser_entering_a_result)
    thread.start()
    assert held.wait(20)
    try:
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL lock_timeout = '3s'")
            told = tell_round_places(round_id=rnd.pk)
    finally:
        release.set()
        thread.join()
    assert told == 16
