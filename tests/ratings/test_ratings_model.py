"""The rating model as a player would notice it: wins raise, stronger pairs are favoured, deals count."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from ratings.core.guard import farming_weight, previous_meetings
from ratings.core.match_odds import DEFAULT_RULES, DealShape, ScoringKey, match_table
from ratings.core.model import Deal, Match, RatingState

NS_, EW_ = ("a", "b"), ("c", "d")


def deals(*eyes: tuple[int, int], duty: str | None = None) -> tuple[Deal, ...]:
    out = []
    for ns, ew in eyes:
        winner = "NS" if ns else "EW" if ew else None
        base = max(ns, ew)
        kind = "eggs" if winner is None else "rout" if base >= 2 and duty == winner or base == 3 else "win"
        out.append(Deal(winner, kind, duty))
    return tuple(out)


def test_a_win_raises_both_winners_and_lowers_both_losers() -> None:
    state = RatingState()
    moved = state.update(
        Match(NS_, EW_, "NS", deals((2, 0), (0, 1), (2, 0), (2, 0), (2, 0), (2, 0), (2, 0)), 1.0)
    )
    assert moved["a"].change > 0 and moved["b"].change > 0
    assert moved["c"].change < 0 and moved["d"].change < 0


def test_a_stronger_pair_is_predicted_to_win() -> None:
    state = RatingState()
    for day in range(6):
        state.update(Match(("a", "b"), ("x", "y"), "NS", deals(*[(2, 0)] * 6), float(day)))
        state.update(Match(("c", "d"), ("x", "y"), "EW", deals(*[(0, 2)] * 6), float(day)))
    assert state.predict(Match(NS_, EW_, "NS", None, 7.0)) > 0.8
    assert state.predict(Match(EW_, NS_, "NS", None, 7.0)) < 0.2


def test_a_rout_moves_more_than_a_close_match() -> None:
    rout = RatingState().update(Match(NS_, EW_, "NS", deals(*[(3, 0)] * 4), 1.0))
    close = RatingState().update(
        Match(
            NS_,
            EW_,
            "NS",
            deals(
                (1, 0),
                (0, 1),
                (2, 0),
                (0, 2),
                (1, 0),
                (0, 2),
                (2, 0),
                (0, 2),
                (2, 0),
                (0, 2),
                (2, 0),
                (0, 2),
                (2, 0),
            ),
            1.0,
        )
    )
    assert rout["a"].change > 2 * close["a"].change > 0


def test_deals_carry_information_beyond_the_winner() -> None:
    by_deals = RatingState().update(Match(NS_, EW_, "NS", deals(*[(3, 0)] * 4), 1.0))
    by_result = RatingState().update(Match(NS_, EW_, "NS", None, 1.0))
    assert by_deals["a"].change > by_result["a"].change > 0


def test_uncertainty_shrinks_with_play_and_grows_with_absence() -> None:
    state = RatingState()
    start = state.display("a", 0.0)[1]
    for day in range(40):
        state.update(Match(NS_, EW_, "NS" if day % 2 else "EW", deals((2, 0), (0, 2)), float(day)))
    played = state.display("a", 39.0)[1]
    away = state.display("a", 39.0 + 365)[1]
    assert played < start
    assert away > played
    assert state.is_provisional("someone new") and not state.is_provisional("a", 39.0)


def test_a_new_player_moves_faster_than_a_seasoned_one() -> None:
    state = RatingState()
    for day in range(30):
        state.update(
            Match(("a", "b"), ("c", "d"), "NS" if day % 2 else "EW", deals((2, 0), (0, 2)), float(day))
        )
    moved = state.update(Match(("a", "new"), ("c", "d"), "NS", deals(*[(2, 0)] * 6), 30.0))
    assert moved["new"].change > 2 * moved["a"].change > 0


def test_a_forfeit_before_the_first_card_is_not_rated() -> None:
    state = RatingState()
    assert state.update(Match(NS_, EW_, "NS", (), 1.0)) == {}
    assert state.players == {}


def test_a_resignation_counts_as_a_loss() -> None:
    moved = RatingState().update(Match(NS_, EW_, "EW", deals((2, 0)), 1.0, ended="resigned"))
    assert moved["a"].change < 0 < moved["c"].change


def test_preview_shows_what_a_win_and_a_loss_would_move() -> None:
    state = RatingState()
    preview = state.preview(NS_, EW_)
    assert set(preview) == {"a", "b", "c", "d"}
    win, big_win, loss, big_loss = preview["a"]
    assert big_win > win > 0 > loss > big_loss
    assert preview["c"] == preview["a"]  # four newcomers: the same stakes on both sides
    exact = state.preview_result(NS_, EW_, "NS", eyes=(12, 11))
    assert exact["a"] == win and exact["c"] == loss
    assert state.players == {}  # a preview changes nothing


def test_fixed_partners_get_a_pair_rating() -> None:
    state = RatingState()
    for day in range(5):
        state.update(Match(NS_, EW_, "NS", deals(*[(2, 0)] * 6), float(day)))
    assert state.pair_display("a", "b")[0] > state.pair_display("c", "d")[0]


def test_the_match_probability_follows_the_rules() -> None:
    table = match_table(DEFAULT_RULES, DealShape())
    assert table.at(0.0) == pytest.approx(0.5)
    assert table.at(0.5) > 0.6 and table.at(-0.5) == pytest.approx(1 - table.at(0.5))
    assert match_table(ScoringKey(lucy="zero"), DealShape()).at(0.0) == pytest.approx(0.5)


def test_farming_weight_falls_with_each_meeting() -> None:
    from datetime import date

    weights = [farming_weight(n) for n in range(4)]
    assert weights == sorted(weights, reverse=True) and weights[0] == 1.0 and weights[1] == 0.5
    history = [(date(2026, 3, d), ["a", "b", "c", "d"]) for d in (1, 2)] + [
        (date(2026, 1, 1), ["a", "b", "c", "d"])
    ]
    assert previous_meetings(["d", "c", "b", "a"], date(2026, 3, 3), history) == 2
    full = RatingState().update(Match(NS_, EW_, "NS", deals(*[(2, 0)] * 6), 1.0))
    light = RatingState().update(Match(NS_, EW_, "NS", deals(*[(2, 0)] * 6), 1.0, weight=farming_weight(3)))
    assert full["a"].change > light["a"].change > 0


def test_the_model_imports_nothing_of_django_or_the_database() -> None:
    root = Path(__file__).resolve().parents[2] / "ratings" / "core"
    allowed = ("ratings.core", "gameplay.engine")  # itself, and the pure engine below it
    files = sorted(root.glob("*.py"))
    assert len(files) >= 5, f"the model's files are not where this test looks: {root}"
    for path in files:
        for node in ast.walk(ast.parse(path.read_text())):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else ([node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            )
            for name in names:
                top = name.split(".")[0]
                assert top not in {"django", "clubs", "config", "channels", "celery", "redis", "psycopg"}, (
                    path,
                    name,
                )
                if top in {"ratings", "gameplay", "archive", "tournaments"}:
                    assert name.startswith(allowed), (path, name)


def test_the_harness_runs_and_its_floor_is_below_the_model() -> None:
    from bench.ratings.harness import Shape, run

    result = run((Shape("small", "rotating", players=24, per_player=24), 0, "Bilka", None))
    assert 0.0 < result["oracle_ll"] < result["ll"] < 0.7
    assert len(result["ps"]) == 24 * 24 // 4 // 2


def test_a_fixed_partner_widens_the_deviation_shown_but_not_the_provisional_one():
    """Always with one partner, the results show the pair's sum: each partner's share of it stays
    as uncertain as it began, v0 (v0 + vc) / (2 v0 + vc) with the pair term's prior vc (v0 / 2
    without a pair term; RatingState.display); a player who never repeats a partner keeps the
    filter's own deviation, and provisional reads the filter's own for both."""
    from ratings.core.model import Deal, Match, RatingState

    state = RatingState()
    deals = (Deal("NS", "win", "NS", (70, 50)), Deal("EW", "win", "NS", (40, 80))) * 4
    others = iter(f"o{i}" for i in range(1000))
    for k in range(30):
        ns = ("fixed-a", "fixed-b") if k % 2 else ("rover", next(others))
        state.update(Match(ns, (next(others), next(others)), "NS" if k % 3 else "EW", deals, float(k)))
    v0, vc = state.params.initial_sd**2, state.params.pair_sd**2
    split = v0 * (v0 + vc) / (2 * v0 + vc)  # var(a | a + b + c) for a, b ~ N(0, v0), c ~ N(0, vc)
    assert v0 / 2 < split < v0
    scale = state.params.scale
    for fixed in ("fixed-a", "fixed-b"):
        assert state.partner_share(fixed) == 1.0
        own = state.own_deviation(fixed, 29.0)
        apart = state.players[fixed].estimate - state.players[fixed].mu  # the rating's distance from the form
        assert abs(state.display(fixed, 29.0)[1] ** 2 - (own**2 + scale**2 * (split + apart**2))) < 1e-6
        assert not state.is_provisional(fixed, 29.0)  # fifteen matches: not new, only not separable
    assert state.partner_share("rover") == 1 / 15
    apart = state.players["rover"].estimate - state.players["rover"].mu
    rover = (state.display("rover", 29.0)[1] ** 2 - scale**2 * apart**2) ** 0.5
    assert rover - state.own_deviation("rover", 29.0) < 1.0
    rebuilt = RatingState(state.params)  # as the site loads it from rows
    rebuilt.players, rebuilt.pairs = dict(state.players), dict(state.pairs)
    rebuilt.index_partners()
    assert rebuilt.display("fixed-a", 29.0) == state.display("fixed-a", 29.0)
