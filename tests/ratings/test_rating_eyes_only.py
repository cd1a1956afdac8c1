"""A deal known by its eyes alone is read for all its eyes say. Two eyes with the pair on duty not
recorded are a plain win by the pair not on duty or a rout by the pair on duty ("win-or-rout"):
the model reads that deal as either of the two margin intervals, not as "a win of any size"."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ratings.core.likelihood import interval_slope, mixture_slope
from ratings.core.model import EW, NS, Deal, Match, RatingState
from ratings.core.records import parse_match

_CDF = lambda x: 0.5 * math.erfc(-x / math.sqrt(2.0))  # noqa: E731


def _log_p(mixed: list[tuple[float, float, float, float, float]], d: float) -> float:
    total = 0.0
    for lo1, hi1, lo2, hi2, n in mixed:
        p = sum(_CDF(d - lo) - _CDF(d - hi) for lo, hi in ((lo1, hi1), (lo2, hi2))) / 2
        total += n * math.log(p)
    return total


def _line(deals: list[dict[str, object]]) -> dict[str, object]:
    """A match NS resigned after these deals (a played-out one would need its 12 eyes)."""
    return {"id": 1, "ns": ["a", "b"], "ew": ["c", "d"], "winner": "EW", "ended": "resigned",
            "deals": deals}


@given(
    st.floats(-2.0, 2.0), st.floats(-1.0, 1.0), st.floats(0.5, 2.5), st.floats(0.2, 1.5),
    st.floats(-3.0, 3.0),
)
def test_the_slope_of_two_intervals_is_the_derivative_of_their_log_probability(
    lo1: float, lo2: float, w1: float, w2: float, d: float
) -> None:
    mixed = [(lo1, lo1 + w1, lo2, lo2 + w2, 2.0), (-math.inf, lo1, lo2 + w2, math.inf, 1.0)]
    g, h = mixture_slope(mixed, d)
    e = 1e-4
    up, mid, dn = _log_p(mixed, d + e), _log_p(mixed, d), _log_p(mixed, d - e)
    assert g == pytest.approx((up - dn) / (2 * e), rel=1e-4, abs=1e-5)
    assert h == pytest.approx(-(up - 2 * mid + dn) / (e * e), rel=1e-2, abs=1e-3)


def test_one_interval_twice_is_that_interval() -> None:
    for d in (-1.5, 0.0, 0.7):
        twice = mixture_slope([(0.2, 1.1, 0.2, 1.1, 3.0)], d)
        assert twice == pytest.approx(interval_slope([(0.2, 1.1, 3.0)], d))


def test_two_eyes_without_the_pair_on_duty_read_as_win_or_rout() -> None:
    _, match = parse_match(_line([{"NS": 2, "EW": 0}, {"NS": 0, "EW": 1}, {"NS": 0, "EW": 3},
                                  {"NS": 2, "EW": 0, "on_duty": "NS"}]))
    assert match.deals == (
        Deal(NS, "win-or-rout", None),
        Deal(EW, "win", EW),  # one eye: the winner was on duty
        Deal(EW, "rout", NS),  # three: a rout by the pair not on duty
        Deal(NS, "rout", NS),  # two eyes on duty: a rout
    )


def test_the_model_reads_win_or_rout_as_either_interval() -> None:
    state = RatingState()
    bounds = state._bounds
    open_two = (Deal(NS, "win-or-rout", None), Deal(EW, "win-or-rout", None))
    terms, seen, total, mixed = state._deal_terms(open_two)
    assert (terms, seen, total) == ([], 0.0, 0.0)
    assert sorted(mixed) == sorted([
        (*bounds[(NS, "win", EW)], *bounds[(NS, "rout", NS)], 1.0),
        (*bounds[(EW, "win", NS)], *bounds[(EW, "rout", EW)], 1.0),
    ])
    # with the pair on duty known, the same deal is exact
    assert state._deal_terms((Deal(NS, "win-or-rout", EW),))[0] == [(*bounds[(NS, "win", EW)], 1.0)]
    assert state._deal_terms((Deal(NS, "win-or-rout", NS),))[0] == [(*bounds[(NS, "rout", NS)], 1.0)]


def test_two_eyes_won_off_duty_say_more_than_a_win_of_any_size() -> None:
    """Winning a deal while the other pair was on duty is the likelier reading of two eyes, and
    it says the winners are stronger than a bare win does: a match of such deals moves the winners
    further than the same deals read as wins of unknown size, and less than a run of routs."""
    def step(kind: str) -> float:
        state = RatingState()
        deals = tuple(Deal(NS, kind, None) for _ in range(6)) + tuple(Deal(EW, "win", EW) for _ in range(5))
        state.update(Match(("a", "b"), ("c", "d"), NS, deals))
        return state.players["a"].mu

    assert step("any") < step("win-or-rout") < step("rout")
