"""A pair of a duplicate event withdraws: the boards it leaves unplayed, in its round and in the
rounds the movement still seats it, get adjusted scores (average minus for it, average plus for its
opponents); the boards already played keep their results."""

from fractions import Fraction

from clubs.models import AuditEntry
from tournaments import services
from tournaments.core import duplicate as core
from tournaments.formats.duplicate import event_results, table_results
from tournaments.models import Adjusted, BoardResult, MatchStatus

from .conftest import tables

E = services.BoardEntry


def _rows(match):
    return {r.board: (r.ns_points, r.ns_adjusted, r.ew_adjusted, r.entered_how)
            for r in BoardResult.objects.filter(match=match)}


def test_withdrawn_pair_leaves_adjusted_scores_on_its_unplayed_boards(four, organiser):
    t1, t2 = tables(four.rounds.get())
    services.enter_board_results(actor=organiser, match=t1, entries=[E(1, ns_points=97)])
    services.withdraw_entry(actor=organiser, entry=t1.away)  # EW of table 1, with board 2 unplayed
    assert _rows(t1) == {1: (97, "", "", "organiser"), 2: (None, Adjusted.PLUS, Adjusted.MINUS, "withdrawal")}
    t1.refresh_from_db()
    assert t1.status == MatchStatus.CONFIRMED
    assert AuditEntry.objects.filter(action="boards.enter", object_id=str(t1.pk),
                                     after__how="withdrawal").count() == 1
    services.enter_board_results(actor=organiser, match=t2, entries=[E(1, ns_points=44), E(2, ns_points=33)])
    scores = core.score_boards(table_results(four, event_results(four)))
    board2 = {(s.pair, s.direction): s.percent for s in scores[2]}
    assert board2[(t1.home_id, core.NS)] == 60 and board2[(t1.away_id, core.EW)] == 40
    assert four.rounds.get().status == "complete"

    rnd = services.pair_next_round(actor=organiser, tournament=four)  # the movement still seats it
    gone = t1.away_id
    for m in tables(rnd):
        rows = _rows(m)
        if gone not in (m.home_id, m.away_id):
            assert rows == {}  # the other table plays as usual
            continue
        ns, ew = (Adjusted.MINUS, Adjusted.PLUS) if m.home_id == gone else (Adjusted.PLUS, Adjusted.MINUS)
        assert rows == {b: (None, ns, ew, "withdrawal") for b in (3, 4)}
        m.refresh_from_db()
        assert m.status == MatchStatus.CONFIRMED
    own = core.event_scores(table_results(four, event_results(four)))
    # 0 % on board 1 (the other EW beat it), then three boards of average minus
    assert own[gone] == (Fraction(0) + 40 + 40 + 40) / 4


def test_a_board_already_played_keeps_its_result_and_no_table_is_adjusted_twice(four, organiser):
    t1, _t2 = tables(four.rounds.get())
    services.enter_board_results(actor=organiser, match=t1, entries=[E(1, ns_points=20), E(2, ns_points=30)])
    services.withdraw_entry(actor=organiser, entry=t1.home)
    assert _rows(t1) == {1: (20, "", "", "organiser"), 2: (30, "", "", "organiser")}
    services.withdraw_entry(actor=organiser, entry=t1.home)  # again: nothing more
    assert BoardResult.objects.filter(match=t1).count() == 2
