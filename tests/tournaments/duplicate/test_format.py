"""A duplicate event's rounds drawn from its movement, its board seed committed and revealed."""

import hashlib
from collections import defaultdict

import pytest
from django.core.exceptions import ValidationError

from tournaments import services
from tournaments.formats import format_of
from tournaments.models import Match, TournamentStatus
from tournaments.selectors.boards import finished_boards

from .conftest import duplicate_event


def _play_all(event, organiser) -> list[Match]:
    """Pair every round; enter 60 for NS on every board of every table (adjusted where odd)."""
    fmt = format_of(event)
    matches = []
    for _ in range(fmt.round_count(fmt.field_size())):
        rnd = services.pair_next_round(actor=organiser, tournament=event)
        for m in Match.objects.filter(round=rnd, bye=False):
            entries = [services.BoardEntry(b, ns_points=60) for b in fmt.boards_of(m)]
            services.enter_board_results(actor=organiser, match=m, entries=entries)
            matches.append(m)
        event.refresh_from_db()
    return matches


@pytest.mark.parametrize("pairs", [6, 8, 9])
@pytest.mark.parametrize("movement", ["mitchell", "howell"])
def test_every_round_drawn_and_no_pair_plays_a_board_twice(club, organiser, pairs, movement):
    event = duplicate_event(club, organiser, pairs, movement=movement, boards=3)
    matches = _play_all(event, organiser)
    fmt = format_of(event)
    boards_of_pair: dict[int, list[int]] = defaultdict(list)
    plays_of_board: dict[int, int] = defaultdict(int)
    for m in matches:
        assert m.table >= 1 and m.away_id is not None
        for b in fmt.boards_of(m):
            boards_of_pair[m.home_id].append(b)
            boards_of_pair[m.away_id].append(b)
            plays_of_board[b] += 1
    assert len(boards_of_pair) == pairs
    for boards in boards_of_pair.values():
        assert len(boards) == len(set(boards)), "a pair played a board twice"
    assert len(set(plays_of_board.values())) == 1, "every board is played the same number of times"
    byes = Match.objects.filter(tournament=event, bye=True)
    assert byes.count() == (fmt.round_count(pairs) if pairs % 2 else 0)
    event.refresh_from_db()
    assert event.status == TournamentStatus.FINISHED


def test_mitchell_ns_pairs_stay_at_their_tables(club, organiser):
    event = duplicate_event(club, organiser, 6, movement="mitchell")
    seats = defaultdict(set)
    for _ in range(3):
        rnd = services.pair_next_round(actor=organiser, tournament=event)
        for m in Match.objects.filter(round=rnd):
            seats[m.home_id].add(m.table)
            services.enter_board_results(
                actor=organiser, match=m, entries=[services.BoardEntry(b, ns_points=70) for b in
                                                   format_of(event).boards_of(m)])
    assert len(seats) == 3 and all(len(t) == 1 for t in seats.values())


def test_seed_committed_at_round_one_and_revealed_only_when_finished(client, club, organiser):
    event = duplicate_event(club, organiser, 4)
    assert event.board_seed == "" and event.board_commitment == ""
    page = client.get(event.get_absolute_url()).content.decode()
    assert "SHA-256" not in page
    services.pair_next_round(actor=organiser, tournament=event)
    event.refresh_from_db()
    seed = bytes.fromhex(event.board_seed)
    assert len(seed) == 32 and event.board_commitment == hashlib.sha256(seed).hexdigest()
    page = client.get(event.get_absolute_url()).content.decode()
    assert event.board_commitment in page and event.board_seed not in page
    for m in Match.objects.filter(tournament=event, bye=False):
        services.enter_board_results(actor=organiser, match=m, entries=[
            services.BoardEntry(b, ns_points=61) for b in format_of(event).boards_of(m)])
    for _ in range(2):
        rnd = services.pair_next_round(actor=organiser, tournament=event)
        for m in Match.objects.filter(round=rnd, bye=False):
            services.enter_board_results(actor=organiser, match=m, entries=[
                services.BoardEntry(b, ns_points=61) for b in format_of(event).boards_of(m)])
    event.refresh_from_db()
    assert event.status == TournamentStatus.FINISHED
    page = client.get(event.get_absolute_url()).content.decode()
    assert event.board_seed in page and event.board_commitment in page


def test_fewer_than_four_pairs_cannot_start(club, organiser):
    event = duplicate_event(club, organiser, 3)
    with pytest.raises(ValidationError, match="at least four pairs"):
        services.pair_next_round(actor=organiser, tournament=event)


@pytest.mark.parametrize("bad", [{"boards_per_round": 1}, {"boards_per_round": 9}, {"movement": "x"},
                                 {"board_scale": "x"}, {"duplicate_rounds": 0}, {"duplicate_rounds": 31}])
def test_bad_settings_refused(club, organiser, bad):
    with pytest.raises(ValidationError):
        services.create_tournament(actor=organiser, club=club, name="Дубль", format="duplicate", **bad)


@pytest.mark.parametrize("movement", ["mitchell", "howell"])
def test_an_evening_of_fewer_rounds_than_the_movement(club, organiser, movement):
    """Eight pairs would play 7 rounds (Howell-like) or 4 (Mitchell); the organiser stops after 3.
    The event ends after round 3, no pair plays a board twice, and every board played is complete
    (its traveller shown) with as many tables as the shorter movement gives it."""
    event = duplicate_event(club, organiser, 8, movement=movement, boards=2)
    services.update_tournament(actor=organiser, tournament=event, duplicate_rounds=3)
    event.refresh_from_db()
    fmt = format_of(event)
    assert fmt.round_count(8) == 3
    matches = _play_all(event, organiser)
    event.refresh_from_db()
    assert event.status == TournamentStatus.FINISHED and event.rounds.count() == 3
    boards_of_pair: dict[int, list[int]] = defaultdict(list)
    played = set()
    for m in matches:
        for b in fmt.boards_of(m):
            boards_of_pair[m.home_id].append(b)
            boards_of_pair[m.away_id].append(b)
            played.add(b)
    assert all(len(b) == len(set(b)) == 6 for b in boards_of_pair.values())
    assert finished_boards(tournament=event) == played


def test_an_event_cannot_be_cut_below_the_rounds_already_paired(club, organiser):
    event = duplicate_event(club, organiser, 8, movement="howell", boards=2)
    fmt = format_of(event)
    for number in (1, 2):
        rnd = services.pair_next_round(actor=organiser, tournament=event)
        if number == 1:
            for m in Match.objects.filter(round=rnd, bye=False):
                services.enter_board_results(actor=organiser, match=m, entries=[
                    services.BoardEntry(b, ns_points=60) for b in fmt.boards_of(m)])  # fmt: skip
    event.refresh_from_db()
    with pytest.raises(ValidationError, match="cannot be shorter"):
        services.update_tournament(actor=organiser, tournament=event, duplicate_rounds=1)
    services.update_tournament(actor=organiser, tournament=event, duplicate_rounds=2)
    event.refresh_from_db()
    assert event.duplicate_rounds == 2 and format_of(event).round_count(8) == 2
