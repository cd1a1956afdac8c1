"""Individual events on the real database: players alone, rotating partners, byes, no-shows, withdrawal."""

import datetime
from collections import Counter

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from tournaments import services
from tournaments import services as ind
from tournaments.models import (
    Entry,
    EntryStatus,
    Match,
    MatchStatus,
    ResultCorrection,
    Seat,
    SeatName,
    TournamentStatus,
)
from tournaments.selectors import prize_list
from tournaments.selectors import standings as individual_standings_view

from ..conftest import make_players, play_round, player_with_account

pytestmark = pytest.mark.django_db


def _create(club, organiser, fmt, rounds, **kw):
    return services.create_tournament(
        actor=organiser,
        club=club,
        name=f"Индивидуальный турнир {fmt}",
        starts_on=datetime.date(2026, 11, 7),
        format=fmt,
        swiss_rounds=rounds,
        prizes=["Кубок", "Мешок муки"],
        **kw,
    )


def _enter(t, organiser, n):
    return [ind.register_player(actor=organiser, tournament=t, player=p) for p in make_players(t.club, n)]


def _partners(t):
    out = Counter()
    for m in Match.objects.filter(tournament=t).select_related("home", "away"):
        for e in (m.home, m.away):
            out[frozenset((e.player_a_id, e.player_b_id))] += 1
    return out


@pytest.mark.parametrize("fmt", ["ind_movement", "ind_swiss"])
def test_odd_field_with_withdrawal_no_show_and_correction(club, organiser, fmt):
    t = _create(club, organiser, fmt, rounds=5)
    players = _enter(t, organiser, 11)
    quitter = None
    for number in range(1, 6):
        rnd = services.pair_next_round(actor=organiser, tournament=t)
        seats = list(Seat.objects.filter(round=rnd))
        playing = t.individual_entries.filter(status=EntryStatus.APPROVED).count()
        byes = [s for s in seats if s.seat == SeatName.BYE]
        assert len(byes) == playing % 4, "the leftovers sit out"
        assert rnd.matches.count() == playing // 4
        assert sorted(Seat.objects.filter(round=rnd).exclude(seat="bye").values_list("table", flat=True)) == [
            n for n in range(1, playing // 4 + 1) for _ in range(4)
        ]
        if quitter is not None:
            assert not Seat.objects.filter(round=rnd, entry=quitter).exists(), "withdrawn: no seat"
        if number == 2:
            # a no-show at table 1: his partnership loses 12:0
            absentee_seat = Seat.objects.get(round=rnd, table=1, seat=SeatName.EAST)
            match = absentee_seat.match
            ind.record_no_show(actor=organiser, match=match, entry=absentee_seat.entry)
            match.refresh_from_db()
            assert (match.home_eyes, match.away_eyes, match.forfeit) == (12, 0, True)
        if number == 3:
            # a player who was neither the no-show of round 2 nor his partner
            r2 = Seat.objects.filter(round__tournament=t, round__number=2, table=1, seat__in=("E", "W"))
            quitter = (
                Seat.objects.filter(round=rnd, seat__in=(SeatName.NORTH, SeatName.SOUTH))
                .exclude(entry__in=r2.values("entry"))
                .first()
                .entry
            )
            ind.withdraw_player(actor=organiser, entry=quitter)
            his = Seat.objects.get(round=rnd, entry=quitter).match
            his.refresh_from_db()
            assert his.status == MatchStatus.CONFIRMED and his.forfeit and his.winner_id == his.away_id
        play_round(rnd, organiser, winner=lambda m: "home" if m.table % 2 else "away")
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED

    # nobody partners the same player twice (11 players, 5 rounds: avoidable)
    assert max(_partners(t).values()) == 1
    # byes spread fairly: nobody sits out twice while another player still playing never did
    bye_count = Counter(
        Seat.objects.filter(round__tournament=t, seat="bye").values_list("entry_id", flat=True)
    )
    stayed = [e.pk for e in players if e.pk != quitter.pk]
    assert max(bye_count[p] for p in stayed) - min(bye_count[p] for p in stayed) <= 1

    # a correction: logged, and the standings follow
    first = Match.objects.filter(tournament=t, round__number=1).order_by("table").first()
    before = individual_standings_view(tournament=t)
    north = Seat.objects.get(match=first, seat=SeatName.NORTH).entry_id
    old_points = next(line.row.match_points for line in before.lines if line.entry.pk == north)
    services.correct_result(
        actor=organiser,
        match=first,
        home_eyes=first.away_eyes,
        away_eyes=first.home_eyes,
        reason="перепутали",
    )
    assert ResultCorrection.objects.filter(match=first, reason="перепутали").exists()
    after = individual_standings_view(tournament=t)
    new_points = next(line.row.match_points for line in after.lines if line.entry.pk == north)
    assert new_points == old_points - 1, "North lost the table he had won"

    lines = after.lines
    assert len(lines) == 11
    assert [line.row.place for line in lines] == sorted(line.row.place for line in lines)
    withdrawn = next(line for line in lines if line.entry.pk == quitter.pk)
    assert withdrawn.row.withdrawn and withdrawn.row.forfeits >= 1
    # the no-show of round 2 took a forfeit; his partner won that table
    r2 = Seat.objects.get(round__tournament=t, round__number=2, table=1, seat=SeatName.EAST)
    partner = Seat.objects.get(round__tournament=t, round__number=2, table=1, seat=SeatName.WEST)
    rows = {line.entry.pk: line.row for line in lines}
    assert rows[r2.entry_id].forfeits >= 1
    assert rows[partner.entry_id].forfeits == 0
    # every player played (or sat out) each round he was in: 5 per player, fewer for the quitter
    assert all(r.played + r.byes == 5 for p, r in rows.items() if p != quitter.pk)
    prizes = prize_list(tournament=t)
    assert prizes[0].winners and prizes[0].prize == "Кубок"
    assert {p.pk for p in players} == set(rows)


def test_refusals(club, organiser, member, outsider):
    t = _create(club, organiser, "ind_swiss", rounds=2)
    p = make_players(club, 1, "Одиночка")[0]
    with pytest.raises(PermissionDenied):
        ind.register_player(actor=member, tournament=t, player=p)
    ind.register_player(actor=organiser, tournament=t, player=p)
    with pytest.raises(ValidationError, match="already registered"):
        ind.register_player(actor=organiser, tournament=t, player=p)
    a, b = make_players(club, 2, "Пара")
    with pytest.raises(ValidationError, match="enter alone"):
        services.register_entry(actor=organiser, tournament=t, player_a=a, player_b=b)
    with pytest.raises(ValidationError, match="four players"):
        services.pair_next_round(actor=organiser, tournament=t)
    _enter(t, organiser, 4)
    with pytest.raises(PermissionDenied):
        services.pair_next_round(actor=member, tournament=t)
    rnd = services.pair_next_round(actor=organiser, tournament=t)
    with pytest.raises(ValidationError, match="not complete"):
        services.pair_next_round(actor=organiser, tournament=t)
    match = rnd.matches.first()
    with pytest.raises(PermissionDenied):
        services.enter_result(actor=outsider, match=match, home_eyes=12, away_eyes=3)
    entry = t.individual_entries.exclude(seats__round=rnd, seats__seat="bye").first()
    with pytest.raises(PermissionDenied):
        ind.withdraw_player(actor=member, entry=entry)
    with pytest.raises(PermissionDenied):
        ind.record_no_show(actor=member, match=match, entry=entry)
    partnership = Entry.objects.filter(tournament=t).first()
    with pytest.raises(ValidationError, match="withdraw the player"):
        services.withdraw_entry(actor=organiser, entry=partnership)


def test_players_confirm_their_table_with_accounts(club, organiser):
    """A player reports his table's score from his phone; a player of the other partnership confirms."""
    t = _create(club, organiser, "ind_movement", rounds=1)
    people = [player_with_account(club, f"igrok{i}") for i in range(4)]
    for p in people:
        ind.register_player(actor=organiser, tournament=t, player=p)
    rnd = services.pair_next_round(actor=organiser, tournament=t)
    match = rnd.matches.get()
    north = Seat.objects.get(match=match, seat=SeatName.NORTH).entry.player.user
    east = Seat.objects.get(match=match, seat=SeatName.EAST).entry.player.user
    south = Seat.objects.get(match=match, seat=SeatName.SOUTH).entry.player.user
    services.enter_result(actor=north, match=match, home_eyes=12, away_eyes=9)
    with pytest.raises(PermissionDenied):
        services.confirm_result(actor=south, match=match)
    services.confirm_result(actor=east, match=match)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    table = individual_standings_view(tournament=t)
    top = {line.entry.player.user_id for line in table.lines if line.row.place == 1}
    assert top == {north.pk, south.pk}


def test_pages_queries_do_not_grow_with_players(club, organiser):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tournaments.selectors import seated_round

    counts = []
    for n in (5, 25):
        t = _create(club, organiser, "ind_swiss", rounds=2)
        for p in make_players(club, n, f"Q{n}"):
            ind.register_player(actor=organiser, tournament=t, player=p)
        for _ in range(2):
            play_round(services.pair_next_round(actor=organiser, tournament=t), organiser)
        with CaptureQueriesContext(connection) as ctx:
            individual_standings_view(tournament=t)
            seated_round(tournament=t, number=2)
        counts.append(len(ctx.captured_queries))
    assert counts[0] == counts[1] <= 6


def test_correcting_a_no_show_into_a_played_table(club, organiser):
    """The organiser learns the absentee did play: the forfeit goes, the score counts, the log keeps both."""
    t = _create(club, organiser, "ind_swiss", rounds=1)
    _enter(t, organiser, 4)
    rnd = services.pair_next_round(actor=organiser, tournament=t)
    match = rnd.matches.get()
    east = Seat.objects.get(match=match, seat=SeatName.EAST).entry
    ind.record_no_show(actor=organiser, match=match, entry=east)
    rows = {line.entry.pk: line.row for line in individual_standings_view(tournament=t).lines}
    assert rows[east.pk].forfeits == 1 and rows[east.pk].match_points == 0
    west = Seat.objects.get(match=match, seat=SeatName.WEST).entry
    assert rows[west.pk].match_points == 1, "the absentee's partner is scored a win"
    services.correct_result(actor=organiser, match=match, home_eyes=8, away_eyes=12, reason="пришёл")
    rows = {line.entry.pk: line.row for line in individual_standings_view(tournament=t).lines}
    assert rows[east.pk].forfeits == 0 and rows[east.pk].match_points == 1 and rows[east.pk].eyes_for == 12
    assert ResultCorrection.objects.filter(match=match).count() == 2


def test_standings_follow_the_tiebreak_order_the_event_states(client, club, organiser):
    """The event says "Buchholz, then eye difference": players level on points are ranked so, and
    the standings page says that order (not a fixed eye-difference-first order of its own)."""
    t = _create(club, organiser, "ind_swiss", rounds=3, seeding="manual",
                tiebreaks=["buchholz", "eye_difference", "eyes_scored"])  # fmt: skip
    _enter(t, organiser, 8)
    for _ in range(3):
        rnd = services.pair_next_round(actor=organiser, tournament=t)
        play_round(rnd, organiser, winner=lambda m: "home" if m.table % 2 else "away",
                   loser_eyes=lambda m: (3 * m.table + m.round.number) % 11)  # fmt: skip
    lines = individual_standings_view(tournament=t).lines
    keys = [(r.match_points, r.buchholz, r.eye_difference, r.eyes_for) for r in (line.row for line in lines)]
    assert keys == sorted(keys, reverse=True), "ranked by points, Buchholz, eye difference, eyes"
    contradicted = [
        (a, b) for a, b in zip(keys, keys[1:], strict=False) if a[0] == b[0] and a[1] > b[1] and a[2] < b[2]
    ]
    assert contradicted, "the field has a tie that Buchholz and eye difference break the other way round"
    assert individual_standings_view(tournament=t).tiebreaks == ["buchholz", "eye_difference", "eyes_scored"]
    client.force_login(organiser)
    page = client.get(f"/t/{t.slug}/standings/").content.decode()
    assert "Tiebreaks in order: Buchholz, Eye difference, Eyes scored." in page
