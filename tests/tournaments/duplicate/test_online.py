"""An online duplicate round: each live table dealt its match's boards from the event seed, played to its
last board through the table services, and its boards' card points written as the match's board results."""

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubs.models import AuditEntry
from gameplay import services as tables
from gameplay.engine import read_record
from gameplay.engine.boards import SCHEME, board_dealer, board_hands, set_seat_suits
from gameplay.engine.cards import card_from_str
from gameplay.models import Table, TableStatus
from gameplay.selectors import finished_record
from tests.tournaments.conftest import player_with_account
from tests.tournaments.day.helpers import play_out
from tournaments import services
from tournaments.formats import format_of
from tournaments.formats.duplicate import event_seed, set_boards
from tournaments.models import BoardResult, Match, MatchStatus
from tournaments.selectors.boards import seed_check
from tournaments.services import online

pytestmark = pytest.mark.django_db


def _event(club, organiser, pairs=4, boards=2):
    event = services.create_tournament(
        actor=organiser, club=club, name="Дубль онлайн", starts_on=datetime.date(2026, 12, 6),
        format="duplicate", movement="howell", boards_per_round=boards, board_scale="points",
        play_mode="online",
    )  # fmt: skip
    for i in range(pairs):
        a = player_with_account(club, f"dup-{i}a")
        b = player_with_account(club, f"dup-{i}b")
        services.register_entry(actor=organiser, tournament=event, player_a=a, player_b=b)
    return event


@pytest.fixture
def online_round(club, organiser):
    event = _event(club, organiser)
    rnd = services.pair_next_round(actor=organiser, tournament=event)
    online.open_tables(round_id=rnd.pk)
    event.refresh_from_db()
    return event, rnd


def _hands(record_deal):
    return tuple(sum(1 << card_from_str(c) for c in record_deal["hands"][s]) for s in "NESW")


def test_each_table_is_dealt_its_boards_from_the_event_seed(online_round):
    event, rnd = online_round
    seed = event_seed(event)
    matches = list(Match.objects.filter(round=rnd, bye=False).order_by("table"))
    assert len(matches) == 2 and all(m.live_table for m in matches)
    for m in matches:
        table = Table.objects.get(pk=m.live_table)
        assert table.status == TableStatus.PLAYING
        assert not table.public  # the other tables play the same boards: no one else watches
        boards = list(set_boards(event, m.slot))
        assert table.boards == {"event": event.slug, "scheme": SCHEME, "commitment": event.board_commitment,
                                "boards": boards}
        assert table.shuffle_seed == "" and "shuffle" not in table.record
        first = table.record["deals"][0]
        assert first["board"] == boards[0] and first["dealer"] == "NESW"[board_dealer(boards[0])]
        assert _hands(first) == board_hands(seed, boards[0])
        state = tables.load_state(table)
        assert state.suit_of_seat in (None, set_seat_suits(board_hands(seed, boards[0])))
        # the event's seed and the other boards' hands are never in what the table stores for viewers
        text = str(table.record)
        assert event.board_seed not in text and "board_hands" not in text


def test_the_table_is_played_to_its_last_board_and_its_results_confirm_the_match(online_round, organiser):
    event, rnd = online_round
    seed = event_seed(event)
    before = {line.entry.pk: line.row.match_points for line in format_of(event).standings().lines}
    for m in Match.objects.filter(round=rnd, bye=False).order_by("table"):
        table = play_out(m.live_table, seed=m.table)
        boards = list(set_boards(event, m.slot))
        assert table.result["reason"] == "boards" and table.result["winner"] is None
        record = table.record
        assert [d["board"] for d in record["deals"]] == boards  # no redeal, nothing past the set
        assert [_hands(d) for d in record["deals"]] == [board_hands(seed, b) for b in boards]
        assert record["duplicate"]["commitment"] == event.board_commitment
        state = read_record(record)
        assert state.suit_of_seat == set_seat_suits(board_hands(seed, boards[0]))

        assert online.record_table_result(table_id=table.pk) == "recorded"
        assert online.record_table_result(table_id=table.pk) == "already"  # safe to run twice
        m.refresh_from_db()
        assert m.status == MatchStatus.CONFIRMED and m.confirmed_how == "table"
        rows = list(BoardResult.objects.filter(match=m).order_by("board"))
        assert [r.board for r in rows] == boards
        assert [r.ns_points for r in rows] == [d.points[0] for d in state.deals]
        assert {r.entered_how for r in rows} == {"online"} and all(r.entered_by is None for r in rows)
        assert AuditEntry.objects.filter(action="boards.online", object_id=str(m.pk)).count() == 1
    rnd.refresh_from_db()
    assert rnd.status == "complete"
    after = {line.entry.pk: line.row.match_points for line in format_of(event).standings().lines}
    assert after != before and sum(after.values()) == pytest.approx(200)  # four pairs share 2 × 100 %
    assert all(line.row.played == 2 for line in format_of(event).standings().lines)


def test_a_table_ended_by_a_resignation_adjusts_the_boards_it_did_not_play(online_round):
    event, rnd = online_round
    m = Match.objects.filter(round=rnd, bye=False).order_by("table").first()
    tables.resign(table_id=m.live_table, seat=1)  # E resigns before a card: EW at fault
    assert online.record_table_result(table_id=m.live_table) == "recorded"
    rows = list(BoardResult.objects.filter(match=m).order_by("board"))
    assert [(r.ns_points, r.ns_adjusted, r.ew_adjusted) for r in rows] == [(None, "plus", "minus")] * 2


def test_a_table_whose_record_was_changed_is_refused_and_writes_nothing(online_round):
    event, rnd = online_round
    m = Match.objects.filter(round=rnd, bye=False).order_by("table").first()
    table = play_out(m.live_table, seed=5)
    record = dict(table.record)
    record["duplicate"] = {**record["duplicate"], "boards": [7, 8]}
    record["deals"] = [{**d, "board": b} for d, b in zip(record["deals"], [7, 8], strict=True)]
    Table.objects.filter(pk=table.pk).update(record=record)
    assert online.record_table_result(table_id=table.pk).startswith("refused: not_the_boards")
    assert online.record_table_result(table_id=table.pk) == "refused already"
    m.refresh_from_db()
    assert m.status == MatchStatus.DISPUTED and not BoardResult.objects.filter(match=m).exists()


def test_the_finished_record_replays_and_is_public_to_the_table_only(client, online_round):
    event, rnd = online_round
    m = Match.objects.filter(round=rnd, bye=False).order_by("table").first()
    table = play_out(m.live_table, seed=2)
    online.record_table_result(table_id=table.pk)
    assert finished_record(table)["duplicate"]["event"] == event.slug
    assert event.board_seed not in str(finished_record(table))
    player = m.home.player_a.user
    client.force_login(player)
    page = client.get(f"/tables/{table.pk}/replay/")
    assert page.status_code == 200
    client.logout()
    assert client.get(f"/tables/{table.pk}/replay/").status_code == 404  # the round is not over


def test_the_traveller_links_each_online_table_to_its_replay_at_the_board(client, online_round, organiser):
    event, rnd = online_round
    matches = list(Match.objects.filter(round=rnd, bye=False).order_by("table"))
    first = matches[0]
    table = play_out(first.live_table, seed=4)
    online.record_table_result(table_id=table.pk)
    board = list(set_boards(event, first.slot))[1]  # the set's second board: deal 2 of the record
    address = f"/t/{event.slug}/boards/{board}/replay/{first.pk}/"
    # the other table has not played the set: its replay is the organisers' only, as the traveller
    assert client.get(address).status_code == 404
    client.force_login(organiser)
    assert f'href="{address}?deal=2"' in client.get(f"/t/{event.slug}/boards/{board}/").content.decode()
    page = client.get(address + "?deal=2")
    assert page.status_code == 200 and page.context["replay_data"]["position"]["deal"] == 1
    client.logout()
    for m in matches[1:]:
        online.record_table_result(table_id=play_out(m.live_table, seed=9).pk)
    traveller = client.get(f"/t/{event.slug}/boards/{board}/").content.decode()
    assert f'href="{address}?deal=2"' in traveller
    assert client.get(address + "?deal=2").status_code == 200  # every table played the set: public
    other_set = f"/t/{event.slug}/boards/{board + 2}/replay/{first.pk}/"
    assert client.get(other_set).status_code == 404  # a board of another set
    assert client.post(address).status_code == 405


def test_once_finished_the_boards_page_deals_every_table_again_from_the_seed(client, club, organiser):
    event = _event(club, organiser)
    assert format_of(event).round_count(4) == 3
    for number in (1, 2, 3):
        rnd = services.pair_next_round(actor=organiser, tournament=event)
        if number == 1:
            assert client.get(f"/t/{event.slug}/boards/").context["seed_checks"] is None  # the seed is secret
        online.open_tables(round_id=rnd.pk)
        for m in Match.objects.filter(round=rnd, bye=False):
            assert online.record_table_result(table_id=play_out(m.live_table, seed=m.pk).pk) == "recorded"
        event.refresh_from_db()
    assert event.status == "finished"
    page = client.get(f"/t/{event.slug}/boards/")
    checks = page.context["seed_checks"]
    assert len(checks) == 6 and all(row.ok and len(row.boards) == 2 for row in checks)
    html = page.content.decode()
    assert 'id="seed-check"' in html and html.count("✓") == 12 and "✗" not in html
    with CaptureQueriesContext(connection) as queries:  # the tables in one query, not one per table
        assert len(seed_check(tournament=event)) == 6
    assert len(queries) == 2
    # a record whose hands were changed after the play is caught
    table = Table.objects.get(pk=checks[0].match.live_table)
    record = table.record
    hands = record["deals"][1]["hands"]
    hands["N"][0], hands["E"][0] = hands["E"][0], hands["N"][0]
    Table.objects.filter(pk=table.pk).update(record=record)
    client.force_login(organiser)  # past the visitors' cache
    html = client.get(f"/t/{event.slug}/boards/").content.decode()
    assert html.count("✗") == 1 and html.count("✓") == 11
