"""Best-of-N ties in the bracket formats on the real database: settings, games, a forfeit, the pages."""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from tests.clubs.factories import PASSWORD
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


def test_a_forfeit_loses_one_game_not_the_series_and_each_game_goes_through_the_players_report(
    club, organiser
):
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
    # the pair that led 1-0 does not come to game 2: it loses that game 0:12, the tie stands 1-1
    # and game 3 decides it (the forfeit is not of the tie)
    services.record_forfeit(actor=organiser, match=game2, loser=home)
    tie = r1.matches.filter(slot=ours.slot, bracket="winners").order_by("game")
    assert [(g.game, g.status, g.forfeit) for g in tie] == [
        (1, MatchStatus.CONFIRMED, False),
        (2, MatchStatus.CONFIRMED, True),
        (3, MatchStatus.SCHEDULED, False),
    ]
    r1.refresh_from_db()
    assert r1.status == "playing"  # the tie is not decided, so neither is the round
    game3 = tie.get(game=3)
    assert (game3.home_id, game3.away_id) == (home.pk, away.pk)
    services.enter_result(actor=players[0].user, match=game3, home_eyes=12, away_eyes=7)
    services.confirm_result(actor=players[2].user, match=game3)
    other = r1.matches.exclude(slot=ours.slot).get(game=1)
    # a pair that leaves loses each game still to come by forfeit, so the other wins the tie 2-0
    services.withdraw_entry(actor=organiser, entry=other.away)
    games = r1.matches.filter(slot=other.slot).order_by("game")
    assert [(g.game, g.winner_id, g.forfeit) for g in games] == [
        (1, other.home_id, True),
        (2, other.home_id, True),
    ]
    r1.refresh_from_db()
    assert r1.status == "complete"
    r2 = services.pair_next_round(actor=organiser, tournament=t)
    winners_final = r2.matches.get(bracket="winners")
    assert {winners_final.home_id, winners_final.away_id} == {home.pk, other.home_id}
    assert other.home_id == others[0].pk


def _best_of_3_with_game_1_won_by_home(club, organiser):
    t = _create(club, organiser, "single_elim", best_of=3)
    register_pairs(t, organiser, 4)
    rnd = services.pair_next_round(actor=organiser, tournament=t)
    game1 = rnd.matches.filter(bye=False).order_by("slot").first()
    services.correct_result(actor=organiser, match=game1, home_eyes=12, away_eyes=5, reason="sheet")
    return t, rnd, game1, rnd.matches.get(slot=game1.slot, game=2)


def test_the_forfeit_page_says_the_tie_goes_on_and_the_forfeit_loses_one_game(client, club, organiser):
    t, rnd, game1, game2 = _best_of_3_with_game_1_won_by_home(club, organiser)
    client.login(username="organiser", password=PASSWORD)
    url = reverse("tournaments:forfeit", args=[t.slug, game2.pk, game2.home_id])
    page = client.get(url).content.decode()
    away = game2.away.name.replace("&", "&amp;")
    assert f"Match 2 of the tie goes to {away} 12:0" in page
    assert "forfeit this match, not the tie" in page
    assert "The tie stands 1:1; match 3 decides it." in page
    assert "win the tie" not in page
    client.post(url)
    games = list(rnd.matches.filter(slot=game1.slot).order_by("game"))
    assert [(g.game, g.status, g.winner_id) for g in games] == [
        (1, MatchStatus.CONFIRMED, game1.home_id),
        (2, MatchStatus.CONFIRMED, game1.away_id),
        (3, MatchStatus.SCHEDULED, None),
    ]


def test_the_forfeit_page_says_when_a_forfeit_decides_the_tie(client, club, organiser):
    t, rnd, game1, game2 = _best_of_3_with_game_1_won_by_home(club, organiser)
    client.login(username="organiser", password=PASSWORD)
    url = reverse("tournaments:forfeit", args=[t.slug, game2.pk, game2.away_id])
    page = client.get(url).content.decode()
    home = game2.home.name.replace("&", "&amp;")
    assert f"{home} win the tie 2:0." in page
    assert "decides it" not in page
    client.post(url)
    assert rnd.matches.filter(slot=game1.slot).count() == 2  # no third game: the tie is decided


def test_a_single_match_forfeit_page_keeps_its_plain_words(client, club, organiser):
    t = _create(club, organiser, "single_elim")
    register_pairs(t, organiser, 4)
    m = services.pair_next_round(actor=organiser, tournament=t).matches.filter(bye=False).first()
    client.login(username="organiser", password=PASSWORD)
    page = client.get(reverse("tournaments:forfeit", args=[t.slug, m.pk, m.home_id])).content.decode()
    assert "lose this match 0:12" in page and "of the tie" not in page


def test_a_tie_a_forfeit_ended_under_the_earlier_rule_stays_decided(club, organiser):
    """Before a forfeit lost only its game, it lost the tie: such a tie (1:1 after a forfeit, no
    game 3) stays decided for the forfeit's winner once migration 0026 marks its last game; a tie
    a forfeit leaves undecided today goes on to its next game, so it is never marked."""
    import importlib

    from django.apps import apps

    from tournaments.formats.series import tie_outcome

    t, rnd, game1, game2 = _best_of_3_with_game_1_won_by_home(club, organiser)
    # the earlier rule's state: game 2 forfeited by home, and no game 3 was made
    Match.objects.filter(pk=game2.pk).update(
        home_eyes=0, away_eyes=12, forfeit=True, winner=game2.away_id, status=MatchStatus.CONFIRMED
    )
    tie = list(rnd.matches.filter(slot=game1.slot).order_by("game"))
    assert [g.game for g in tie] == [1, 2]
    assert tie_outcome(tie, 3).winner is None  # read by today's rule alone: undecided

    migration = importlib.import_module("tournaments.migrations.0026_forfeits_that_ended_ties")
    migration.mark(apps, None)

    tie = list(rnd.matches.filter(slot=game1.slot).order_by("game"))
    assert [g.ends_tie for g in tie] == [False, True]
    outcome = tie_outcome(tie, 3)
    assert (outcome.top_wins, outcome.bottom_wins, outcome.winner) == (1, 1, "bottom")

    # a forfeit today: the other tie's game 2 lost by forfeit at 1:0 goes on to game 3, unmarked
    other1 = rnd.matches.filter(bye=False).exclude(slot=game1.slot).order_by("slot").first()
    services.correct_result(actor=organiser, match=other1, home_eyes=12, away_eyes=5, reason="sheet")
    other2 = rnd.matches.get(slot=other1.slot, game=2)
    services.record_forfeit(actor=organiser, match=other2, loser=other2.home)
    assert rnd.matches.filter(slot=other1.slot, game=3).exists()
    migration.mark(apps, None)
    assert not rnd.matches.filter(slot=other1.slot, ends_tie=True).exists()
