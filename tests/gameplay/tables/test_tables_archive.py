"""A casual table goes to the archive when its match ends: who sat, the result, the record."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse
from tables_helpers import answer_play, legal_strings

from archive import services as archive_services
from archive.models import ArchivedMatch, SeatKind
from clubs.models import Player
from gameplay import services
from gameplay.engine import Phase, read_record
from gameplay.models import BotLevel, Seating, Table, TableStatus
from gameplay.services import archiving

pytestmark = pytest.mark.django_db


def play_to_the_end(table_id: int, seed: int = 3) -> Table:
    rng = random.Random(seed)  # noqa: S311 - test players
    for _ in range(5000):
        table = Table.objects.get(pk=table_id)
        if table.status == TableStatus.FINISHED:
            return table
        state = services.load_state(table)
        if state.phase == Phase.REDEAL:
            answer_play(table_id)
            continue
        action = rng.choice(legal_strings(state))
        outcome = services.play(table_id=table_id, seat=state.to_move, action=action,
                                expected_event=table.event_seq)
        assert outcome.ok, outcome.message
    raise AssertionError("the match did not end")


def test_a_finished_casual_match_is_archived_with_its_record_and_seats(dealt_table4, people):
    Player.objects.create(display_name="Асель", user=people[0])
    table = play_to_the_end(dealt_table4.pk)
    match = ArchivedMatch.objects.get(table_id=table.pk)
    assert match.source == "table" and match.has_record and match.public
    assert match.record == table.record
    assert (match.ns_eyes, match.ew_eyes) == (table.result["score"]["NS"], table.result["score"]["EW"])
    assert match.winner == table.result["winner"] and match.reason == "eyes"
    assert match.played_at == table.finished_at
    seats = list(match.seats.order_by("seat"))
    assert [s.user_id for s in seats] == [p.pk for p in people[:4]]
    assert seats[0].player.display_name == "Асель"
    assert seats[1].player is None  # an account with no Player row: still a player
    assert {s.kind for s in seats} == {SeatKind.PLAYER}
    state = read_record(table.record)
    assert match.deal_count == len(state.deals) == match.deals.count()
    last = match.deals.order_by("number").last()
    assert (last.ns_score, last.ew_score) == state.capped_score


def test_a_resigned_match_with_a_guest_and_bots_keeps_them_marked(db):
    table = services.play_now(session_key="guest-session-1")
    table = Table.objects.get(pk=table.pk)
    answer_play(table.pk)
    guest = table.seats.get(is_bot=False)
    services.resign(table_id=table.pk, seat=guest.seat)
    match = ArchivedMatch.objects.get(table_id=table.pk)
    kinds = {s.seat: s.kind for s in match.seats.all()}
    assert kinds[guest.seat] == SeatKind.GUEST
    assert sorted(kinds.values()).count(SeatKind.BOT) == 3
    assert match.reason == "resign" and match.reason_seat == guest.seat
    assert match.winner == ("EW" if guest.seat % 2 == 0 else "NS")


def test_the_archive_keeps_each_bots_level_and_the_match_page_names_it(client, db):
    table = services.play_now(session_key="guest-session-2", bot_level=BotLevel.STRONG)
    answer_play(table.pk)
    guest = Table.objects.get(pk=table.pk).seats.get(is_bot=False)
    services.resign(table_id=table.pk, seat=guest.seat)
    match = ArchivedMatch.objects.get(table_id=table.pk)
    levels = {s.seat: s.bot_level for s in match.seats.all()}
    assert levels.pop(guest.seat) == ""
    assert set(levels.values()) == {BotLevel.STRONG}
    assert match.public is False  # a game against bots is its player's own
    ArchivedMatch.objects.filter(pk=match.pk).update(public=True)  # as if he had shared it
    page = client.get(match.get_absolute_url()).content.decode()
    assert f"({BotLevel.STRONG.label})" in page


def test_a_cancelled_match_and_a_tournament_table_are_not_archived_at_their_end(people):
    table = services.create_table(rules={}, seating=Seating.IN_ORDER, user=people[0])
    for user in people[1:4]:
        services.sit(table_id=table.pk, user=user)
    services.cancel(table_id=table.pk)
    pairing = services.create_table(rules={}, seating=Seating.IN_ORDER, sit=False, casual=False)
    for user in people[:4]:
        services.sit(table_id=pairing.pk, user=user)
    answer_play(pairing.pk)
    services.resign(table_id=pairing.pk, seat=0)
    assert not ArchivedMatch.objects.exists()


def test_a_private_table_is_archived_private(people):
    table = services.create_table(rules={}, seating=Seating.IN_ORDER, user=people[0], public=False)
    for user in people[1:4]:
        services.sit(table_id=table.pk, user=user)
    answer_play(table.pk)
    services.resign(table_id=table.pk, seat=1)
    assert ArchivedMatch.objects.get(table_id=table.pk).public is False


def test_the_archive_notice_waits_for_the_commit_and_names_the_match(
        people, django_capture_on_commit_callbacks, monkeypatch):
    """One "match changed" task per change, queued only once the transaction commits; the task
    sends the signal with the archived match's id."""
    from celery.canvas import Signature

    from archive.tasks import match_changed_task

    Player.objects.create(display_name="Асель", user=people[0])
    table = services.create_table(rules={}, seating=Seating.IN_ORDER, user=people[0])
    for user in people[1:4]:
        services.sit(table_id=table.pk, user=user)
    answer_play(table.pk)
    queued = []
    monkeypatch.setattr(Signature, "apply_async", lambda sig, *a, **k: queued.append((sig.task, sig.args)))
    with django_capture_on_commit_callbacks(execute=True):
        services.resign(table_id=table.pk, seat=1)
        assert not [q for q in queued if q[0] == "gameplay.match_changed"]  # nothing before the commit
    archived = ArchivedMatch.objects.get(table_id=table.pk)
    notices = [args for task, args in queued if task == "gameplay.match_changed"]
    assert notices == [(archived.pk, "created", [people[0].player.pk])]
    heard = []

    def listener(sender, match_id, change, players, **kwargs):
        heard.append((match_id, change, players))

    archive_services.match_changed.connect(listener)
    try:
        match_changed_task.run(*notices[0])  # what the worker does with it
    finally:
        archive_services.match_changed.disconnect(listener)
    assert heard == [notices[0]]


def test_a_finished_table_links_to_its_archived_match(client, people):
    table = services.create_table(rules={}, seating=Seating.IN_ORDER, user=people[0])
    for user in people[1:4]:
        services.sit(table_id=table.pk, user=user)
    answer_play(table.pk)
    services.resign(table_id=table.pk, seat=1)
    archived = ArchivedMatch.objects.get(table_id=table.pk)
    response = client.get(reverse("archive:table_match", kwargs={"pk": table.pk}))
    assert response.status_code == 302 and response["Location"] == archived.get_absolute_url()
    assert reverse("archive:table_match", kwargs={"pk": table.pk}) in client.get(
        table.get_absolute_url()).content.decode()


def test_a_tournament_tables_record_is_its_players_until_its_match_is_public(client, people):
    table = services.create_table(rules={}, seating=Seating.IN_ORDER, sit=False, casual=False)
    for user in people[:4]:
        services.sit(table_id=table.pk, user=user)
    answer_play(table.pk)
    services.resign(table_id=table.pk, seat=0)
    routes = [reverse(name, kwargs={"pk": table.pk})
              for name in ("gameplay:record_json", "gameplay:replay", "gameplay:verify_table")]
    client.force_login(people[4])  # a stranger: the table was watchable, its record is not yet
    assert [client.get(url).status_code for url in routes] == [404, 404, 404]
    assert client.get(table.get_absolute_url()).status_code == 200
    client.force_login(people[2])
    assert [client.get(url).status_code for url in routes] == [200, 200, 200]
    # its tournament archives it, private until the round is over, then public
    table = Table.objects.get(pk=table.pk)
    ns, ew, winner, reason, seat = archiving.table_result(table)
    played = archive_services.PlayedMatch(
        source="tournament", seats=archiving.seats_of_table(table), rules=table.rules,
        played_at=table.finished_at, ns_eyes=ns, ew_eyes=ew, winner=winner, reason=reason, reason_seat=seat,
        record=table.record, table_id=table.pk, tournament_match=1, public=False)
    archive_services.archive_match(played=played)
    client.force_login(people[4])
    assert [client.get(url).status_code for url in routes] == [404, 404, 404]
    archive_services.set_public(tournament_matches=[1], public=True)
    assert [client.get(url).status_code for url in routes] == [200, 200, 200]


def test_a_game_against_bots_is_private_until_its_player_shares_it(client, people):
    """Games against bots, many left unfinished, piled up in the public archive: each is its
    player's own, and he alone may show it to everyone (and hide it again)."""
    me = people[0]
    table = services.play_now(user=me)
    answer_play(table.pk)
    mine = Table.objects.get(pk=table.pk).seats.get(is_bot=False)
    services.resign(table_id=table.pk, seat=mine.seat)
    match = ArchivedMatch.objects.get(table_id=table.pk)
    assert match.public is False
    assert client.get(match.get_absolute_url()).status_code == 404  # a visitor
    share = reverse("archive:share", args=[match.pk])

    client.force_login(people[1])  # not his game: as if it were not there
    assert client.post(share, {"public": "1"}).status_code == 404
    client.force_login(me)
    page = client.get(match.get_absolute_url(), headers={"accept-language": "en"}).content.decode()
    assert 'id="archive-share"' in page and "Share it with everyone" in page
    assert client.post(share, {"public": "1"}).status_code == 302
    assert ArchivedMatch.objects.get(pk=match.pk).public is True
    client.logout()
    assert client.get(match.get_absolute_url()).status_code == 200
    client.force_login(me)
    client.post(share, {"public": "0"})
    assert ArchivedMatch.objects.get(pk=match.pk).public is False


def test_a_game_between_people_is_not_shared_by_a_player(client, dealt_table4, people):
    """A table of four people keeps the table's own choice; a player cannot change it afterwards."""
    play_to_the_end(dealt_table4.pk)
    match = ArchivedMatch.objects.get(table_id=dealt_table4.pk)
    assert match.public is True
    client.force_login(people[0])
    page = client.get(match.get_absolute_url()).content.decode()
    assert 'id="archive-share"' not in page
    response = client.post(reverse("archive:share", args=[match.pk]), {"public": "0"}, follow=True,
                           headers={"accept-language": "en"})
    assert "Only a casual game against bots is shared by its players." in response.content.decode()
    assert ArchivedMatch.objects.get(pk=match.pk).public is True
