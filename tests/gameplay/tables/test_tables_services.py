"""The table services: sitting, starting, moves with their refusals, idempotency, bots, end of match."""

from __future__ import annotations

import random

import pytest
from tables_helpers import answer_play, hand_strings, legal_strings, play_random, state_of

from gameplay import services
from gameplay.engine import Phase, read_record
from gameplay.models import Seat, Table, TableEvent
from gameplay.services import state_cache

pytestmark = pytest.mark.django_db


def test_four_people_sit_and_the_match_starts(table4, people):
    assert table4.status == "playing"
    assert [s.user for s in Seat.objects.filter(table=table4).order_by("seat")] == people[:4]
    kinds = list(TableEvent.objects.filter(table=table4).values_list("kind", flat=True))
    assert kinds == ["sit", "sit", "sit", "sit", "start"]
    assert table4.event_seq == 5
    state = state_of(table4.pk)
    assert state.to_move is not None
    assert table4.move_deadline is not None


def test_a_fifth_person_cannot_sit(table4, people):
    with pytest.raises(services.TableError):
        services.sit(table_id=table4.pk, user=people[4])


def test_bad_rules_are_refused_naming_the_key(people):
    with pytest.raises(services.RulesError, match="move_seconds"):
        services.create_table(rules={"move_seconds": 5}, user=people[0])
    with pytest.raises(services.RulesError, match="colour"):
        services.create_table(rules={"colour": "red"}, user=people[0])


def test_a_legal_move_is_applied_and_numbered(table4):
    state = state_of(table4.pk)
    action = legal_strings(state)[0]
    outcome = services.play(table_id=table4.pk, seat=state.to_move, action=action, expected_event=5)
    assert outcome.ok and outcome.event_number == 6
    table4.refresh_from_db()
    assert table4.event_seq == 6
    event = TableEvent.objects.get(table=table4, number=6)
    assert event.kind == "move"


@pytest.mark.parametrize("phase", ["redeal", "play"])
def test_refusals_change_nothing(table4, phase):
    if phase == "play":
        table4 = answer_play(table4.pk)
    n = table4.event_seq
    state = state_of(table4.pk)
    mover = state.to_move
    other = (mover + 1) % 4
    record_before = Table.objects.get(pk=table4.pk).record
    cases = [
        dict(seat=mover, action="XX", expected_event=n),  # not a card
        dict(seat=mover, action=legal_strings(state)[0], expected_event=n - 1),  # stale
        dict(seat=7, action=legal_strings(state)[0], expected_event=n),  # forged seat
    ]
    if phase == "play":
        not_held = next(c for c in ("JC", "JS", "AH", "AS", "AD", "AC") if c not in legal_strings(state))
        cases.append(dict(seat=mover, action=not_held, expected_event=n))
        cases.append(dict(seat=other, action=legal_strings(state)[0], expected_event=n))  # out of turn
        cases.append(dict(seat=mover, action="pass", expected_event=n))  # no question open
    else:
        held = sorted(hand_strings(state, mover))[0]
        cases.append(dict(seat=mover, action=held, expected_event=n))  # a card before the answers
        cases.extend(dict(seat=s, action="redeal", expected_event=n) for s in range(4)
                     if not state.may_redeal(s))  # a hand that does not qualify
    for case in cases:
        outcome = services.play(table_id=table4.pk, **case)
        assert not outcome.ok and outcome.message, case
    table = Table.objects.get(pk=table4.pk)
    assert table.event_seq == n and table.record == record_before


def test_a_repeated_move_id_is_applied_once(table4):
    state = state_of(table4.pk)
    args = dict(table_id=table4.pk, seat=state.to_move, action=legal_strings(state)[0], expected_event=5,
                client_move_id="abc-1")
    first = services.play(**args)
    again = services.play(**args)
    assert first.ok and again.ok and again.duplicate
    assert again.event_number == first.event_number == 6
    assert Table.objects.get(pk=table4.pk).event_seq == 6
    assert TableEvent.objects.filter(table=table4).exclude(move_id="").count() == 1


def test_illegal_card_message_names_only_the_players_own_card(table4):
    rng = random.Random(3)
    # play until someone must follow suit and holds a card that does not
    for _ in range(200):
        table = Table.objects.get(pk=table4.pk)
        state = state_of(table4.pk)
        if state.phase.name == "PLAY" and state.trick:
            legal = set(legal_strings(state))
            from tables_helpers import hand_strings

            illegal = sorted(hand_strings(state, state.to_move) - legal)
            if illegal:
                outcome = services.play(table_id=table4.pk, seat=state.to_move, action=illegal[0],
                                        expected_event=table.event_seq)
                assert not outcome.ok and outcome.code == "illegal"
                message = outcome.message.lower()
                assert "must" in message or "нужно" in message or outcome.message
                return
        play_random(table4.pk, rng, 1)
    pytest.fail("no position with an illegal card was reached")


def test_record_grows_and_replays(table4):
    play_random(table4.pk, random.Random(1), 20)
    table = Table.objects.get(pk=table4.pk)
    state = read_record(table.record)
    assert sum(len(d.plays) for d in state.deals) >= 1


def test_resign_ends_the_match_for_that_pair(table4):
    outcome = services.resign(table_id=table4.pk, seat=1)
    assert outcome.ok
    table = Table.objects.get(pk=table4.pk)
    assert table.status == "finished"
    assert table.result["winner"] == "NS" and table.result["reason"] == "resign"
    assert table.record["end"] == {"reason": "resign", "seat": "E"}
    late = services.play(table_id=table4.pk, seat=0, action="JC", expected_event=table.event_seq)
    assert not late.ok and late.code == "finished"


def test_play_now_starts_at_once_and_bots_play_until_the_person(db):
    table = services.play_now(session_key="s" * 32)
    assert table.status == "playing"
    seats = list(Seat.objects.filter(table=table).order_by("seat"))
    assert [s.is_bot for s in seats] == [True, True, False, True]
    for _ in range(60):  # redeals asked for by bots can take a few rounds
        table.refresh_from_db()
        state = services.load_state(table)
        if state.phase == Phase.REDEAL and 2 in state.redeal_pending:
            assert services.play(table_id=table.pk, seat=2, action="pass", expected_event=table.event_seq).ok
            continue
        if state.to_move == 2:
            break
        result = services.bot_move(table_id=table.pk, expected_event=table.event_seq)
        assert result == "moved", (result, state.phase, state.to_move)
    table.refresh_from_db()
    assert services.load_state(table).to_move == 2
    # a bot task queued for another event than the table's last (here: the person may be first
    # to move, so the table can still be at its first event) does nothing
    assert services.bot_move(table_id=table.pk, expected_event=table.event_seq - 1) == "stale"
    assert services.bot_move(table_id=table.pk, expected_event=table.event_seq) == "not_a_bot"


def test_a_whole_match_ends_by_eyes_with_record_and_result(db):
    table = services.play_now(session_key="k" * 32)
    rng = random.Random(5)
    for _ in range(5000):
        table.refresh_from_db()
        if table.status == "finished":
            break
        state = services.load_state(table)
        if state.to_move == 2:
            outcome = services.play(table_id=table.pk, seat=2, action=rng.choice(legal_strings(state)),
                                    expected_event=table.event_seq)
            assert outcome.ok
        else:
            services.bot_move(table_id=table.pk, expected_event=table.event_seq, rng=rng)
    assert table.status == "finished"
    assert table.result["reason"] == "eyes"
    assert max(table.result["score"].values()) == 12
    final = read_record(table.record)
    assert final.winner is not None
    assert TableEvent.objects.filter(table=table).last().kind == "end"


def _snapshot(state) -> tuple:
    """Everything a move depends on and every viewer sees, to compare two states."""
    from gameplay.engine import write_record

    return (write_record(state), state.to_move, state.phase, tuple(state.legal_actions()),
            [state.observation(s).to_json() for s in range(4)], state.spectator_observation().to_json())


def test_the_cached_state_equals_a_fresh_replay_after_every_move(
    dealt_table4, django_capture_on_commit_callbacks
):
    """The process-local state cache (state_cache._STATES) is only ever the record replayed."""
    table4 = dealt_table4
    rng = random.Random(7)
    state_cache._STATES.clear()
    hits = 0
    for _ in range(120):
        table = Table.objects.get(pk=table4.pk)
        if table.status != "playing":
            break
        cached = state_cache._STATES.get(table.pk)
        replayed = services.load_state(table)
        if cached is not None:
            assert cached[0] == (table.event_seq, table.invite_token)
            assert _snapshot(cached[1]) == _snapshot(replayed)
            hits += 1
        action = rng.choice(legal_strings(replayed))
        with django_capture_on_commit_callbacks(execute=True):
            outcome = services.play(table_id=table.pk, seat=replayed.to_move, action=action,
                                    expected_event=table.event_seq, client_move_id=f"m{table.event_seq}")
        assert outcome.ok, outcome.message
    assert hits > 50


def test_a_stale_or_refused_cache_entry_is_never_used(table4, django_capture_on_commit_callbacks):
    state = state_of(table4.pk)
    mover = state.to_move
    # An entry for an older event number (another process moved since): replayed instead.
    wrong = state_of(table4.pk)
    wrong.apply(wrong.legal_actions()[0], seat=mover)
    state_cache._STATES[table4.pk] = ((table4.event_seq - 1, table4.invite_token), wrong)
    action = legal_strings(state)[-1]
    with django_capture_on_commit_callbacks(execute=True):
        outcome = services.play(table_id=table4.pk, seat=mover, action=action,
                                expected_event=table4.event_seq)
    assert outcome.ok
    table = Table.objects.get(pk=table4.pk)
    assert TableEvent.objects.get(table=table, number=table.event_seq).public["action"] == action
    assert _snapshot(state_cache._STATES[table4.pk][1]) == _snapshot(state_of(table4.pk))
    # An entry at the same event number of another table that had this id (a database emptied and
    # filled again): its invite token differs, so it is replayed instead.
    table = Table.objects.get(pk=table4.pk)
    state_cache._STATES[table4.pk] = ((table.event_seq, "another-table"), wrong)
    state = state_of(table4.pk)
    with django_capture_on_commit_callbacks(execute=True):
        outcome = services.play(table_id=table4.pk, seat=state.to_move, action=legal_strings(state)[0],
                                expected_event=table.event_seq)
    assert outcome.ok
    assert _snapshot(state_cache._STATES[table4.pk][1]) == _snapshot(state_of(table4.pk))
    table = Table.objects.get(pk=table4.pk)
    # A refused move takes the entry out and puts nothing back: the next move replays.
    with django_capture_on_commit_callbacks(execute=True):
        refused = services.play(table_id=table4.pk, seat=state_of(table4.pk).to_move, action="XX",
                                expected_event=table.event_seq)
    assert not refused.ok
    assert table4.pk not in state_cache._STATES
