"""The beginner bot: always legal, decides from one seat's observation, and plays like a
beginner who knows the basics (follow low, win cheaply, schmear, keep jacks, redeal weak)."""

from __future__ import annotations

import random
import subprocess

from engine_helpers import PYTHON, REPO, masks_of

from gameplay.engine.bot import BeginnerBot, choose_action
from gameplay.engine.cards import PASS, REDEAL, VALUE, card_from_str, card_to_str
from gameplay.engine.match import MatchState
from gameplay.engine.rules import Rules
from gameplay.engine.state import Phase

C = card_from_str

# N leads JC; E must follow with a jack; S has no trump and may schmear.
SCHMEAR = {
    "N": "JC AC TC KC QC 9C 8C 7C",
    "E": "JS JH JD AS TS KS QS TH",
    "S": "AH TD 7S 8S 9S 7D 8D 9D",
    "W": "AD KD QD KH QH 9H 8H 7H",
}
# W holds JC and leads; S plays last and has jacks but no hearts.
JACKS_LAST = {
    "W": "JC AH 7H QC KC TC AC 9C",
    "N": "8H 9H TH KH QH 7D 8D 9D",
    "E": "7C 8C AD TD KD QD AS TS",
    "S": "JD JS JH 7S 8S 9S KS QS",
}


def at(hands, plays, dealer=3):
    state = MatchState(Rules(), auto_deal=False, first_dealer=dealer, seed=0)
    state.start_deal(masks_of(hands))
    while state.phase == Phase.REDEAL:
        state.apply(PASS)
    for c in plays.split():
        state.apply(C(c))
    seat = state.to_move
    assert seat is not None
    return state, state.observation(seat)


def bot(obs):
    return card_to_str(choose_action(obs, random.Random(0)))


def test_gives_its_ace_to_a_partner_who_holds_the_trick_with_jc():
    _, obs = at(SCHMEAR, "JC JS")
    assert obs.seat == 2
    assert bot(obs) == "AH"


def test_follows_low_when_it_cannot_win():
    _, obs = at(SCHMEAR, "JC")
    assert bot(obs) == "JD"  # must play a jack; the cheapest one


def test_plays_a_card_worth_nothing_when_the_opponents_win_anyway():
    _, obs = at(SCHMEAR, "JC JD AH")
    assert VALUE[C(bot(obs))] == 0


def test_keeps_its_jacks_when_the_trick_holds_no_points():
    _, obs = at(JACKS_LAST, "7H 8H 7C")
    choice = bot(obs)
    assert choice[0] != "J" and VALUE[C(choice)] == 0


def test_spends_its_cheapest_jack_on_an_ace():
    _, obs = at(JACKS_LAST, "AH 8H 7C")
    assert bot(obs) == "JD"


def test_wins_cheaply_when_last():
    hands = {
        "W": "JC 7H QC KC TC AC 9C 8C",
        "N": "7D 8D 9D TD KD QD AD 7C",
        "E": "9H 8H JS JH JD AS TS KS",
        "S": "AH TH KH QH 7S 8S 9S QS",
    }
    _, obs = at(hands, "7H 7D 9H")
    assert obs.seat == 2
    assert bot(obs) == "QH"


def test_asks_for_a_redeal_with_a_weak_hand_and_passes_with_a_strong_one():
    weak = {"E": "9C 8C 7C 9H 8H 7H 9S 8S", "N": "JC AC TC AD TD AH TH AS",
            "S": "JS JH JD KC QC KD QD 7D", "W": "KH QH KS QS TS 7S 8D 9D"}
    state = MatchState(Rules(), auto_deal=False, first_dealer=3, seed=0)
    state.start_deal(masks_of(weak))
    assert state.phase == Phase.REDEAL and state.may_redeal(1)
    assert choose_action(state.observation(1), random.Random(0)) == REDEAL
    assert choose_action(state.observation(0), random.Random(0)) == PASS  # N's hand does not qualify
    jacks = {"N": "JC JS JH 9C 8C 7C 9H 8H", "E": "AC TC AD TD AH TH AS TS",
             "S": "JD KC QC KD QD 7D 7H KH", "W": "QH KS QS 9S 8S 7S 8D 9D"}
    strong = MatchState(Rules(redeal_below=30), auto_deal=False, first_dealer=3, seed=0)
    strong.start_deal(masks_of(jacks))
    assert strong.may_redeal(0)  # 6 points: N may ask, but three jacks are worth keeping
    assert choose_action(strong.observation(0), random.Random(0)) == PASS


def test_bot_plays_whole_matches_legally_in_every_seat():
    for seed in range(5):
        rng = random.Random(seed)
        state = MatchState(Rules(ace_discard_ban=seed % 2 == 1, deck=("32", "36", "28")[seed % 3]), seed=seed)
        bots = [BeginnerBot(random.Random(s)) for s in range(4)]
        steps = 0
        while state.winner is None and steps < 3000:
            seat = state.to_move
            assert seat is not None
            action = bots[seat](state.observation(seat))
            assert action in state.legal_actions()
            state.apply(action, seat=seat)
            steps += 1
        assert state.winner is not None or steps == 3000
        del rng


def test_margin_script_reports_a_positive_interval():
    out = subprocess.run([str(PYTHON), "-m", "bench.bots.margin", "--deals", "300"], cwd=REPO,
                         capture_output=True, text=True, check=True, timeout=60)
    assert "sensible: yes" in out.stdout
