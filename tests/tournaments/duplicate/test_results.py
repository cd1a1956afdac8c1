"""A table's board results: entered by the organiser or the table with both PINs, refused when forged
or wrong, and the standings by matchpoints they give."""

from fractions import Fraction

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from tournaments import services
from tournaments.core import duplicate as core
from tournaments.formats import format_of
from tournaments.formats.duplicate import event_results, table_results
from tournaments.models import BoardResult, MatchStatus
from tournaments.services.pins import WrongPin

from .conftest import tables

E = services.BoardEntry


def test_hand_worked_round_standings(four, organiser):
    """Howell, four pairs, two tables play boards 1-2. Board 1: NS 70 at table 1, 50 at table 2 — table 1's
    NS beat the other NS (100 %, its EW 0 %), table 2's EW beat the other EW (100 %). Board 2: 60 and 60,
    a tie (50 % each). So table 1 NS and table 2 EW have 75 %, the other two 25 %, sharing places."""
    t1, t2 = tables(four.rounds.get())
    services.enter_board_results(actor=organiser, match=t1, entries=[E(1, ns_points=70), E(2, ns_points=60)])
    services.enter_board_results(actor=organiser, match=t2, entries=[E(1, ns_points=50), E(2, ns_points=60)])
    lines = {line.entry.pk: line for line in format_of(four).standings().lines}
    assert lines[t1.home_id].row.match_points == 75 and lines[t2.away_id].row.match_points == 75
    assert lines[t1.away_id].row.match_points == 25 and lines[t2.home_id].row.match_points == 25
    assert {lines[p].place_label for p in (t1.home_id, t2.away_id)} == {"1="}
    assert {lines[p].place_label for p in (t1.away_id, t2.home_id)} == {"3="}
    assert all(line.row.played == 2 for line in lines.values())
    own = core.event_scores(table_results(four, event_results(four)))
    assert {pk: Fraction(line.row.match_points) for pk, line in lines.items()} == own
    t1.refresh_from_db()
    assert t1.status == MatchStatus.CONFIRMED
    assert four.rounds.get().status == "complete"


def test_standings_page_shows_percentages(client, four, organiser):
    t1, t2 = tables(four.rounds.get())
    services.enter_board_results(actor=organiser, match=t1, entries=[E(1, ns_points=70), E(2, ns_points=60)])
    services.enter_board_results(actor=organiser, match=t2, entries=[E(1, ns_points=50), E(2, ns_points=60)])
    page = client.get(f"/t/{four.slug}/standings/").content.decode()
    assert "75.00" in page and "25.00" in page and "1=" in page


def test_adjusted_scores_count_sixty_and_forty(four, organiser):
    t1, t2 = tables(four.rounds.get())
    services.enter_board_results(actor=organiser, match=t1, entries=[
        E(1, ns_adjusted="plus", ew_adjusted="minus"), E(2, ns_points=80)])
    services.enter_board_results(actor=organiser, match=t2, entries=[E(1, ns_points=50), E(2, ns_points=60)])
    lines = {line.entry.pk: line.row.match_points for line in format_of(four).standings().lines}
    assert lines[t1.home_id] == 80  # (60 + 100) / 2
    assert lines[t1.away_id] == 20  # (40 + 0) / 2


def test_the_table_enters_with_both_pins_once(four):
    t1 = tables(four.rounds.get())[0]
    pins = (t1.home_pin, t1.away_pin)
    services.enter_board_results(actor=None, match=t1, entries=[E(1, ns_points=70)], pins=pins)
    with pytest.raises(ValidationError, match="Board 1 already has a result"):
        services.enter_board_results(actor=None, match=t1, entries=[E(1, ns_points=20)], pins=pins)
    assert BoardResult.objects.get(match=t1, board=1).ns_points == 70  # nothing lost
    services.enter_board_results(actor=None, match=t1, entries=[E(2, ns_points=61)], pins=pins)
    t1.refresh_from_db()
    assert t1.status == MatchStatus.CONFIRMED and t1.confirmed_how == "pin"


def test_organiser_corrects_a_board(four, organiser):
    t1 = tables(four.rounds.get())[0]
    services.enter_board_results(actor=organiser, match=t1, entries=[E(1, ns_points=70)])
    services.enter_board_results(actor=organiser, match=t1, entries=[E(1, ns_points=71)])
    assert BoardResult.objects.get(match=t1, board=1).ns_points == 71


@pytest.mark.parametrize(("entries", "message"), [
    ([E(1, ns_points=121)], "from 0 to 120, not 121"),
    ([E(1, ns_points=-1)], "from 0 to 120, not -1"),
    ([E(3, ns_points=60)], "Board 3 is not played at this table"),
    ([E(1, ns_points=60), E(1, ns_points=61)], "Board 1 is given twice"),
    ([E(1, ns_adjusted="plus")], "adjusted score for both sides"),
    ([E(1, ns_adjusted="great", ew_adjusted="minus")], "adjusted score for both sides"),
    ([E(1, ns_points=60, ns_adjusted="plus", ew_adjusted="minus")], "not both"),
    ([], "Nothing to enter"),
])
def test_bad_values_refused_and_nothing_written(four, organiser, entries, message):
    t1 = tables(four.rounds.get())[0]
    with pytest.raises(ValidationError, match=message):
        services.enter_board_results(actor=organiser, match=t1, entries=entries)
    assert not BoardResult.objects.exists()


@pytest.mark.parametrize("pins", [("0000x", "0000x"), None, ("", "")])
def test_forged_entries_refused(four, pins):
    t1 = tables(four.rounds.get())[0]
    with pytest.raises((ValidationError, PermissionDenied)):
        services.enter_board_results(actor=None, match=t1, entries=[E(1, ns_points=70)], pins=pins)
    assert not BoardResult.objects.exists()


def test_one_pairs_pin_twice_is_not_enough(four):
    t1 = tables(four.rounds.get())[0]
    t1.home_pin, t1.away_pin = "1234", "5678"
    t1.save()
    with pytest.raises(WrongPin):
        services.enter_board_results(actor=None, match=t1, entries=[E(1, ns_points=70)],
                                     pins=(t1.home_pin, t1.home_pin))
    assert not BoardResult.objects.exists()


def test_other_clubs_organiser_and_players_without_pins_refused(four, outsider, member):
    t1 = tables(four.rounds.get())[0]
    for actor in (outsider, member):
        with pytest.raises(PermissionDenied):
            services.enter_board_results(actor=actor, match=t1, entries=[E(1, ns_points=70)])
    assert not BoardResult.objects.exists()


def test_each_board_result_tells_the_live_pages(
    four, organiser, monkeypatch, django_capture_on_commit_callbacks
):
    """The standings' percentages move as each board comes in, not only when a table is done."""
    from tournaments import broadcast

    sent: list[int] = []
    monkeypatch.setattr(broadcast, "_send", sent.append)
    t1 = tables(four.rounds.get())[0]
    with django_capture_on_commit_callbacks(execute=True):
        services.enter_board_results(actor=organiser, match=t1, entries=[E(1, ns_points=70)])
    t1.refresh_from_db()
    assert t1.status == MatchStatus.SCHEDULED and sent == [four.pk]
