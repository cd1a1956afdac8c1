"""Rating and form: the rating moves only with a match's result, the form reads every deal.

In a match whose deals point against its result (won 12:9 with fewer card points, a favourite's
narrow win), the rating's step stops at no change (``test_rating_step_signs.py``); the form, the
model's best estimate of the same strength, takes what the deals said, and the chances of a match
come from the forms. docs/ratings.md, "Rating and form"."""

from __future__ import annotations

import copy

import pytest

from ratings.core.model import NS, Match, Rating, RatingState
from tests.ratings.test_rating_step_signs import _step, played


def test_a_win_with_fewer_card_points_keeps_the_rating_and_lowers_the_form():
    winner, rows = played(2)  # NS won 12:9 while EW took more card points
    assert winner == NS
    match, deltas = _step(RatingState(), winner, rows, "eyes", 1.0)
    state = RatingState()
    state.update(match)
    for pid in match.ns:
        r = state.players[pid]
        assert deltas[pid].change == 0.0 and r.mu == 0.0
        assert r.form is not None and r.form < 0.0  # the deals said EW played better
    for pid in match.ew:
        r = state.players[pid]
        assert r.mu == 0.0 and r.form is not None and r.form > 0.0
    # the next match between them is predicted from the forms: EW are favoured
    again = Match(match.ns, match.ew, NS, None, match.day)
    assert state.predict(again) < 0.5


def test_a_rating_left_behind_catches_up_with_the_form_at_the_next_match_that_allows_it():
    """After the 12:9 win with fewer card points the winners' ratings stay above their forms; when
    they then lose, their ratings go down to where the forms go (further than that loss alone
    would take them, never up), and rating and form meet again."""
    winner, rows = played(2)
    first, _ = _step(RatingState(), winner, rows, "eyes", 1.0)
    state = RatingState()
    state.update(first)
    left_behind = {pid: state.players[pid].mu - state.players[pid].estimate for pid in first.ns}
    assert all(gap > 0 for gap in left_behind.values())
    caught_up = copy.deepcopy(state)  # the same players with their ratings at their forms
    for r in [*caught_up.players.values(), *caught_up.pairs.values()]:
        r.mu, r.form = r.estimate, None
    lost = Match(first.ns, first.ew, "EW", None, first.day)
    own_step = caught_up.update(lost)
    deltas = state.update(lost)
    for pid in (*first.ns, *first.ew):  # (a trace is left: the step is shared by the shrunk variances)
        assert state.players[pid].mu == pytest.approx(state.players[pid].estimate, abs=1e-4)
    for pid in first.ns:
        assert deltas[pid].change < own_step[pid].change < 0  # down by the loss and what was owed


def test_each_rating_follows_its_own_form_even_when_its_partner_is_apart_the_other_way():
    """Fixed partners, one rating above its form and the other as far below: the pair's ratings sum
    to their forms', so a rule on the pair's difference alone would never close either gap. Each
    follows its own: at the pair's win the one below meets his form, the one above does not go down."""
    state = RatingState()
    for pid, mu, form in (("a", 0.1, 0.0), ("b", -0.1, 0.0), ("c", 0.0, None), ("d", 0.0, None)):
        state.players[pid] = Rating(mu, 0.02, None, 10, form)
    deltas = state.update(Match(("a", "b"), ("c", "d"), NS, None))
    a, b = state.players["a"], state.players["b"]
    assert a.mu == 0.1 and a.estimate > 0.0 and deltas["a"].change == 0.0  # above his form: stays
    assert b.form is None and b.mu > 0.0 and deltas["b"].change > 0.0  # met his form
    for pid in ("c", "d"):
        assert state.players[pid].form is None and deltas[pid].change < 0.0


def test_a_result_that_agrees_with_its_deals_moves_rating_and_form_alike():
    for seed in range(1, 30):
        winner, rows = played(seed)
        match, deltas = _step(RatingState(), winner, rows, "eyes", 1.0)
        state = RatingState()
        state.update(match)
        if all(d.change != 0.0 for d in deltas.values()):
            for r in state.players.values():
                assert r.form is None and r.estimate == r.mu  # one number: the rows store null
            return
    pytest.fail("no bot match whose deals agreed with its result")


def test_the_chance_reads_the_forms_and_the_rating_shows_the_mean():
    state = RatingState()
    for pid, form in (("a", 0.2), ("b", 0.2), ("c", 0.0), ("d", 0.0)):
        state.players[pid] = Rating(0.0, 0.01, None, 10, form)
    m = Match(("a", "b"), ("c", "d"), NS, None)
    assert state.predict(m) > 0.7
    assert state.display("a")[0] == state.display("c")[0] == 1500.0
    plain = copy.deepcopy(state)
    for r in plain.players.values():
        r.form = None
    assert plain.predict(m) == pytest.approx(0.5, abs=1e-9)
