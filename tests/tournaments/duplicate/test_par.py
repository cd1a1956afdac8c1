"""Each board's par with best play: queued when a round is paired, worked out once by a task (on the
analysis queue, idempotent), and shown on the board's traveller only when the traveller itself is."""

import json

import pytest
import redis
from django.conf import settings
from django.utils.html import escape

from gameplay.engine.boards import board_par
from gameplay.engine.rules import Rules
from gameplay.engine.shuffle import commitment_of
from tournaments import services, tasks
from tournaments.models import BoardPar, Match

from .conftest import duplicate_event, tables

E = services.BoardEntry
SEED = bytes(range(32))
SHORT = {"deck": "28"}  # seven tricks: the solver answers in well under a second


def _fixed_seed(event):
    """The event's boards dealt from a known seed, so the test knows their par."""
    event.board_seed, event.board_commitment = SEED.hex(), commitment_of(SEED)
    event.save(update_fields=["board_seed", "board_commitment"])


@pytest.fixture
def howell(club, organiser):
    """Four pairs, Howell-like, two boards a round on the 28-card deck: round 1 paired."""
    event = duplicate_event(club, organiser, 4, rules=SHORT)
    services.pair_next_round(actor=organiser, tournament=event)
    event.refresh_from_db()
    _fixed_seed(event)
    return event


def _queued(broker):
    got = [json.loads(m) for m in broker.lrange(settings.ANALYSIS_QUEUE, 0, -1)]
    broker.delete(settings.ANALYSIS_QUEUE)
    return sorted((m["headers"]["task"], m["headers"]["argsrepr"]) for m in got)


def test_pairing_a_round_queues_its_boards_par_on_the_analysis_queue(club, organiser,
                                                                     django_capture_on_commit_callbacks):
    broker = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    broker.delete(settings.ANALYSIS_QUEUE)
    event = duplicate_event(club, organiser, 6, movement="mitchell", rules=SHORT)
    with django_capture_on_commit_callbacks(execute=True):
        services.pair_next_round(actor=organiser, tournament=event)
    event.refresh_from_db()
    # three tables, each its own set of two boards: boards 1-6, each once
    assert _queued(broker) == [("tournaments.board_par", f"({event.pk}, {b})") for b in range(1, 7)]
    for m in Match.objects.filter(tournament=event, bye=False):
        services.enter_board_results(actor=organiser, match=m, entries=[
            E(b, ns_points=60) for b in range((m.slot - 1) * 2 + 1, m.slot * 2 + 1)])
        services.compute_board_par(tournament_id=event.pk, board=m.slot * 2)  # the worker's part
    with django_capture_on_commit_callbacks(execute=True):
        services.pair_next_round(actor=organiser, tournament=event)
    # the sets move on: the same six boards, none asked for again (three kept, three still queued)
    assert _queued(broker) == []


def test_the_task_works_par_out_once_and_keeps_it(howell):
    expected = board_par(SEED, 1, 2, Rules(deck="28"))
    said = tasks.board_par(howell.pk, 1)
    assert said.startswith(f"par {expected} in ")
    kept = BoardPar.objects.get(tournament=howell, board=1)
    assert (kept.ns_points, kept.ew_points) == (expected, 120 - expected)
    assert tasks.board_par(howell.pk, 1) == "already worked out"  # a message delivered twice
    assert BoardPar.objects.get(tournament=howell, board=1).computed_at == kept.computed_at


def test_a_par_for_other_boards_is_worked_out_again(howell):
    """A par kept for another deal (here the set size changed, so the seats' suits may have) is not
    shown, and the task works the board out again for the deal the event gives it now."""
    tasks.board_par(howell.pk, 3)
    howell.boards_per_round = 4
    howell.save(update_fields=["boards_per_round"])
    assert services.compute_board_par(tournament_id=howell.pk, board=3).startswith("par ")
    kept = BoardPar.objects.get(tournament=howell, board=3)
    assert kept.ns_points == board_par(SEED, 3, 4, Rules(deck="28"))
    assert BoardPar.objects.filter(tournament=howell).count() == 1


def test_nothing_to_work_out_for_other_events(club, organiser, howell):
    cup = services.create_tournament(actor=organiser, club=club, name="Кубок", format="swiss")
    assert services.compute_board_par(tournament_id=cup.pk, board=1) == "no duplicate event"
    assert services.compute_board_par(tournament_id=howell.pk, board=0) == "no such board"
    assert services.compute_board_par(tournament_id=10**9, board=1) == "no duplicate event"
    assert not BoardPar.objects.exists()


def _traveller(client, event, number: int) -> str:
    page = client.get(f"/t/{event.slug}/boards/{number}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    return page.split('id="traveller"')[1].split("</section>")[0]


def test_par_is_shown_only_with_the_traveller(client, django_user_model, howell, organiser):
    t1, t2 = tables(howell.rounds.get())
    services.enter_board_results(actor=organiser, match=t1, entries=[E(1, ns_points=97), E(2, ns_points=33)])
    tasks.board_par(howell.pk, 1)
    par = BoardPar.objects.get(tournament=howell, board=1).ns_points
    line = f"Par with best play: NS {par} · EW {120 - par}"
    # table 2 has not played board 1: neither its results nor its par reach anyone but the organisers
    user = django_user_model.objects.create_user(username="ns2", password="x")
    t2.home.player_a.user = user
    t2.home.player_a.save()
    client.force_login(user)
    hidden = _traveller(client, howell, 1)
    assert "Par with best play" not in hidden and "97" not in hidden and escape(line) not in hidden
    client.logout()
    assert "Par with best play" not in _traveller(client, howell, 1)
    client.force_login(organiser)
    assert escape(line) in _traveller(client, howell, 1)
    client.logout()
    services.enter_board_results(actor=organiser, match=t2, entries=[E(1, ns_points=44), E(2, ns_points=33)])
    shown = _traveller(client, howell, 1)
    assert escape(line) in shown and "97" in shown and "44" in shown
    gaps = [97 - par, 44 - par]
    for gap in gaps:
        assert f'<span class="traveller-sub par-gap">{"+" if gap > 0 else ""}{gap}</span>' in shown
    waiting = _traveller(client, howell, 2)  # played everywhere, its par not worked out yet
    assert "Par with best play is being worked out" in waiting and "par-gap" not in waiting
    tasks.board_par(howell.pk, 2)
    assert "Par with best play: NS" in _traveller(client, howell, 2)  # the kept page was renewed


def test_a_board_is_asked_for_once_while_its_par_is_being_worked_out(client, howell, organiser,
                                                                    django_capture_on_commit_callbacks):
    """The traveller of a board without its par asks for it (an event paired before par existed, or
    a lost message), once: a second look while the solver works does not queue it again."""
    broker = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    broker.delete(settings.ANALYSIS_QUEUE)
    client.force_login(organiser)
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(2):
            assert "being worked out" in _traveller(client, howell, 1)
        services.queue_board_pars(howell, [1, 2])
    assert _queued(broker) == [("tournaments.board_par", f"({howell.pk}, {b})") for b in (1, 2)]
    tasks.board_par(howell.pk, 1)
    with django_capture_on_commit_callbacks(execute=True):
        assert "Par with best play: NS" in _traveller(client, howell, 1)
    assert _queued(broker) == []
