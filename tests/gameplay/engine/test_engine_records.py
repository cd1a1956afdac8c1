"""bilka-record/1 round trips, match ends (timeout, resign, forfeit), penalties, and the
scorer command refusing each kind of bad record with exit 2, no stdout, one stderr line."""

from __future__ import annotations

import json
import random

import pytest
from engine_helpers import (
    LUCY_ALL_TRICKS,
    MatchBuilder,
    complete_hands,
    deal,
    fingerprint,
    record,
    run_scorer,
    score,
)

from gameplay.engine.cards import SEATS, card_from_str, card_to_str, mask_cards
from gameplay.engine.errors import IllegalAction, RecordError
from gameplay.engine.match import MatchState
from gameplay.engine.record import read_record, record_to_json, write_record
from gameplay.engine.rules import Rules
from gameplay.engine.state import Phase


def random_play(state: MatchState, rng: random.Random, moves: int) -> None:
    for _ in range(moves):
        if state.to_move is None:
            return
        state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("seed", range(5))
def test_a_written_record_replays_to_the_identical_state(seed):
    rng = random.Random(seed)
    state = MatchState(Rules(eggs="plus_four", three_redeals_eye=True), seed=seed,
                       players={"N": "Aigerim", "E": "Bolat", "S": "Dana", "W": "Erlan"})
    random_play(state, rng, rng.randrange(20, 400))
    text = record_to_json(state)
    again = read_record(text)
    assert fingerprint(again) == fingerprint(state)
    assert record_to_json(again) == text


def test_a_replayed_match_can_be_played_on():
    state = MatchState(Rules(), seed=3)
    random_play(state, random.Random(3), 50)
    again = read_record(write_record(state))
    rng = random.Random(9)
    random_play(again, rng, 10_000)
    assert again.winner is not None


@pytest.mark.parametrize("reason", ["timeout", "resign", "forfeit"])
def test_match_ended_by_a_seat_is_lost_by_its_pair(reason):
    state = MatchState(Rules(), seed=4)
    random_play(state, random.Random(4), 45)
    state.end_match(reason, 1)  # E
    assert state.winner == 0 and state.phase == Phase.OVER
    with pytest.raises(IllegalAction):
        state.apply(0)
    rec = write_record(state)
    assert rec["end"] == {"reason": reason, "seat": "E"}
    report = score(rec)
    assert report["winner"] == "NS"
    assert report["deals"][-1]["outcome"] == "unfinished"
    again = read_record(json.dumps(rec))
    assert fingerprint(again) == fingerprint(state)


def test_end_in_a_record_after_the_match_was_decided_is_refused():
    rec = record([LUCY_ALL_TRICKS], end={"reason": "resign", "seat": "N"})
    with pytest.raises(RecordError, match="end: the match was already decided"):
        score(rec)


def test_resignation_in_the_first_deal_record():
    rec = record([deal("W", complete_hands({}, seed=1), [])], end={"reason": "resign", "seat": "S"})
    report = score(rec)
    assert report["winner"] == "EW" and report["score"] == {"NS": 0, "EW": 0}


def test_penalty_adds_eyes_after_its_deal_and_can_decide_the_match():
    b = MatchBuilder(seed=6)
    b.played()
    b.played()
    rec = b.record(penalties=[{"after_deal": 1, "pair": "EW", "eyes": 1, "reason": "revoke"}])
    report = score(rec)
    d1, d2 = report["deals"]
    assert d1["score"]["EW"] == d1["eyes"]["EW"] + 1
    assert report["score"]["EW"] == d1["eyes"]["EW"] + d2["eyes"]["EW"] + 1
    big = b.record(penalties=[{"after_deal": 1, "pair": "NS", "eyes": 12, "reason": "no-show"}])
    with pytest.raises(RecordError, match="^deal 2: the match was already decided"):
        score(big)
    decided = record(b.deals[:1], penalties=[{"after_deal": 1, "pair": "NS", "eyes": 12, "reason": "x"}])
    assert score(decided)["winner"] == "NS"


def test_penalty_entered_on_a_live_state_round_trips():
    state = MatchState(Rules(redeal_below=0), seed=7)
    random_play(state, random.Random(7), 32)
    assert len(state.deals) == 2 and not state.deals[-1].plays
    state.add_penalty(1, 2, "late")
    assert state.penalties == [(1, 1, 2, "late")]
    again = read_record(write_record(state))
    assert fingerprint(again) == fingerprint(state)
    random_play(state, random.Random(7), 1)
    with pytest.raises(IllegalAction, match="between deals"):
        state.add_penalty(0, 1, "during a deal")


@pytest.mark.parametrize(
    "penalties,message",
    [
        ([{"after_deal": 3, "pair": "NS", "eyes": 1, "reason": ""}], "after_deal must be"),
        ([{"after_deal": 1, "pair": "XY", "eyes": 1, "reason": ""}], "pair must be"),
        ([{"after_deal": 1, "pair": "NS", "eyes": 0, "reason": ""}], "eyes must be"),
        ([{"after_deal": 1, "pair": "NS", "eyes": True, "reason": ""}], "eyes must be"),
        ([{"after_deal": 1, "pair": "NS", "eyes": 1}], "must have"),
    ],
)
def test_bad_penalties_are_refused(penalties, message):
    b = MatchBuilder(seed=8)
    b.played()
    with pytest.raises(RecordError, match=message):
        score(b.record(penalties=penalties))


# ---------------------------------------------------------------- the scorer command
def test_scorer_prints_bilka_score_json(tmp_path):
    b = MatchBuilder(seed=9)
    b.played()
    b.redeal()
    b.played()
    result = run_scorer(tmp_path, b.record())
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["format"] == "bilka-score/1"
    assert set(report) == {"format", "deals", "score", "winner"}
    played = report["deals"][0]
    assert list(played) == ["trump", "jack_holder", "on_duty", "tricks", "points", "outcome", "eyes", "score"]
    assert set(played["tricks"][0]) == {"leader", "cards", "winner", "points"}
    assert report["deals"][1]["outcome"] == "redeal"
    assert report == score(b.record())


def wrong_card_record():
    """Three deals; in the third a seat that must follow plays a card of another suit."""
    b = MatchBuilder(seed=10)
    b.played()
    b.played()
    b.played()
    third = b.deals[2]
    hands = {s: [card_from_str(c) for c in third["hands"][s]] for s in SEATS}
    state = MatchState(Rules(), auto_deal=False, first_dealer=SEATS.index(third["dealer"]))
    state.suit_of_seat = b.suits
    state.start_deal(tuple(sum(1 << c for c in hands[s]) for s in SEATS))
    from gameplay.engine.cards import PASS

    while state.phase == Phase.REDEAL:
        state.apply(PASS)
    for index, text in enumerate(third["plays"]):
        seat = state.to_move
        assert seat is not None
        hand = state.hands[seat]
        legal = state.legal_mask()
        lead = state.trick[0] if state.trick else None
        trump_lead = lead is not None and (lead % 9 == 5 or lead // 9 == state.trump)
        if legal != hand and lead is not None and not trump_lead:
            bad = mask_cards(hand & ~legal)[0]
            need = "follow " + ("clubs", "diamonds", "hearts", "spades")[lead // 9]
            message = (f"deal 3, trick {index // 4 + 1}: {SEATS[seat]} must {need} "
                       f"and cannot play {card_to_str(bad)}")
            third["plays"] = third["plays"][:index] + [card_to_str(bad)]
            return b.record(), message
        state.apply(card_from_str(text))
    raise AssertionError("no follow situation in this deal")


def bad_records():
    ok_hands = complete_hands({"E": "TC JD JH 8H 7H 9S 8S 7S"}, seed=1)
    lucy_then_more = record([LUCY_ALL_TRICKS, deal("W", complete_hands({}, seed=2), [])])
    n_hand = ok_hands["N"].split()
    foreign = next(c for c in ok_hands["E"].split())
    wrong, wrong_message = wrong_card_record()
    return [
        ("not json", "{\"format\": ", "not JSON"),
        ("not an object", "[1, 2]", "a record is a JSON object"),
        ("wrong format", json.dumps(record([])).replace("bilka-record/1", "bilka-record/9"),
         "format must be"),
        ("rout_at true", record([], {"rout_at": True}), "rules.rout_at: must be an integer"),
        ("unknown rule", record([], {"jokers": 2}), "rules.jokers"),
        ("wrong deck", record([deal("W", ok_hands, [])], {"deck": "28"}), "deal 1: 7"),
        ("redeal refused", record([deal("W", ok_hands, redeal="E")]),
         "deal 1: E may not ask for a redeal: the hand does not qualify"),
        ("deal after decided", lucy_then_more, "deal 2: the match was already decided (NS won)"),
        ("card not in hand", record([deal("W", ok_hands, [foreign])]) if "JC" in n_hand else None, None),
        ("does not follow", wrong, wrong_message),
        ("not a card", record([deal("W", ok_hands, ["XX"])]), "deal 1, trick 1:"),
        ("dealt twice", record([deal("W", dict(ok_hands, N=ok_hands["E"]), [])]), "deal 1:"),
    ]


@pytest.mark.parametrize("name,content,message", [r for r in bad_records() if r[1] is not None],
                         ids=[r[0] for r in bad_records() if r[1] is not None])
def test_scorer_refuses_a_bad_record_with_exit_2_and_one_line(tmp_path, name, content, message):
    result = run_scorer(tmp_path, content)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    if name == "does not follow":
        assert lines[0] == message
        assert " must follow " in message
    else:
        assert message in lines[0]


SUITED = {
    "N": "JC AC TC KC QC 9C 8C 7C",
    "E": "JS AH TH KH QH 9H 8H 7H",
    "S": "JH AD TD KD QD 9D 8D 7D",
    "W": "JD AS TS KS QS 9S 8S 7S",
}


@pytest.mark.parametrize(
    "plays,message",
    [
        ("JC JS AH", "deal 1, trick 1: S does not hold AH"),
        ("JC JS AD", "deal 1, trick 1: S must play a trump and cannot play AD"),
        ("JC JS JH JD 7C 7H 7D 7S 9H", "deal 1, trick 3: N does not hold 9H"),
        ("JC JS JH JD 7C 7H 7D 7S 8C 8H 8D QS TS", "deal 1, trick 4: N does not hold TS"),
    ],
)
def test_scorer_names_deal_trick_seat_and_card(tmp_path, plays, message):
    result = run_scorer(tmp_path, record([deal("W", SUITED, plays)]))
    assert (result.returncode, result.stdout, result.stderr) == (2, "", message + "\n")


def test_scorer_refuses_a_missing_file(tmp_path):
    import subprocess

    from engine_helpers import PYTHON, REPO

    result = subprocess.run([str(PYTHON), "-m", "gameplay.engine", "score", str(tmp_path / "nope.json")],
                            cwd=REPO, capture_output=True, text=True, check=False)
    assert result.returncode == 2 and result.stdout == "" and len(result.stderr.splitlines()) == 1


def test_a_penalty_that_decides_the_match_drops_the_deal_not_yet_played():
    state = MatchState(Rules(redeal_below=0), seed=12)
    random_play(state, random.Random(12), 32)
    assert len(state.deals) == 2
    state.add_penalty(0, 12, "opponents did not show up after deal 1")
    assert state.winner == 0 and state.phase == Phase.OVER and len(state.deals) == 1
    rec = write_record(state)
    assert len(rec["deals"]) == 1 and rec["penalties"][0]["after_deal"] == 1
    assert fingerprint(read_record(rec)) == fingerprint(state)
    assert score(rec)["score"]["NS"] == 12


def test_end_match_refuses_an_unknown_reason():
    state = MatchState(Rules(), seed=13)
    with pytest.raises(IllegalAction, match="not a reason"):
        state.end_match("boredom", 0)
    assert state.winner is None
