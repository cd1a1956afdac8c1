"""Bilka for two (docs/other-games.md, "Bilka for two"): each rule of the page as a test, citing
its section, and random legal play checked against a reference written from the page."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from variant_helpers import ids, mask, play_all_passing, points, strings

from gameplay.engine.bilka2 import Bilka2MatchState, Bilka2Rules
from gameplay.engine.cards import CLUBS, HEARTS, card_from_str, card_to_str, deck_cards, deck_mask
from gameplay.engine.errors import IllegalAction, RulesError
from gameplay.engine.state import Phase
from gameplay.engine.variant_scoring import score_played_deal

N, S = 0, 1

# The worked deal of the page: North deals, South leads; the stock in the order it is dealt
# (the non-dealer's second hand first, then the dealer's).
FIRST_S = "JS AC 9C AH TH 7H KS 8D"
FIRST_N = "JC TC 7C KH 9H AS 7S AD"
SECOND_S = "JH KC 8C QH TS 9S TD 9D"
SECOND_N = "JD QC 8H QS 8S KD QD 7D"
TRICKS = [  # cards lead first, winner, S points, N points
    ("AH 9H", S, 11, 0), ("TH KH", S, 25, 0), ("7H 7C", N, 25, 0), ("AS KS", N, 25, 15),
    ("7S 9C", S, 25, 15), ("JS JC", N, 25, 19), ("AD 8D", N, 25, 30), ("TC AC", S, 46, 30),
    ("TS 8S", S, 56, 30), ("9S QS", N, 56, 33), ("KD TD", S, 70, 33), ("JH QC", S, 75, 33),
    ("KC JD", N, 75, 39), ("QD 9D", N, 75, 42), ("7D 8C", S, 75, 42), ("QH 8H", S, 78, 42),
]


def worked(**kw) -> Bilka2MatchState:
    state = Bilka2MatchState(Bilka2Rules(**kw), first_dealer=N, auto_deal=False, seed=0)
    state.start_deal([mask(FIRST_N), mask(FIRST_S)], ids(SECOND_S + " " + SECOND_N))
    return state


def play(state: Bilka2MatchState, cards: str) -> None:
    for c in cards.split():
        state.apply(card_from_str(c))


# ---------------------------------------------------------------------- reference (from the page)
PLAIN = "6789QKTA"


def ref_is_trump(card: str, trump: str) -> bool:
    return card[0] == "J" or card[1] == trump


def ref_winner(trick: list[str], trump: str) -> int:
    jacks = [i for i, c in enumerate(trick) if c[0] == "J"]
    if jacks:
        return max(jacks, key=lambda i: "DHSC".index(trick[i][1]))
    trumps = [i for i, c in enumerate(trick) if c[1] == trump]
    if trumps:
        return max(trumps, key=lambda i: PLAIN.index(trick[i][0]))
    return 0 if trick[1][1] != trick[0][1] or PLAIN.index(trick[0][0]) > PLAIN.index(trick[1][0]) else 1


def ref_legal(hand: set[str], trick: list[str], trump: str, led: set[str], ace_ban: bool) -> set[str]:
    if not trick:
        return set(hand)
    if ref_is_trump(trick[0], trump):
        follow = {c for c in hand if ref_is_trump(c, trump)}
    else:
        follow = {c for c in hand if c[1] == trick[0][1] and c[0] != "J"}
    if follow:
        return follow
    if ace_ban:
        banned = {c for c in hand if c[0] == "A" and c[1] != trump and c[1] not in led}
        if banned != hand:
            return hand - banned
    return set(hand)


# ---------------------------------------------------------------------- rules object
def test_house_rules_defaults_and_refusals():
    """"House rules of Bilka for two": direction, first_lead and the redeal rules are refused."""
    r = Bilka2Rules()
    assert (r.deck, r.stock, r.eyes, r.rout_at) == ("32", "halves", "1-2", 90)
    assert r.to_json()["game"] == "bilka-2" and Bilka2Rules.from_json(r.to_json()) == r
    for key, value in (("direction", "clockwise"), ("first_lead", "after_dealer"), ("redeal_below", 14),
                       ("redeal_four_nines", False), ("redeal_five_of_suit", False),
                       ("three_redeals_eye", False)):
        with pytest.raises(RulesError, match=key):
            Bilka2Rules.from_json({key: value})
    with pytest.raises(RulesError, match="stock"):
        Bilka2Rules.from_json({"stock": "all"})


# ---------------------------------------------------------------------- the worked deal
def test_the_worked_deal():
    """"A worked deal": first deal clubs; South, the non-dealer, leads; the stock dealt when the
    hands are empty; S 78 : N 42, 1 eye; hearts are trumps next, South deals, North leads."""
    state = worked()
    assert state.trump == CLUBS and state.to_move == S and state.stock_left == 16
    log = state.deals[0]
    for i, (cards, winner, s_points, n_points) in enumerate(TRICKS):
        play(state, cards)
        assert log.trick_winners[-1] == winner, f"trick {i + 1}"
        assert state.points[S] == s_points and state.points[N] == n_points, f"trick {i + 1}"
        if i == 7:  # the first half is over: the stock is dealt, a quarter each
            assert strings(state.hands[S]) == set(SECOND_S.split())
            assert strings(state.hands[N]) == set(SECOND_N.split())
            assert state.stock_left == 0 and state.to_move == S
    assert (log.outcome, log.points, log.eyes, state.score) == ("win", (42, 78), (0, 1), [0, 1])
    state.start_deal()
    assert state.trump == HEARTS and state.dealer == S and state.to_move == N


def test_the_worked_deal_with_eyes_2_3():
    """"Scoring": with eyes=2-3 the worked deal is 2 : 0."""
    state = worked(eyes="2-3")
    for cards, *_ in TRICKS:
        play(state, cards)
    assert state.score == [0, 2]


def test_worked_deal_forced_trumps():
    """"A worked deal": trick 6, JS is a trump lead and North must trump; trick 8 AC is South's
    only trump and he must play it."""
    state = worked()
    for cards, *_ in TRICKS[:5]:
        play(state, cards)
    state.apply(card_from_str("JS"))
    assert strings(state.legal_mask()) == {"JC", "TC"}
    with pytest.raises(IllegalAction, match="must play a trump"):
        state.apply(card_from_str("AD"))
    play(state, "JC AD 8D TC")
    assert state.legal_actions() == [card_from_str("AC")]


# ---------------------------------------------------------------------- trumps
def test_a_jack_as_the_last_card_gives_its_printed_suit():
    """"Trumps": if the last card of the deal before is a jack, its printed suit is trump."""
    rng = random.Random(3)
    for _ in range(200):
        state = Bilka2MatchState(Bilka2Rules(), rng=rng)
        while state.winner is None and len(state.deals) < 6:
            log = state.current_deal
            while state.current_deal is log and state.winner is None:
                state.apply(rng.choice(state.legal_actions()))
            if state.winner is None:
                assert state.trump == log.plays[-1] // 9
                if card_to_str(log.plays[-1])[0] == "J":
                    return
    raise AssertionError("no deal ended with a jack")


def test_the_first_deal_of_a_match_is_clubs():
    for seed in range(20):
        assert Bilka2MatchState(Bilka2Rules(), seed=seed).trump == CLUBS


# ---------------------------------------------------------------------- the stock
def test_after_trick_the_winner_draws_first():
    """"Dealing and the stock", stock=after_trick: the winner draws the top card, then the other."""
    state = Bilka2MatchState(Bilka2Rules(stock="after_trick"), first_dealer=N, auto_deal=False, seed=0)
    stock = ids(SECOND_S + " " + SECOND_N)
    state.start_deal([mask(FIRST_N), mask(FIRST_S)], stock)
    play(state, "AH 9H")  # S wins
    assert state.deals[0].draws == [(S, stock[0]), (N, stock[1])]
    assert state.hands[S] >> stock[0] & 1 and state.hands[N] >> stock[1] & 1
    assert state.hands[S].bit_count() == state.hands[N].bit_count() == 8
    assert state.stock_left == 14 and state.to_move == S


@pytest.mark.parametrize("stock", ["halves", "after_trick"])
@pytest.mark.parametrize(("deck", "tricks"), [("32", 16), ("36", 18), ("32-no-sevens", 16), ("28", 14)])
def test_a_deal_has_half_the_deck_in_tricks(stock, deck, tricks):
    """"Dealing and the stock": each player a quarter of the deck; deck / 2 tricks either way."""
    rng = random.Random(1)
    state = Bilka2MatchState(Bilka2Rules(deck=deck, stock=stock), rng=rng)
    assert state.hands[0].bit_count() == state.hands[1].bit_count() == len(deck_cards(deck)) // 4
    log = state.deals[0]
    while state.current_deal is log:
        state.apply(rng.choice(state.legal_actions()))
    assert len(log.trick_winners) == tricks and sum(log.points) == 120
    assert len(log.draws) == len(deck_cards(deck)) // 2


def test_the_stock_is_never_shown():
    """"Dealing and the stock": nothing of the stock is ever shown; a view counts its cards only."""
    state = Bilka2MatchState(Bilka2Rules(), seed=2)
    for player in (N, S):
        view = state.observation(player)
        assert set(view.hand) == set(ids(" ".join(strings(state.hands[player]))))
        assert view.stock_left == 16
        other = state.hands[1 - player]
        assert not any(other >> c & 1 for c in view.hand)


# ---------------------------------------------------------------------- scoring
@pytest.mark.parametrize(("kw", "eggs", "pts", "outcome", "eyes"), [
    ({}, 0, (78, 42), "win", (1, 0)),
    ({}, 0, (95, 25), "rout", (2, 0)),
    ({"eyes": "2-3"}, 0, (95, 25), "rout", (3, 0)),
    ({}, 0, (60, 60), "eggs", (0, 0)),
    ({}, 1, (78, 42), "win", (2, 0)),
])
def test_the_scored_deals_table(kw, eggs, pts, outcome, eyes):
    """"A worked deal", the table of more deals, rows 1-5 (S : N)."""
    r = Bilka2Rules(**kw)
    win, rout = {"1-2": (1, 2), "2-3": (2, 3)}[r.eyes]
    result = score_played_deal(r, pts, (9, 7), win, rout, eggs, False, (0, 0))
    assert (result.outcome, result.eyes) == (outcome, eyes)


def test_lucy_takes_the_match():
    """The table of more deals, row 6: 120 : 0, every trick, S goes to 12 and wins."""
    # S holds the four jacks and the top clubs, leads them all, and takes every trick
    s_hand = "JC JS JH JD AC TC KC QC"
    n_hand = "AH TH KH QH AS TS KS QS"
    stock_s = "9C 8C 7C AD TD KD QD 9D"
    stock_n = "9H 8H 7H 9S 8S 7S 8D 7D"
    state = Bilka2MatchState(Bilka2Rules(), first_dealer=N, auto_deal=False, seed=0)
    state.start_deal([mask(n_hand), mask(s_hand)], ids(stock_s + " " + stock_n))
    while state.current_deal is not None:
        state.apply(max(state.legal_actions()) if state.to_move == S else state.legal_actions()[0])
    log = state.deals[0]
    if log.outcome != "lucy":  # the line above is not enough: play the winning line by hand
        pytest.fail(f"not a Lucy: {log.points} {log.trick_winners}")
    assert state.winner == S and state.score == [0, 12] and state.phase == Phase.OVER


# ---------------------------------------------------------------------- properties
rules_strategy = st.builds(
    Bilka2Rules,
    deck=st.sampled_from(["32", "36", "32-no-sevens", "28"]),
    stock=st.sampled_from(["halves", "after_trick"]),
    eyes=st.sampled_from(["1-2", "2-3"]),
    ace_discard_ban=st.booleans(),
    lucy=st.sampled_from(["win", "zero"]),
    lucy_by=st.sampled_from(["tricks", "points"]),
    eggs=st.sampled_from(["double", "four", "plus_four"]),
    first_deal_two_eyes=st.booleans(),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rules_strategy, seed=st.integers(0, 2**32))
def test_random_legal_play_follows_the_reference(rules, seed):
    """Legal moves, trick winners, trumps from the deal before, the deck whole (hands, stock and
    played cards) after every move, 120 points in every deal, and a winner at the end."""
    rng = random.Random(seed)
    state = Bilka2MatchState(rules, seed=seed)
    full = deck_mask(rules.deck)
    led: set[str] = set()
    trick: list[str] = []
    deal_points = [0, 0]
    last_card: str | None = None
    while state.winner is None:
        log = state.current_deal
        assert log is not None
        trump = "CDHS"[state.trump]
        assert trump == ("C" if last_card is None else last_card[1])
        player = state.to_move
        hand = strings(state.hands[player])
        actions = state.legal_actions()
        assert {card_to_str(a) for a in actions} == ref_legal(hand, trick, trump, led, rules.ace_discard_ban)
        card = card_to_str(rng.choice(actions))
        if not trick and not ref_is_trump(card, trump):
            led.add(card[1])
        trick.append(card)
        leader = state.trick_leader
        state.apply(card_from_str(card))
        if state.current_deal is log:
            in_hands = state.hands[0] | state.hands[1]
            assert not state.hands[0] & state.hands[1]
            plays = mask(" ".join(card_to_str(c) for c in log.plays))
            stock = mask(" ".join(card_to_str(c) for c in log.stock[len(log.draws):]))
            assert not (in_hands & plays or in_hands & stock or plays & stock)
            assert in_hands | plays | stock == full
            assert state.stock_left == len(log.stock) - len(log.draws)
        if len(trick) == 2:
            winner = leader if ref_winner(trick, trump) == 0 else 1 - leader
            assert log.trick_winners[-1] == winner
            deal_points[winner] += points(trick)
            trick = []
            if log.outcome is not None:
                assert sum(log.points) == 120 and list(log.points) == deal_points
                last_card = card
                led, deal_points = set(), [0, 0]
    assert state.phase == Phase.OVER and state.score[state.winner] == 12


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), rules=rules_strategy)
def test_every_match_of_random_legal_moves_ends_with_a_winner(seed, rules):
    state = Bilka2MatchState(rules, seed=seed)
    play_all_passing(state, random.Random(seed))
    assert state.winner in (0, 1) and state.capped_score[state.winner] == 12
    assert all(d.outcome is not None for d in state.deals)
    with pytest.raises(IllegalAction, match="over"):
        state.apply(0)


def test_illegal_actions_say_why_and_change_nothing():
    state = worked()
    with pytest.raises(IllegalAction, match="turn"):
        state.apply(card_from_str("JC"), seat=N)
    with pytest.raises(IllegalAction, match="does not hold"):
        state.apply(card_from_str("JC"))
    state.apply(card_from_str("AH"), seat=S)
    with pytest.raises(IllegalAction, match="must follow hearts"):
        state.apply(card_from_str("JC"))
    assert state.trick == (card_from_str("AH"),) and state.to_move == N


def test_scripted_deals_are_checked():
    state = Bilka2MatchState(Bilka2Rules(), first_dealer=N, auto_deal=False, seed=0)
    with pytest.raises(IllegalAction, match="stock"):
        state.start_deal([mask(FIRST_N), mask(FIRST_S)])
    with pytest.raises(IllegalAction, match="twice"):
        state.start_deal([mask(FIRST_N), mask(FIRST_S)], ids(SECOND_S + " " + SECOND_N.replace("7D", "JS")))
    with pytest.raises(IllegalAction, match="not in the 32 deck"):
        state.start_deal([mask(FIRST_N.replace("7C", "6C")), mask(FIRST_S)], ids(SECOND_S + " " + SECOND_N))
