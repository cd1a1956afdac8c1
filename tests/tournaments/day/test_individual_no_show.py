"""The automatic no-show of an online individual round scores exactly as the organiser's no-show.

Partners change every round, so a player who never came to his live table forfeits alone: his
partner and their opponents are scored a win, as when the organiser marks him on the
round page (``services.record_no_show``). Table 1 gets the automatic no-show, table 2
the organiser's for the same seats; every player's line must read the same.
"""

import pytest
from django.utils import timezone

from clubs.models import AuditEntry
from gameplay.models import Seat as TableSeat
from gameplay.models import Table, TableStatus
from tournaments import services
from tournaments import services as ind
from tournaments.models import (
    ActionKind,
    DaySettings,
    MatchStatus,
    Notification,
    ResultCorrection,
    ScheduledAction,
    Seat,
)
from tournaments.selectors import standings as individual_standings_view
from tournaments.services import online, runner

from ..conftest import player_with_account

pytestmark = pytest.mark.django_db


@pytest.fixture
def round1(club, organiser):
    """Round 1 of an online individual event of eight players with accounts: two live tables open."""
    t = services.create_tournament(
        actor=organiser,
        club=club,
        name="Онлайн-индивидуалка",
        format="ind_swiss",
        swiss_rounds=3,
        seeding="manual",
        play_mode="online",
        online=True,
    )
    for i in range(8):
        ind.register_player(actor=organiser, tournament=t, player=player_with_account(club, f"ind-p{i}"))
    DaySettings.objects.create(tournament=t, auto_pair=False)
    rnd = services.pair_next_round(actor=organiser, tournament=t)
    runner.run_due()  # the round's start opens the live tables
    assert rnd.matches.filter(live_table__isnull=False).count() == 2
    return rnd


def _seats(rnd, table: int) -> dict[str, Seat]:
    return {s.seat: s for s in Seat.objects.filter(round=rnd, table=table).select_related("entry__player")}


def _come(rnd, *, away: dict[int, list[str]]) -> None:
    """Everyone takes his live seat except the players ``away`` names (table number: seat names)."""
    for match in rnd.matches.all():
        missing = [_seats(rnd, match.table)[name].entry.player.user_id for name in away.get(match.table, [])]
        TableSeat.objects.filter(table_id=match.live_table).exclude(user_id__in=missing).update(connections=1)


def _no_show_plan_runs() -> None:
    ScheduledAction.objects.filter(kind=ActionKind.NO_SHOW).update(due_at=timezone.now())
    runner.run_due()


def _lines(t) -> dict[int, tuple]:
    """Each player's line, without the place and Buchholz (the two tables meet different opponents)."""
    return {
        line.entry.pk: (
            line.row.match_points,
            line.row.wins,
            line.row.losses,
            line.row.forfeits,
            line.row.eyes_for,
            line.row.eyes_against,
        )
        for line in individual_standings_view(tournament=t).lines
    }


def _state(rnd) -> tuple:
    matches = list(rnd.matches.order_by("table"))
    return (
        [m.state() for m in matches],
        sorted(Seat.objects.filter(round=rnd, absent=True).values_list("pk", flat=True)),
        ResultCorrection.objects.filter(match__round=rnd).count(),
        AuditEntry.objects.count(),
    )


@pytest.mark.parametrize(
    "absent",
    [
        pytest.param(["E"], id="one-player"),
        pytest.param(["E", "W"], id="both-partners"),
        pytest.param(["N", "E"], id="one-of-each-partnership"),
        pytest.param(["N", "S", "W"], id="three"),
    ],
)
def test_the_automatic_no_show_scores_as_the_organisers(round1, organiser, absent):
    t = round1.tournament
    auto, manual = _seats(round1, 1), _seats(round1, 2)
    table2 = manual["N"].match
    for name in absent:  # the organiser marks table 2 himself, before the plan runs
        ind.record_no_show(actor=organiser, match=table2, entry=manual[name].entry)
    _come(round1, away={1: absent})

    _no_show_plan_runs()

    match = auto["N"].match
    match.refresh_from_db()
    table2.refresh_from_db()
    assert match.status == MatchStatus.CONFIRMED and match.forfeit
    lines = _lines(t)
    for name in "NSEW":
        assert lines[auto[name].entry_id] == lines[manual[name].entry_id], f"seat {name}"
        came = name not in absent
        assert lines[auto[name].entry_id][:4] == ((t.points_win, 1, 0, 0) if came else (0, 0, 1, 1)), name
    assert {s.seat for s in Seat.objects.filter(match=match, absent=True)} == set(absent)
    assert match.confirmed_how == "auto" and match.confirmed_by is None
    if set(absent) <= {"E", "W"}:  # one partnership missing: the match reads as the organiser's
        assert (match.home_eyes, match.away_eyes, match.winner_id) == (12, 0, match.home_id)
        assert (table2.home_eyes, table2.away_eyes, table2.winner_id) == (12, 0, table2.home_id)
    assert set(
        ResultCorrection.objects.filter(match=match, actor__isnull=True).values_list("reason", flat=True)
    ) == {f"no-show: {auto[name].entry.player.display_name}" for name in absent}
    assert Table.objects.get(pk=match.live_table).status == TableStatus.FINISHED, "the table is closed"
    assert round1.matches.filter(status=MatchStatus.CONFIRMED).count() == 2


def test_running_the_no_shows_twice_changes_nothing(round1):
    auto = _seats(round1, 1)
    _come(round1, away={1: ["S"]})
    _no_show_plan_runs()
    before, lines = _state(round1), _lines(round1.tournament)
    assert before[1] == [auto["S"].pk]

    assert online.no_shows(round_id=round1.pk) == "forfeits 0"  # a second beat, a redelivered task
    ScheduledAction.objects.filter(kind=ActionKind.NO_SHOW).update(done_at=None)
    _no_show_plan_runs()

    assert _state(round1) == before
    assert _lines(round1.tournament) == lines
    assert ScheduledAction.objects.get(kind=ActionKind.NO_SHOW).outcome == "forfeits 0"


def test_a_result_recorded_after_the_tables_were_listed_stands(round1, organiser):
    """The plan read the table as having an absentee, the organiser entered the score first."""
    match = _seats(round1, 1)["N"].match
    services.correct_result(actor=organiser, match=match, home_eyes=7, away_eyes=12, reason="сыграли")
    before = _state(round1)

    assert online._individual_no_shows(match_id=match.pk, table_id=match.live_table, seats=[1]) == 0

    assert _state(round1) == before
    assert Table.objects.get(pk=match.live_table).status == TableStatus.PLAYING


def test_a_table_nobody_came_to_goes_to_the_organiser(round1, organiser):
    _come(round1, away={1: ["N", "S", "E", "W"]})
    _no_show_plan_runs()

    match = _seats(round1, 1)["N"].match
    match.refresh_from_db()
    assert match.status == MatchStatus.SCHEDULED
    assert not Seat.objects.filter(round=round1, absent=True).exists()
    note = Notification.objects.get(user=organiser, kind="tournament.both_absent")
    assert "table 1" in note.text
    assert round1.matches.get(table=2).status == MatchStatus.SCHEDULED  # everyone came: it plays on
