"""An individual duplicate event on the real database: players alone, a new partner every round, every
table of a round playing the same boards, each player scored by his sides' percentages."""

import datetime
from collections import defaultdict
from fractions import Fraction

import pytest

from gameplay.engine import read_record
from gameplay.models import Seat as TableSeat
from gameplay.models import Table
from tests.tournaments.day.helpers import play_out
from tournaments import services
from tournaments.formats import format_of
from tournaments.formats.duplicate import event_seed
from tournaments.models import BoardResult, Match, Seat, SeatName, TournamentStatus
from tournaments.selectors import standings
from tournaments.selectors.boards import board_list, live_percentages, traveller
from tournaments.services import online

from ..conftest import make_players, player_with_account

pytestmark = pytest.mark.django_db
E = services.BoardEntry


def individual_duplicate(club, organiser, players: int, *, rounds: int, boards: int = 2):
    event = services.create_tournament(
        actor=organiser, club=club, name=f"Личный дубль {players}", starts_on=datetime.date(2026, 12, 6),
        format="ind_duplicate", swiss_rounds=rounds, boards_per_round=boards,
    )  # fmt: skip
    for p in make_players(club, players):
        services.register_player(actor=organiser, tournament=event, player=p)
    return event


def points(match: Match, board: int) -> int:
    """A result that differs from table to table and board to board (so matchpoints are not all ties)."""
    return (match.table * 37 + board * 11 + match.round.number * 5) % 121


def play_event(event, organiser) -> list[Match]:
    fmt = format_of(event)
    played = []
    for _ in range(event.swiss_rounds):
        rnd = services.pair_next_round(actor=organiser, tournament=event)
        for m in Match.objects.filter(round=rnd, bye=False).select_related("round"):
            services.enter_board_results(actor=organiser, match=m,
                                         entries=[E(b, ns_points=points(m, b)) for b in fmt.boards_of(m)])
            played.append(m)
        event.refresh_from_db()
    return played


def by_hand(event) -> tuple[dict[int, Fraction], dict[int, int]]:
    """Each player's average percentage worked out here, without the core: on each board every
    table's NS result is compared with every other table's (2 for a result beaten, 1 for a tie, of
    a top of 2 (n-1)); EW get the rest; a player gets his side's."""
    seats = defaultdict(dict)
    for s in Seat.objects.filter(round__tournament=event, match__isnull=False):
        seats[s.match_id][s.seat] = s.entry_id
    rows = defaultdict(list)
    for r in BoardResult.objects.filter(match__tournament=event):
        rows[r.board].append(r)
    pcts = defaultdict(list)
    for board_rows in rows.values():
        n = len(board_rows)
        for r in board_rows:
            mp = sum(2 if o.ns_points < r.ns_points else 1 if o.ns_points == r.ns_points else 0
                     for o in board_rows if o is not r)
            ns = Fraction(100 * mp, 2 * (n - 1))
            at = seats[r.match_id]
            for seat in (SeatName.NORTH, SeatName.SOUTH):
                pcts[at[seat]].append(ns)
            for seat in (SeatName.EAST, SeatName.WEST):
                pcts[at[seat]].append(100 - ns)
    return {p: sum(v) / len(v) for p, v in pcts.items()}, {p: len(v) for p, v in pcts.items()}


def test_eight_players_play_every_round_on_the_same_boards_to_final_standings(club, organiser):
    event = individual_duplicate(club, organiser, 8, rounds=7)
    matches = play_event(event, organiser)
    assert event.status == TournamentStatus.FINISHED and len(matches) == 14
    boards_of_player = defaultdict(list)
    for m in matches:
        assert m.slot == m.round.number  # round r plays set r at every table
        assert list(format_of(event).boards_of(m)) == [2 * m.round.number - 1, 2 * m.round.number]
        for s in Seat.objects.filter(match=m):
            boards_of_player[s.entry_id] += list(format_of(event).boards_of(m))
    assert len(boards_of_player) == 8
    assert all(sorted(b) == list(range(1, 15)) for b in boards_of_player.values())  # each board once
    assert all(b.complete and b.to_play == 2 for b in board_list(tournament=event))
    table = standings(tournament=event)
    assert table.final and len(table.lines) == 8
    expected, boards = by_hand(event)
    for line in table.lines:
        assert line.row.match_points == round(float(expected[line.entry.pk]), 2)
        assert line.row.played == boards[line.entry.pk] == 14
    shown = [line.row.match_points for line in table.lines]
    assert shown == sorted(shown, reverse=True)
    assert sum(expected.values()) == 8 * 50  # every board shares its top between the sides
    first = traveller(tournament=event, number=1)
    assert first.complete and len(first.lines) == 2 and first.top == 2
    assert {line.ns_percent + line.ew_percent for line in first.lines} == {100}


def test_nine_players_one_sits_out_each_round_and_is_averaged_over_his_boards(client, club, organiser):
    event = individual_duplicate(club, organiser, 9, rounds=3, boards=3)
    play_event(event, organiser)
    byes = Seat.objects.filter(round__tournament=event, seat=SeatName.BYE)
    assert byes.count() == 3 and len({s.entry_id for s in byes}) == 3
    table = standings(tournament=event)
    expected, boards = by_hand(event)
    sat_out = {s.entry_id for s in byes}
    for line in table.lines:
        assert line.row.played == (6 if line.entry.pk in sat_out else 9) == boards[line.entry.pk]
        assert line.row.match_points == round(float(expected[line.entry.pk]), 2)
    page = client.get(f"/t/{event.slug}/standings/").content.decode()
    assert "Final standings" in page and table.lines[0].entry.name in page
    exported = client.get(f"/t/{event.slug}/export/standings.json").json()["standings"]
    assert [(row["player"], row["match_points"], row["played"]) for row in exported] == [
        (line.entry.name, line.row.match_points, line.row.played) for line in table.lines]


def test_the_standings_page_counts_a_board_only_once_every_table_has_played_it(client, club, organiser):
    event = individual_duplicate(club, organiser, 8, rounds=7)
    rnd = services.pair_next_round(actor=organiser, tournament=event)
    event.refresh_from_db()
    t1, t2 = Match.objects.filter(round=rnd).order_by("table")
    services.enter_board_results(actor=organiser, match=t1, entries=[E(1, ns_points=90), E(2, ns_points=10)])
    lines = standings(tournament=event).lines
    assert all(line.row.played == 0 for line in lines)  # table 2 is still to play both boards
    assert live_percentages(tournament=event) == []
    page = client.get(f"/t/{event.slug}/standings/").content.decode()
    assert "100.00" not in page and "0.00" not in page
    services.enter_board_results(actor=organiser, match=t2, entries=[E(1, ns_points=30)])
    north = Seat.objects.get(match=t1, seat=SeatName.NORTH).entry
    east = Seat.objects.get(match=t1, seat=SeatName.EAST).entry
    rows = {line.entry.pk: line.row for line in standings(tournament=event).lines}
    assert rows[north.pk].played == 1 and rows[north.pk].match_points == 100  # board 1 only
    assert rows[east.pk].match_points == 0
    organisers = client
    organisers.force_login(organiser)
    page = organisers.get(f"/t/{event.slug}/standings/").content.decode()
    assert "100.00" in page and "50.00" not in page  # board 2 (table 1's 10) is not counted yet
    hall = {line.entry.pk: line.percent for line in live_percentages(tournament=event)}
    assert hall[north.pk] == 100 and len(hall) == 8
    screen = client.get(f"/t/{event.slug}/hall/").content.decode().split('id="hall-standings"')[1]
    assert north.name in screen.split("</section>")[0] and "100.00%" in screen and "1 board" in screen
    services.enter_board_results(actor=organiser, match=t2, entries=[E(2, ns_points=10)])
    rows = {line.entry.pk: line.row for line in standings(tournament=event).lines}
    assert rows[north.pk].played == 2 and rows[north.pk].match_points == 75


def test_a_withdrawn_players_table_is_adjusted_his_partner_not_at_fault(club, organiser):
    event = individual_duplicate(club, organiser, 8, rounds=7)
    rnd = services.pair_next_round(actor=organiser, tournament=event)
    event.refresh_from_db()
    t1, t2 = Match.objects.filter(round=rnd).order_by("table")
    services.enter_board_results(actor=organiser, match=t2, entries=[E(1, ns_points=60), E(2, ns_points=60)])
    at = {s.seat: s.entry for s in Seat.objects.filter(match=t1).select_related("entry")}
    services.withdraw_player(actor=organiser, entry=at[SeatName.NORTH])
    assert sorted(BoardResult.objects.filter(match=t1).values_list("ns_adjusted", "ew_adjusted")) == [
        ("minus", "plus"), ("minus", "plus")]
    rows = {line.entry.pk: line.row for line in standings(tournament=event).lines}
    assert rows[at[SeatName.NORTH].pk].match_points == 40
    assert rows[at[SeatName.SOUTH].pk].match_points == 60  # his partner is not at fault
    assert rows[at[SeatName.EAST].pk].match_points == 60


def test_a_whole_small_event_played_online(club, organiser):
    """Eight players with accounts, online, two rounds: each live table is dealt its round's set from
    the event seed, private to its four players, played to its last board; its boards' card points
    become the table's results and the event finishes with every player's percentage."""
    event = services.create_tournament(
        actor=organiser, club=club, name="Личный дубль онлайн", starts_on=datetime.date(2026, 12, 6),
        format="ind_duplicate", swiss_rounds=2, boards_per_round=2, play_mode="online",
    )  # fmt: skip
    for i in range(8):
        player = player_with_account(club, f"ind-{i}")
        services.register_player(actor=organiser, tournament=event, player=player)
    for number in (1, 2):
        rnd = services.pair_next_round(actor=organiser, tournament=event)
        assert online.open_tables(round_id=rnd.pk) == 2
        event.refresh_from_db()
        for m in Match.objects.filter(round=rnd).order_by("table"):
            table = Table.objects.get(pk=m.live_table)
            assert not table.public and table.boards["boards"] == [2 * number - 1, 2 * number]
            seated = {s.user.player.pk for s in table.seats.select_related("user__player")}
            assert seated == {s.entry.player_id for s in Seat.objects.filter(match=m).select_related("entry")}
            assert event.board_seed not in str(table.record)
            table = play_out(m.live_table, seed=m.table + number)
            assert online.record_table_result(table_id=table.pk) == "recorded"
            m.refresh_from_db()
            rows = list(BoardResult.objects.filter(match=m).order_by("board"))
            assert [r.board for r in rows] == [2 * number - 1, 2 * number]
            assert [r.ns_points for r in rows] == [d.points[0] for d in read_record(table.record).deals]
    event.refresh_from_db()
    assert event.status == TournamentStatus.FINISHED and event_seed(event) is not None
    table = standings(tournament=event)
    expected, boards = by_hand(event)
    assert all(line.row.played == 4 == boards[line.entry.pk] for line in table.lines)
    assert {line.entry.pk: line.row.match_points for line in table.lines} == {
        p: round(float(v), 2) for p, v in expected.items()}


def test_the_boards_pages_of_an_individual_duplicate(client, club, organiser):
    """The boards' list, the hand records (one set a round, no pair cards) and a table's board entry
    with both sides' PINs, as the organiser and a table see them."""
    event = individual_duplicate(club, organiser, 8, rounds=3)
    rnd = services.pair_next_round(actor=organiser, tournament=event)
    t1 = Match.objects.filter(round=rnd).order_by("table").first()
    page = client.post(f"/t/{event.slug}/matches/{t1.pk}/boards/",
                       {"ns_1": "77", "home_pin": t1.home_pin, "away_pin": t1.away_pin})
    assert page.status_code == 302 and BoardResult.objects.get(match=t1).ns_points == 77
    client.force_login(organiser)
    boards = client.get(f"/t/{event.slug}/boards/").content.decode()
    assert all(f"/t/{event.slug}/boards/{b}/" in boards for b in range(1, 7))
    listed = [(b.number, b.to_play, b.played) for b in board_list(tournament=event)]
    assert listed[:2] == [(1, 2, 1), (2, 2, 0)] and len(listed) == 6
    records = client.get(f"/t/{event.slug}/boards/print/").content.decode()
    assert records.count('class="hand-record"') == 6 and 'id="record-7"' not in records
    entry = client.get(f"/t/{event.slug}/matches/{t1.pk}/boards/").content.decode()
    assert 'name="ns_2"' in entry and 'name="ns_3"' not in entry


def test_an_online_no_show_adjusts_the_tables_boards_his_partner_not_at_fault(club, organiser):
    event = services.create_tournament(
        actor=organiser, club=club, name="Личный дубль онлайн", starts_on=datetime.date(2026, 12, 6),
        format="ind_duplicate", swiss_rounds=3, boards_per_round=2, play_mode="online",
    )  # fmt: skip
    for i in range(8):
        player = player_with_account(club, f"ns-{i}")
        services.register_player(actor=organiser, tournament=event, player=player)
    rnd = services.pair_next_round(actor=organiser, tournament=event)
    online.open_tables(round_id=rnd.pk)
    t1 = Match.objects.get(round=rnd, table=1)
    at = {s.seat: s.entry for s in Seat.objects.filter(match=t1).select_related("entry__player")}
    TableSeat.objects.exclude(user_id=at[SeatName.EAST].player.user_id).update(connections=1)
    assert online.no_shows(round_id=rnd.pk) == "forfeits 1"
    t1.refresh_from_db()
    assert t1.status == "confirmed"
    assert list(BoardResult.objects.filter(match=t1).values_list("ns_adjusted", "ew_adjusted")) == [
        ("plus", "minus")] * 2
    assert {s.seat for s in Seat.objects.filter(match=t1, absent=True)} == {SeatName.EAST}
    scores, _boards = format_of(event).running_scores(finished_only=False)
    assert [scores[at[s].pk] for s in "NSEW"] == [60, 60, 40, 60]  # West, his partner, is not at fault
