"""Requested byes in the pure standings: how a half counts, how they enter each tiebreak, and that
every event without one keeps exactly the table the site gave before (``frozen``, the old code)."""

from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.core.seating import Table
from tournaments.core.standings import (
    MatchPoints,
    MatchResult,
    TableResult,
    compute_standings,
    individual_standings,
)
from tournaments.core.tiebreaks import Tiebreak

from .frozen import standings as frozen

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TIEBREAKS = [t.value for t in Tiebreak]
OLD_FIELDS = (
    "place",
    "shared",
    "entry",
    "match_points",
    "played",
    "wins",
    "losses",
    "byes",
    "eyes_for",
    "eyes_against",
    "buchholz",
    "sonneborn_berger",
    "lucy",
    "withdrawn",
    "forfeits",
)


def _old(row) -> tuple:
    return tuple((name, getattr(row, name), type(getattr(row, name)).__name__) for name in OLD_FIELDS)


@st.composite
def points(draw):
    win = draw(st.integers(1, 3))
    loss = draw(st.integers(0, win - 1))
    return {
        "win": win,
        "loss": loss,
        "bye": draw(st.integers(0, win)),
        "forfeit_loss": draw(st.integers(0, loss)),
        "forfeit_eyes_count": draw(st.booleans()),
    }


@st.composite
def pair_events(draw):
    """A Swiss-shaped event as it exists today: rounds of matches and at most one bye, some forfeits,
    some late entries and withdrawals (entries missing from some rounds)."""
    n = draw(st.integers(2, 9))
    entries = list(range(1, n + 1))
    results = []
    for rnd in range(1, draw(st.integers(0, 6)) + 1):
        here = draw(st.permutations(entries))
        here = here[: draw(st.integers(0, n))]
        if len(here) % 2:
            results.append(("bye", here[-1], rnd))
            here = here[:-1]
        for i in range(0, len(here), 2):
            loser_eyes = draw(st.integers(0, 11))
            home_wins = draw(st.booleans())
            results.append(
                (
                    "match",
                    here[i],
                    here[i + 1],
                    home_wins,
                    loser_eyes,
                    draw(st.booleans()),
                    draw(st.one_of(st.none(), st.integers(0, 3))),
                    draw(st.one_of(st.none(), st.integers(0, 3))),
                    rnd,
                )
            )
    withdrawn = draw(st.lists(st.sampled_from(entries), unique=True, max_size=n))
    order = draw(st.permutations(TIEBREAKS))[: draw(st.integers(0, len(TIEBREAKS)))]
    return entries, results, withdrawn, order


def _pair_results(result, results):
    out = []
    for r in results:
        if r[0] == "bye":
            out.append(result(home=r[1], away=None, bye=True, round=r[2]))
            continue
        _, home, away, home_wins, loser, forfeit, hl, al, rnd = r
        out.append(
            result(
                home=home,
                away=away,
                home_eyes=12 if home_wins else loser,
                away_eyes=loser if home_wins else 12,
                winner=home if home_wins else away,
                home_lucy=hl,
                away_lucy=al,
                forfeit=forfeit,
                round=rnd,
            )
        )
    return out


@SETTINGS
@given(event=pair_events(), config=points())
def test_a_pairs_event_without_requested_byes_keeps_the_old_table(event, config):
    entries, results, withdrawn, order = event
    old = frozen.compute_standings(
        entries,
        _pair_results(frozen.MatchResult, results),
        points=frozen.MatchPoints(**config),
        tiebreaks=order,
        withdrawn=withdrawn,
    )
    new = compute_standings(
        entries,
        _pair_results(MatchResult, results),
        points=MatchPoints(**config),
        tiebreaks=order,
        withdrawn=withdrawn,
    )
    assert [_old(r) for r in new] == [_old(r) for r in old]
    assert all(r.requested_byes == 0 for r in new)


@st.composite
def individual_events(draw):
    n = draw(st.integers(4, 11))
    players = list(range(1, n + 1))
    results, byes = [], []
    for rnd in range(1, draw(st.integers(0, 5)) + 1):
        order = draw(st.permutations(players))
        seated = len(order) - len(order) % 4
        byes += [(p, rnd) for p in order[seated:]]
        for i in range(0, seated, 4):
            table = Table(*order[i : i + 4])
            if draw(st.integers(0, 5)) == 0:
                absent = frozenset(draw(st.lists(st.sampled_from(table.players), min_size=1, unique=True)))
                results.append(("absent", table, absent, rnd))
                continue
            loser = draw(st.integers(0, 11))
            ns = draw(st.booleans())
            results.append(("played", table, (12, loser) if ns else (loser, 12), rnd))
    withdrawn = draw(st.lists(st.sampled_from(players), unique=True, max_size=n))
    tiebreaks = draw(st.permutations(TIEBREAKS))[: draw(st.integers(0, len(TIEBREAKS)))]
    return players, results, byes, withdrawn, tiebreaks


def _tables(results):
    out = []
    for r in results:
        if r[0] == "absent":
            out.append(TableResult(table=r[1], absent=r[2], round=r[3]))
        else:
            ns, ew = r[2]
            out.append(
                TableResult(table=r[1], ns_eyes=ns, ew_eyes=ew, winner="NS" if ns > ew else "EW", round=r[3])
            )
    return out


@SETTINGS
@given(event=individual_events(), config=points())
def test_an_individual_event_without_requested_byes_keeps_the_old_table(event, config):
    players, results, byes, withdrawn, order = event
    tables = _tables(results)
    old = frozen.individual_standings(
        players, tables, byes, points=frozen.MatchPoints(**config), withdrawn=withdrawn, tiebreaks=order
    )
    new = individual_standings(
        players, tables, byes, points=MatchPoints(**config), withdrawn=withdrawn, tiebreaks=order
    )
    assert [_old(r) for r in new] == [_old(r) for r in old]


def _win(home, away, rnd, winner=None):
    winner = winner or home
    return MatchResult(
        home=home,
        away=away,
        home_eyes=12 if winner == home else 5,
        away_eyes=5 if winner == home else 12,
        winner=winner,
        round=rnd,
    )


def test_a_half_point_bye_is_half_a_win_shown_as_a_half_and_ranked_exactly():
    # 1 beats 2 in round 1, 3 asks for a half-point bye; round 2: 1 beats 3, 2 asks for a half
    results = [
        _win(1, 2, 1),
        MatchResult(home=3, away=None, bye=True, requested="half", round=1),
        _win(1, 3, 2),
        MatchResult(home=2, away=None, bye=True, requested="half", round=2),
    ]
    rows = {r.entry: r for r in compute_standings([1, 2, 3], results)}
    assert rows[1].match_points == 2 and isinstance(rows[1].match_points, int)
    assert rows[2].match_points == 0.5 and rows[3].match_points == 0.5
    assert (rows[2].requested_byes, rows[2].byes, rows[2].played) == (1, 0, 1)
    assert MatchPoints().requested_bye("half") == Fraction(1, 2)
    assert MatchPoints(win=2, loss=0).requested_bye("half") == 1, "a whole half stays an int"
    assert MatchPoints(win=3, loss=1).requested_bye("zero") == 1, "a zero-point bye scores a loss"


def test_a_requested_bye_enters_buchholz_and_sonneborn_berger_through_its_virtual_opponent():
    # three rounds. Entry 3 asks for a half in round 3 after 1 point in two rounds.
    results = [
        _win(1, 2, 1),
        _win(3, 4, 1),
        _win(1, 3, 2),
        _win(2, 4, 2),
        _win(1, 2, 3),
        MatchResult(home=3, away=None, bye=True, requested="half", round=3),
    ]
    rows = {r.entry: r for r in compute_standings([1, 2, 3, 4], results)}
    # 3 scored 1 + 1/2. Its opponents: 4 (0 points), 1 (3); virtual opponent of round 3: 1 point
    # before, drew the round (+1/2), no later round: 1.5. Buchholz 0 + 3 + 1.5.
    assert rows[3].match_points == 1.5
    assert rows[3].buchholz == 4.5
    # Sonneborn-Berger: beat 4 (0) and half of the virtual opponent (0.75)
    assert rows[3].sonneborn_berger == 0.75
    # 1 met 3, whose half-point bye counts as a draw (it is one): 3's counted points are 1.5
    assert rows[1].buchholz == 1 + 1.5 + 1  # 2 has 1 win, 3 has 1.5, 2 again 1


def test_a_zero_point_bye_scores_nothing_and_counts_as_a_draw_for_the_opponents():
    results = [
        _win(1, 2, 1),
        MatchResult(home=3, away=None, bye=True, requested="zero", round=1),
        _win(3, 1, 2),
    ]
    rows = {r.entry: r for r in compute_standings([1, 2, 3], results)}
    assert rows[3].match_points == 1 and rows[3].requested_byes == 1
    # 1's opponents: 2 (0), 3 (1 point plus its zero bye counted as a draw: 1.5)
    assert rows[1].buchholz == 1.5
    # 3's virtual opponent of round 1 started at 0 and won the round (1), drew round 2 (0.5)
    assert rows[3].buchholz == 1 + 1.5
    assert rows[3].sonneborn_berger == 1, "a zero-point bye beats nobody: SB counts only 1 beaten"


def test_an_individual_players_half_point_bye_stands_for_two_virtual_opponents():
    table = Table(1, 2, 3, 4)
    rows = {
        r.entry: r
        for r in individual_standings(
            [1, 2, 3, 4, 5],
            [TableResult(table=table, ns_eyes=12, ew_eyes=3, winner="NS", round=1)],
            requested=[(5, 1, "half")],
        )
    }
    assert rows[5].match_points == 0.5 and rows[5].requested_byes == 1 and rows[5].byes == 0
    # two virtual opponents, each 0 before, drew round 1: 0.5 each
    assert rows[5].buchholz == 1
    assert [r.entry for r in individual_standings([1, 2, 3, 4, 5], [], requested=[(5, 1, "half")])][0] == 5


def test_a_requested_bye_is_refused_as_a_result_when_it_is_not_a_bye():
    with pytest.raises(ValueError):
        MatchResult(home=1, away=2, winner=1, home_eyes=12, requested="half")
    with pytest.raises(ValueError):
        MatchResult(home=1, away=None, bye=True, requested="third")
