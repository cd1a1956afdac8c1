"""Best-of-N ties in the bracket formats on the real database: settings, games, a forfeit, the pages."""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from tournaments import selectors, services
from tournaments.models import Match, MatchStatus, TournamentStatus

from ..conftest import play_round, player_with_account, register_pairs

pytestmark = pytest.mark.django_db


def _create(club, organiser, fmt, **kw):
    return services.create_tournament(
        actor=organiser,
        club=club,
        name=f"Серия {fmt}",
        starts_on=datetime.date(2026, 12, 5),
        format=fmt,
        seeding="manual",
        prizes=["Кубок", "Мешок муки", "Торт"],
        **kw,
    )


def _alternate(m):
    """Game 1 to home, game 2 to away, game 3 to home...: a best of 3 ends 2-1, a best of 5 3-2."""
    return "home" if m.game % 2 else "away"


def _play_out(rnd, organiser, winner=_alternate):
    """Play the round's games, and each next game of a series as it appears, until the round is done."""
    for _ in range(10):
        if not Match.objects.filter(round=rnd, status=MatchStatus.SCHEDULED).exists():
            return
        play_round(rnd, organiser, winner=winner)
    raise AssertionError("the round never ended")


def _run(t, organiser, limit=20):
    for _ in range(limit):
        t.refresh_from_db()
        if t.status == TournamentStatus.FINISHED:
            return
        _play_out(services.pair_next_round(actor=organiser, tournament=t), organiser)
    raise AssertionError("the event did not finish")


def test_series_lengths_are_odd_and_fixed_at_the_start(club, organiser):
    with pytest.raises(ValidationError, match="1, 3 or 5 matches"):
        _create(club, organiser, "double_elim", best_of=2)
    with pytest.raises(ValidationError, match="1, 3 or 5 matches"):
        _create(club, organiser, "single_elim", final_best_of=4)
    t = _create(club, organiser, "groups_playoff", best_of=3, final_best_of=5)
    assert (t.best_of, t.final_best_of) == (3, 5)
    register_pairs(t, organiser, 4)
    services.pair_next_round(actor=organiser, tournament=t)
    with pytest.raises(ValidationError, match="cannot change once the first round is paired"):
        services.update_tournament(actor=organiser, tournament=t, final_best_of=3)
    t.refresh_from_db()
    assert t.final_best_of == 5


def test_a_rounds_own_series_length_is_odd_too(club, organiser):
    t = _create(club, organiser, "single_elim")
    register_pairs(t, organiser, 4)
    rnd = services.pair_next_round(actor=organiser, tournament=t)
    with pytest.raises(ValidationError, match="1, 3 or 5 matches"):  # a 1–1 tie would never end
        services.set_round_options(actor=organiser, round=rnd, deadline=None, best_of=2)
    rnd.refresh_from_db()
    assert rnd.best_of is None
    services.set_round_options(actor=organiser, round=rnd, deadline=None, best_of=3)
    rnd.refresh_from_db()
    assert rnd.best_of == 3


def test_double_elimination_plays_best_of_three_ties_and_a_best_of_five_final(club, organiser, client):
    t = _create(club, organiser, "double_elim", best_of=3, final_best_of=5, grand_final_reset=False)
    entries = register_pairs(t, organiser, 4)
    r1 = services.pair_next_round(actor=organiser, tournament=t)
    first = r1.matches.get(bracket="winners", slot=0)
    play_round(r1, organiser, winner=lambda m: "home")
    # the second game of each tie is there once the first is confirmed, between the same pairs
    second = Match.objects.get(round=r1, bracket="winners", slot=0, game=2)
    assert (second.home_id, second.away_id, second.stage) == (first.home_id, first.away_id, first.stage)
    assert r1.matches.count() == 4
    _play_out(r1, organiser, winner=lambda m: "home")
    assert r1.matches.count() == 4, "2-0 ends a best of three: no third game"
    _run(t, organiser)
    finals = Match.objects.filter(tournament=t, bracket="final").order_by("game")
    assert [g.game for g in finals] == [1, 2, 3, 4, 5], "the final is a best of five, 3-2"
    final_winner = finals[0].home_id
    view = selectors.double_elim_view(tournament=t)
    assert view.champion.pk == final_winner
    grand = view.finals[0]
    assert (grand.top_wins, grand.bottom_wins, grand.best_of) == (3, 2, 5)
    losers_ties = Match.objects.filter(tournament=t, bracket="losers")
    assert all(losers_ties.filter(stage=m.stage, slot=m.slot).count() == 3 for m in losers_ties)
    assert selectors.prize_list(tournament=t)[0].winners[0].pk == final_winner
    assert {e.pk for e in entries} >= {final_winner}
    page = client.get(reverse("tournaments:standings", args=[t.slug])).content.decode()
    assert "best of 5" in page and "best of 3" in page
    assert "won the final 3–2" in page and "lost the final 2–3" in page
    assert page.count(">7:12</a>") >= 2, "each game's result is shown beside the series score"


def test_groups_then_playoff_series_in_the_playoff_only_and_a_final_of_its_own_length(
    club, organiser, client
):
    t = _create(
        club, organiser, "groups_playoff", group_count=2, group_qualifiers=2, best_of=3, final_best_of=1
    )
    register_pairs(t, organiser, 8)
    _run(t, organiser)
    assert not Match.objects.filter(tournament=t, bracket="group", game__gt=1).exists(), (
        "groups: single matches"
    )
    semis = Match.objects.filter(tournament=t, bracket="playoff", stage=1)
    assert sorted(semis.values_list("slot", flat=True)) == [0, 0, 0, 1, 1, 1], "two semifinals of three games"
    final = Match.objects.filter(tournament=t, bracket="playoff", stage=2, slot=0)
    assert final.count() == 1, "the final is one match"
    view = selectors.groups_view(tournament=t)
    semi = view.playoff[0].cells[0]
    assert (semi.top_wins, semi.bottom_wins, semi.best_of) == (2, 1, 3)
    assert semi.winner.pk == semis.filter(slot=0).first().home_id
    assert view.champion is not None and not view.final.series
    page = client.get(reverse("tournaments:bracket", args=[t.slug])).content.decode()
    assert "best of 3" in page and "won the final" not in page


def test_a_forfeit_forfeits_the_series_and_each_game_goes_through_the_players_report(club, organiser):
    t = _create(club, organiser, "double_elim", best_of=3)
    players = [player_with_account(club, name) for name in ("asel", "bolat", "dana", "erlan")]
    home = services.register_entry(actor=organiser, tournament=t, player_a=players[0], player_b=players[1])
    others = register_pairs(t, organiser, 2)  # seeds 2 and 3 meet; seed 1 meets seed 4
    away = services.register_entry(actor=organiser, tournament=t, player_a=players[2], player_b=players[3])
    r1 = services.pair_next_round(actor=organiser, tournament=t)
    ours = r1.matches.get(home_id=home.pk)
    assert ours.away_id == away.pk
    # game 1: reported by a player, confirmed by the other pair; only then the second game appears
    services.enter_result(actor=players[0].user, match=ours, home_eyes=12, away_eyes=4)
    assert not r1.matches.filter(game=2, slot=ours.slot).exists()
    services.confirm_result(actor=players[2].user, match=ours)
    game2 = r1.matches.get(game=2, slot=ours.slot)
    assert game2.status == MatchStatus.SCHEDULED
    # the pair that led 1-0 does not come to game 2: it loses the series, no third game
    services.record_forfeit(actor=organiser, match=game2, loser=home)
    tie = r1.matches.filter(slot=ours.slot, bracket="winners").order_by("game")
    assert tie.count() == 2
    other = r1.matches.exclude(slot=ours.slot).get(game=1)
    services.withdraw_entry(actor=organiser, entry=other.away)  # a withdrawal forfeits the whole series
    assert r1.matches.filter(slot=other.slot).count() == 1
    r1.refresh_from_db()
    assert r1.status == "complete"
    r2 = services.pair_next_round(actor=organiser, tournament=t)
    winners_final = r2.matches.get(bracket="winners")
    assert {winners_final.home_id, winners_final.away_id} == {away.pk, other.home_id}
    assert other.home_id == others[0].pk
