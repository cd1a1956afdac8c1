"""Online rounds: a finished live table's result becomes the match's result, when it really is that match."""

import random
from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone

from archive.models import ArchivedMatch
from gameplay.engine import MatchState, Phase, Rules, choose_action, read_record, write_record
from gameplay.engine.cards import PAIRS, SEATS
from gameplay.engine.record import score_state
from gameplay.models import Seat, Table
from tests.clubs.factories import PASSWORD, UserFactory
from tournaments import services
from tournaments.models import MatchStatus
from tournaments.services import live

from .conftest import player_with_account, register_pairs

pytestmark = pytest.mark.django_db


@pytest.fixture
def online_match(club, organiser):
    t = services.create_tournament(
        actor=organiser, club=club, name="Онлайн-кубок", format="swiss", seeding="manual", play_mode="online"
    )
    players = {u: player_with_account(club, u) for u in ("asel", "oleh", "ivan", "nurlan")}
    services.register_entry(actor=organiser, tournament=t, player_a=players["asel"], player_b=players["oleh"])
    register_pairs(t, organiser, 1)
    services.register_entry(
        actor=organiser, tournament=t, player_a=players["ivan"], player_b=players["nurlan"]
    )
    register_pairs(t, organiser, 1, prefix="Сосед")
    rnd = services.pair_next_round(actor=organiser, tournament=t)
    return rnd.matches.get(table=1), players


def _played(rules: dict, *, winner: str, reason: str) -> tuple[dict, dict]:
    """A legal match played by bots with the engine, won by ``winner`` ("NS"/"EW"): its record and the
    result the table stores. ``reason`` "eyes" plays it out; "resign"/"timeout" ends it at the start."""
    for seed in range(200):
        state = MatchState(Rules.from_json(rules), seed=seed)
        if reason != "eyes":
            state.end_match(reason, SEATS.index("E" if winner == "NS" else "N"))
        rng = random.Random(seed)  # noqa: S311 - test players
        while state.phase != Phase.OVER:
            state.apply(choose_action(state.observation(state.to_move), rng), seat=state.to_move)
        if PAIRS[state.winner] == winner:
            result = {
                "winner": winner,
                "reason": reason,
                "seat": SEATS[state.end[1]] if state.end else None,
                "score": {"NS": state.capped_score[0], "EW": state.capped_score[1]},
            }
            return write_record(state), result
    raise AssertionError(f"no seed lets {winner} win")


def _table(users, *, winner="NS", reason="eyes", rules=None, started=None, status="finished"):
    rules = Rules.from_json(rules or {}).to_json()
    record, result = _played(rules, winner=winner, reason=reason)
    table = Table.objects.create(
        rules=rules,
        status=status,
        started_at=started or timezone.now(),
        record=record,
        result=result,
    )
    for seat, user in enumerate(users):
        Seat.objects.create(
            table=table, seat=seat, user=user, name=user.username if user else "bot", is_bot=user is None
        )
    return table


def _users(players, *names):
    return [players[n].user for n in names]


def test_a_live_table_gives_the_result(online_match, client):
    match, players = online_match
    home_first = match.home.player_a.user.username == "asel"
    # N, E, S, W: asel and oleh opposite each other (N/S), ivan and nurlan (E/W)
    table = _table(_users(players, "asel", "ivan", "oleh", "nurlan"), winner="EW")
    client.login(username="nurlan", password=PASSWORD)
    page = client.get(match.get_absolute_url()).content.decode()
    assert 'name="table"' in page
    client.post(match.get_absolute_url(), {"action": "live", "table": table.pk})
    match.refresh_from_db()
    assert (
        match.status == MatchStatus.CONFIRMED
        and match.confirmed_how == "table"
        and match.live_table == table.pk
    )
    ivan_pair_eyes = match.away_eyes if home_first else match.home_eyes
    assert ivan_pair_eyes == 12 and match.winner.player_a.user.username == "ivan"


def test_a_timeout_or_resignation_is_a_forfeit(online_match, organiser):
    match, players = online_match
    table = _table(_users(players, "ivan", "asel", "nurlan", "oleh"), winner="EW", reason="timeout")
    match = live.import_live_result(actor=organiser, match=match, table_id=table.pk)
    assert match.forfeit and {match.home_eyes, match.away_eyes} == {12, 0}
    assert match.winner.player_a.user.username == "asel"


@pytest.mark.parametrize(
    ("seats", "kwargs", "message"),
    [
        (("asel", "oleh", "ivan", "nurlan"), {}, "not this match's two pairs"),  # partners side by side
        (("asel", "ivan", "oleh", None), {}, "not this match's two pairs"),  # a bot in a seat
        (("asel", "ivan", "oleh", "nurlan"), {"rules": {"deck": "36"}}, "other rules"),
        (
            ("asel", "ivan", "oleh", "nurlan"),
            {"started": timezone.now() - timedelta(days=1)},
            "before this round",
        ),
        (("asel", "ivan", "oleh", "nurlan"), {"status": "playing"}, "not finished"),
    ],
)
def test_a_table_that_is_not_this_match_is_refused(online_match, seats, kwargs, message):
    match, players = online_match
    users = [players[n].user if n else None for n in seats]
    table = _table(users, **kwargs)
    with pytest.raises(ValidationError, match=message):
        live.import_live_result(actor=players["asel"].user, match=match, table_id=table.pk)
    match.refresh_from_db()
    assert match.status == MatchStatus.SCHEDULED and match.live_table is None


def test_one_table_one_match_and_only_its_players(online_match, organiser):
    match, players = online_match
    table = _table(_users(players, "asel", "ivan", "oleh", "nurlan"))
    with pytest.raises(PermissionDenied):
        live.import_live_result(actor=UserFactory(username="stranger"), match=match, table_id=table.pk)
    live.import_live_result(actor=players["oleh"].user, match=match, table_id=table.pk)
    other = match.round.matches.get(table=2)
    with pytest.raises(ValidationError, match="already gave the result"):
        live.import_live_result(actor=organiser, match=other, table_id=table.pk)
    with pytest.raises(ValidationError, match="no live table"):
        live.import_live_result(actor=organiser, match=other, table_id=999999)


@pytest.mark.parametrize(
    ("tamper", "message"),
    [
        (lambda t: t.result.update(score={"NS": 12, "EW": 11}), "replaying its record gives"),
        (lambda t: t.result.update(winner="NS"), "replaying its record gives"),
        (lambda t: t.record["deals"][0]["plays"].reverse(), "does not replay"),
        (lambda t: setattr(t, "record", None), "kept no record"),
        (lambda t: t.record["rules"].update(rout_at=91), "other rules"),  # the record's own rules
    ],
)
def test_a_table_whose_record_does_not_give_its_result_is_refused(online_match, organiser, tamper, message):
    match, players = online_match
    table = _table(_users(players, "asel", "ivan", "oleh", "nurlan"), winner="EW")
    tamper(table)
    table.save()
    with pytest.raises(ValidationError, match=message):
        live.import_live_result(actor=organiser, match=match, table_id=table.pk)
    match.refresh_from_db()
    assert match.status == MatchStatus.SCHEDULED and not match.has_result and match.live_table is None


def test_a_live_tables_match_is_archived_once_with_its_record_and_chairs(online_match, organiser):
    from archive.models import ArchivedMatch

    match, players = online_match
    # ivan and nurlan sit N/S this time: the archive keeps the chairs, not the home/away order
    table = _table(_users(players, "ivan", "asel", "nurlan", "oleh"), winner="NS")
    live.import_live_result(actor=organiser, match=match, table_id=table.pk)
    archived = ArchivedMatch.objects.get()
    assert archived.tournament_match == match.pk and archived.table_id == table.pk
    assert archived.record == table.record and archived.has_record
    assert archived.winner == "NS"
    chairs = {s.seat: s.player_id for s in archived.seats.all()}
    assert chairs == {0: players["ivan"].pk, 1: players["asel"].pk,
                      2: players["nurlan"].pk, 3: players["oleh"].pk}
    assert (archived.ns_eyes, archived.ew_eyes) == (table.result["score"]["NS"], table.result["score"]["EW"])


def _lucy_table(users, rules=None) -> Table:
    """A finished table whose record holds a Lucy deal (bots played it with the engine)."""
    rules = Rules.from_json(rules or {}).to_json()
    for seed in range(400):
        state = MatchState(Rules.from_json(rules), seed=seed)
        rng = random.Random(seed)  # noqa: S311 - test players
        while state.phase != Phase.OVER:
            state.apply(choose_action(state.observation(state.to_move), rng), seat=state.to_move)
        if any(d["outcome"] == "lucy" for d in score_state(state)["deals"]):
            break
    else:
        raise AssertionError("no seed gives a Lucy")
    result = {"winner": PAIRS[state.winner], "reason": "eyes", "seat": None,
              "score": {"NS": state.capped_score[0], "EW": state.capped_score[1]}}
    table = Table.objects.create(rules=rules, status="finished", started_at=timezone.now(),
                                 record=write_record(state), result=result)
    for seat, user in enumerate(users):
        Seat.objects.create(table=table, seat=seat, user=user, name=user.username)
    return table


def test_a_live_tables_deals_reach_the_match_its_lucy_tiebreak_and_the_archive(
    online_match, organiser, client
):
    """The live table's record holds a Lucy: the match gets every played deal as the deal-by-deal
    form writes them (points, the pair on duty, outcome, eyes, running score), so the Lucy column
    of the standings, on the page and in the JSON, counts it for the pair that made it."""
    match, players = online_match
    # ivan & nurlan sit N/S, asel & oleh E/W: the home pair (asel's) is EW, so every figure is flipped
    table = _lucy_table(_users(players, "ivan", "asel", "nurlan", "oleh"))
    live.import_live_result(actor=organiser, match=match, table_id=table.pk)
    match.refresh_from_db()
    report = [d for d in score_state(read_record(table.record))["deals"] if d["outcome"] not in ("redeal",
                                                                                                 "unfinished")]
    home_is = "EW" if match.home.player_a.user.username == "asel" else "NS"
    away_is = "NS" if home_is == "EW" else "EW"
    lines = list(match.deals.order_by("number"))
    assert len(lines) == len(report) and lines
    for line, deal in zip(lines, report, strict=True):
        assert line.outcome == deal["outcome"]
        assert (line.home_points, line.away_points) == (deal["points"][home_is], deal["points"][away_is])
        assert (line.home_eyes, line.away_eyes) == (deal["eyes"][home_is], deal["eyes"][away_is])
        assert (line.home_score, line.away_score) == (deal["score"][home_is], deal["score"][away_is])
        assert line.jack_holder == (0 if deal["on_duty"] == home_is else 1)
    lucy_winner = "home" if lines[-1].home_points > lines[-1].away_points else "away"
    assert lines[-1].outcome == "lucy"
    assert (match.home_lucy, match.away_lucy) == ((1, 0) if lucy_winner == "home" else (0, 1))
    lucky = match.home if lucy_winner == "home" else match.away
    standings = client.get(f"/api/v1/tournaments/{match.tournament.slug}/standings/").json()
    lucy = {line["entry"]["id"]: line["lucy"] for line in standings["lines"]}
    assert lucy[lucky.pk] == 1 and sum(lucy.values()) == 1
    archived = ArchivedMatch.objects.get(tournament_match=match.pk)
    assert archived.deals.filter(outcome="lucy").count() == 1
    # the same deals typed into the deal-by-deal form give the same lines
    typed = [
        {"points": (ln.home_points, ln.away_points), "jack_holder": ln.jack_holder,
         "all_tricks": ln.all_tricks}
        for ln in lines
    ]
    services.correct_result(actor=organiser, match=match, deals=typed, reason="typed from the sheet")
    again = [(ln.outcome, ln.home_eyes, ln.away_eyes, ln.home_score, ln.away_score)
             for ln in match.deals.order_by("number")]
    assert again == [(ln.outcome, ln.home_eyes, ln.away_eyes, ln.home_score, ln.away_score) for ln in lines]


def test_matches_taken_from_live_tables_before_get_their_deals_from_the_migration(online_match, organiser):
    """A match taken from a live table by an earlier release has its eyes only: the data migration
    gives it the deal lines and the Lucy counts its table's record holds, the same as taking it now."""
    import importlib

    from django.apps import apps

    match, players = online_match
    table = _lucy_table(_users(players, "ivan", "asel", "nurlan", "oleh"))
    live.import_live_result(actor=organiser, match=match, table_id=table.pk)
    match.refresh_from_db()
    written = [(ln.number, ln.outcome, ln.home_points, ln.home_eyes, ln.away_eyes, ln.jack_holder)
               for ln in match.deals.order_by("number")]
    lucy = (match.home_lucy, match.away_lucy)
    match.deals.all().delete()
    type(match).objects.filter(pk=match.pk).update(home_lucy=None, away_lucy=None)
    migration = importlib.import_module("tournaments.migrations.0020_live_table_deals")
    migration.forwards(apps, None)
    migration.forwards(apps, None)  # a second run changes nothing
    match.refresh_from_db()
    assert [(ln.number, ln.outcome, ln.home_points, ln.home_eyes, ln.away_eyes, ln.jack_holder)
            for ln in match.deals.order_by("number")] == written
    assert (match.home_lucy, match.away_lucy) == lucy and 1 in lucy
