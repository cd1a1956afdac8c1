"""Every format on the real database: create, register, pair every round, results, standings, prizes."""

import datetime

import pytest
from django.core.exceptions import ValidationError

from tournaments import selectors, services
from tournaments.models import EntryStatus, Match, MatchStatus, ResultCorrection, TournamentStatus

from .conftest import play_round, register_pairs

pytestmark = pytest.mark.django_db


def _create(club, organiser, fmt, **kw):
    kw.setdefault("prizes", ["Кубок", "Мешок муки", "Торт"])
    return services.create_tournament(
        actor=organiser,
        club=club,
        name=f"Чемпионат Успенки {fmt}",
        starts_on=datetime.date(2026, 10, 2),
        format=fmt,
        **kw,
    )


def _pairs_met(t):
    return [frozenset((m.home_id, m.away_id)) for m in Match.objects.filter(tournament=t, bye=False)]


def test_swiss_odd_field_with_withdrawal_and_correction(club, organiser):
    t = _create(club, organiser, "swiss", swiss_rounds=4)
    entries = register_pairs(t, organiser, 7)
    quitter = None
    for number in range(1, 5):
        rnd = services.pair_next_round(actor=organiser, tournament=t)
        byes = rnd.matches.filter(bye=True)
        active = t.entries.filter(status__in=(EntryStatus.APPROVED, EntryStatus.CHECKED_IN)).count()
        assert byes.count() == active % 2
        if quitter is not None:
            assert (
                not rnd.matches.filter(home=quitter).exists()
                and not rnd.matches.filter(away=quitter).exists()
            )
        play_round(rnd, organiser, winner=lambda m: "home" if m.table % 2 else "away")
        if number == 2:
            quitter = entries[3]
            services.withdraw_entry(actor=organiser, entry=quitter)
            first = Match.objects.filter(round__number=1, tournament=t, bye=False).first()
            services.correct_result(
                actor=organiser,
                match=first,
                home_eyes=first.away_eyes,
                away_eyes=first.home_eyes,
                reason="перепутали",
            )
    met = _pairs_met(t)
    assert len(met) == len(set(met)), "no rematch in a Swiss of 7 over 4 rounds"
    bye_takers = list(Match.objects.filter(tournament=t, bye=True).values_list("home_id", flat=True))
    assert len(bye_takers) == len(set(bye_takers)), "nobody gets a second bye"
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    table = selectors.standings(tournament=t)
    assert len(table.lines) == 7
    withdrawn_line = next(line for line in table.lines if line.entry.pk == quitter.pk)
    assert withdrawn_line.row.withdrawn and withdrawn_line.row.played + withdrawn_line.row.byes == 2
    points = [line.row.match_points for line in table.lines]
    assert points == sorted(points, reverse=True)
    assert table.lines[0].prize == "Кубок"
    prizes = selectors.prize_list(tournament=t)
    assert prizes[0].winners == [line.entry for line in table.lines if line.row.place == 1]
    correction = ResultCorrection.objects.get()
    assert correction.actor == organiser and correction.reason == "перепутали"
    assert correction.before["winner_id"] != correction.after["winner_id"]


def test_round_robin_single_odd_with_withdrawal(club, organiser):
    t = _create(club, organiser, "round_robin", matchday_days=7, seeding="manual")
    entries = register_pairs(t, organiser, 5)
    rounds = []
    for number in range(1, 6):
        rnd = services.pair_next_round(actor=organiser, tournament=t)
        rounds.append(rnd)
        assert rnd.deadline is not None and rnd.deadline.date() == datetime.date(
            2026, 10, 2
        ) + datetime.timedelta(days=7 * number)
        play_round(rnd, organiser)
        if number == 3:
            services.withdraw_entry(actor=organiser, entry=entries[4])
    with pytest.raises(Exception, match="finished"):
        services.pair_next_round(actor=organiser, tournament=t)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    met = _pairs_met(t)
    assert len(met) == len(set(met))
    quitter_games = [
        m for m in Match.objects.filter(tournament=t, bye=False) if entries[4].pk in (m.home_id, m.away_id)
    ]
    assert all(m.round.number <= 3 for m in quitter_games) and quitter_games, (
        "played results stay, later ones skip"
    )
    byes = list(Match.objects.filter(tournament=t, bye=True).values_list("home_id", flat=True))
    assert len(byes) == len(set(byes))
    grid = selectors.crosstable(tournament=t)
    assert len(grid.rows) == 5
    first_line, cells = grid.rows[0]
    assert sum(1 for c in cells if c) == first_line.row.played


def test_double_round_robin_everyone_meets_twice(club, organiser):
    t = _create(club, organiser, "round_robin", double_round_robin=True)
    register_pairs(t, organiser, 4)
    for _ in range(6):
        play_round(
            services.pair_next_round(actor=organiser, tournament=t),
            organiser,
            loser_eyes=lambda m: m.table + 3,
        )
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    met = _pairs_met(t)
    assert all(met.count(pair) == 2 for pair in set(met)) and len(set(met)) == 6
    table = selectors.standings(tournament=t)
    assert sum(line.row.match_points for line in table.lines) == 12
    assert table.tiebreaks[0] == "head_to_head"


def test_knockout_with_byes_third_place_and_best_of_three(club, organiser):
    t = _create(club, organiser, "single_elim", seeding="manual", third_place=True, best_of=3)
    entries = register_pairs(t, organiser, 6)
    r1 = services.pair_next_round(actor=organiser, tournament=t)
    byes = set(r1.matches.filter(bye=True).values_list("home_id", flat=True))
    assert byes == {entries[0].pk, entries[1].pk}, "the byes go to the top seeds"
    for number in (1, 2, 3):
        rnd = t.rounds.get(number=number)
        for _ in range(3):  # best of three: the second match appears after the first
            play_round(rnd, organiser)
        assert rnd.matches.filter(bye=False).exclude(status=MatchStatus.CONFIRMED).count() == 0
        if number < 3:
            services.pair_next_round(actor=organiser, tournament=t)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    view = selectors.bracket(tournament=t)
    assert view.champion == entries[0]  # the higher seed is listed first (home) and home always won
    assert [p for p, _e, _prize in view.places] == [1, 2, 3, 4, 5, 5]  # the first round's losers share 5–6
    assert view.third_place is not None and view.third_place.winner is not None
    final_games = Match.objects.filter(tournament=t, round__number=3, slot=0)
    assert final_games.count() == 2, "a best of three ends 2:0"
    prizes = selectors.prize_list(tournament=t)
    assert prizes[0].winners == [entries[0]] and prizes[2].prize == "Торт" and prizes[2].winners


def test_knockout_withdrawal_is_a_forfeit_and_the_bracket_goes_on(club, organiser):
    t = _create(club, organiser, "single_elim", seeding="manual")
    entries = register_pairs(t, organiser, 4)
    r1 = services.pair_next_round(actor=organiser, tournament=t)
    services.withdraw_entry(actor=organiser, entry=entries[3])  # seed 4 meets seed 1
    forfeited = r1.matches.get(slot=0)
    assert (
        forfeited.forfeit
        and forfeited.winner_id == entries[0].pk
        and (forfeited.home_eyes, forfeited.away_eyes) == (12, 0)
    )
    play_round(r1, organiser)
    final = services.pair_next_round(actor=organiser, tournament=t)
    play_round(final, organiser, winner=lambda m: "away")
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    assert selectors.bracket(tournament=t).champion.pk in (entries[1].pk, entries[2].pk)


def test_knockout_correction_cannot_change_who_is_in_the_next_round(club, organiser):
    t = _create(club, organiser, "single_elim", seeding="manual")
    register_pairs(t, organiser, 4)
    r1 = services.pair_next_round(actor=organiser, tournament=t)
    play_round(r1, organiser)
    services.pair_next_round(actor=organiser, tournament=t)
    m = r1.matches.first()
    with pytest.raises(Exception, match="already paired"):
        services.correct_result(actor=organiser, match=m, home_eyes=5, away_eyes=12)
    # same winner: fine (with a reason, as the next round is paired)
    services.correct_result(actor=organiser, match=m, home_eyes=12, away_eyes=2, reason="sheet")
    assert Match.objects.get(pk=m.pk).away_eyes == 2


@pytest.mark.parametrize("n", [2, 3, 8, 9])
def test_swiss_small_and_odd_fields_pair_every_round(club, organiser, n):
    t = _create(club, organiser, "swiss", swiss_rounds=min(3, n - 1 + n % 2))
    register_pairs(t, organiser, n)
    for _ in range(t.swiss_rounds):
        play_round(services.pair_next_round(actor=organiser, tournament=t), organiser)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    assert len(selectors.standings(tournament=t).lines) == n
    assert all(m.status == MatchStatus.CONFIRMED for m in Match.objects.filter(tournament=t))


def test_a_swiss_can_be_made_longer_but_not_shorter_than_what_was_paired(club, organiser):
    t = _create(club, organiser, "swiss", swiss_rounds=2)
    register_pairs(t, organiser, 4)
    for _ in range(2):
        play_round(services.pair_next_round(actor=organiser, tournament=t), organiser)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    with pytest.raises(ValidationError, match="cannot be shorter"):
        services.update_tournament(actor=organiser, tournament=t, swiss_rounds=1)
    with pytest.raises(ValidationError, match="format and seeding cannot change"):
        services.update_tournament(actor=organiser, tournament=t, format="round_robin")
    services.update_tournament(actor=organiser, tournament=t, swiss_rounds=3)
    t.refresh_from_db()
    assert t.status == TournamentStatus.RUNNING
    rnd = services.pair_next_round(actor=organiser, tournament=t)
    assert rnd.number == 3


def test_best_of_three_decider_and_a_correction_that_would_orphan_it(club, organiser):
    t = _create(club, organiser, "single_elim", best_of=3, seeding="manual")
    register_pairs(t, organiser, 2)
    final = services.pair_next_round(actor=organiser, tournament=t)
    winners = iter(["home", "away", "home"])
    for _ in range(3):
        play_round(final, organiser, winner=lambda m: next(winners))
    games = list(Match.objects.filter(round=final).order_by("game"))
    assert [g.game for g in games] == [1, 2, 3]
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    with pytest.raises(ValidationError, match="already played"):
        services.correct_result(actor=organiser, match=games[1], home_eyes=12, away_eyes=3, reason="sheet")
    assert Match.objects.get(pk=games[1].pk).away_eyes == 12  # nothing saved
    assert selectors.bracket(tournament=t).champion.pk == games[0].home_id


def test_a_league_shows_its_coming_matchdays_as_they_will_be_paired(club, organiser):
    t = _create(club, organiser, "round_robin", matchday_days=7, seeding="manual")
    entries = register_pairs(t, organiser, 5)
    play_round(services.pair_next_round(actor=organiser, tournament=t), organiser)
    services.withdraw_entry(actor=organiser, entry=entries[2])
    t.refresh_from_db()
    coming = selectors.coming_matchdays(tournament=t)
    assert [day.number for day in coming] == [2, 3, 4, 5]
    assert all(entries[2] not in pair for day in coming for pair in day.games)
    rnd = services.pair_next_round(actor=organiser, tournament=t)
    paired = [(m.home_id, m.away_id) for m in rnd.matches.filter(bye=False).order_by("table")]
    assert paired == [(h.pk, a.pk) for h, a in coming[0].games]
    assert rnd.deadline == coming[0].deadline


def test_settings_errors_name_the_field_in_words(club, organiser):
    with pytest.raises(ValidationError, match="Swiss rounds must be at least 1"):
        _create(club, organiser, "swiss", swiss_rounds=0)
    with pytest.raises(ValidationError, match="rules.deck"):
        _create(club, organiser, "swiss", rules={"deck": "52"})
