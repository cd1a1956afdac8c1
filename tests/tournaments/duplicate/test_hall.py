"""The hall screen of a duplicate event: the running percentages as boards finish, never a result of
a board some table is still to play."""

from fractions import Fraction

import pytest

from tournaments import services
from tournaments.core import duplicate as core
from tournaments.formats import format_of
from tournaments.formats.duplicate import event_results, table_results
from tournaments.selectors.boards import live_percentages
from tournaments.selectors.hall import hall_screen

from .conftest import duplicate_event, tables

E = services.BoardEntry


def _standings(client, event) -> str:
    page = client.get(f"/t/{event.slug}/hall/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    return page.split('id="hall-standings"')[1].split("</section>")[0]


def test_percentages_come_as_boards_finish_at_every_table(client, four, organiser):
    t1, t2 = tables(four.rounds.get())
    services.enter_board_results(actor=organiser, match=t1, entries=[E(1, ns_points=70), E(2, ns_points=60)])
    assert live_percentages(tournament=four) == []  # table 2 is still to play boards 1 and 2
    shown = _standings(client, four)
    assert "Percentages appear here as soon as a board has been played at every table." in shown
    assert "%" not in shown.split("</h2>")[1].replace("Percentages", "")
    assert t1.home.name not in shown
    services.enter_board_results(actor=organiser, match=t2, entries=[E(1, ns_points=50)])
    lines = live_percentages(tournament=four)  # board 1 finished, board 2 not
    by_pair = {line.entry.pk: line for line in lines}
    assert {pk: line.percent for pk, line in by_pair.items()} == {
        t1.home_id: 100, t1.away_id: 0, t2.home_id: 0, t2.away_id: 100}
    assert all(line.boards == 1 for line in lines)
    assert [line.place for line in lines] == [1, 1, 3, 3] and all(line.shared for line in lines)
    shown = _standings(client, four)
    assert "100.00%" in shown and "0.00%" in shown and "1 board" in shown
    assert "60" not in shown  # table 1's 60 on board 2, which table 2 has not played
    services.enter_board_results(actor=organiser, match=t2, entries=[E(2, ns_points=60)])
    lines = live_percentages(tournament=four)
    own = core.event_scores(table_results(four, event_results(four)))  # every board finished: the event's
    assert {line.entry.pk: line.percent for line in lines} == own
    assert own[t1.home_id] == Fraction(75)
    screen = hall_screen(tournament=four)
    assert screen.standings == [] and screen.percentages == lines
    assert "75.00%" in _standings(client, four) and "2 boards" in _standings(client, four)


@pytest.mark.parametrize("movement", ["mitchell"])
def test_a_mitchell_shows_nothing_while_every_set_is_still_in_play(client, club, organiser, movement):
    """In a Mitchell every set is played by one table each round, so no board finishes before the last
    round: the hall shows no percentage until then, and nothing of the results entered."""
    event = duplicate_event(club, organiser, 6, movement=movement)
    services.pair_next_round(actor=organiser, tournament=event)
    for m in tables(event.rounds.get()):
        first = (m.slot - 1) * 2 + 1
        services.enter_board_results(actor=organiser, match=m, entries=[E(first, ns_points=97),
                                                                        E(first + 1, ns_points=13)])
    assert live_percentages(tournament=event) == []
    shown = _standings(client, event)
    assert "97" not in shown and "13" not in shown and "100" not in shown
    assert "Percentages appear here" in shown


def test_the_standings_page_waits_for_a_boards_last_table_as_the_hall_does(client, four, organiser):
    """While the event runs the standings count only the boards every table has played: table 1's
    result on board 2 is not on the page (nor in its percentages) until table 2 has played it too."""
    t1, t2 = tables(four.rounds.get())
    services.enter_board_results(actor=organiser, match=t1, entries=[E(1, ns_points=70), E(2, ns_points=60)])
    services.enter_board_results(actor=organiser, match=t2, entries=[E(1, ns_points=50)])
    client.force_login(organiser)  # the organiser's page counts the same boards as everyone's
    page = client.get(f"/t/{four.slug}/standings/").content.decode()
    rows = page.split('id="duplicate-standings"')[1].split("</tbody>")[0]
    assert "100.00" in rows and "75.00" not in rows and "50.00" not in rows
    assert "a board counts once every table has played it" in page
    lines = {line.entry.pk: line.row for line in format_of(four).standings().lines}
    assert lines[t1.home_id].match_points == 100 and lines[t1.home_id].played == 1
    services.enter_board_results(actor=organiser, match=t2, entries=[E(2, ns_points=60)])
    lines = {line.entry.pk: line.row for line in format_of(four).standings().lines}
    assert lines[t1.home_id].match_points == 75 and lines[t1.home_id].played == 2
