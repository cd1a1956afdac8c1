"""Kozyol khvalyony for four (docs/other-games.md, "Kozyol khvalyony"): each rule of the page as a
test, citing its section, and properties of random legal play checked against a small reference
written from the page with card strings (not the engine's tables)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from variant_helpers import VALUES, fill_hands, ids, mask, play_all_passing, points, strings

from gameplay.engine.cards import PASS, REDEAL, SEATS, card_from_str, card_to_str, deck_mask
from gameplay.engine.errors import IllegalAction, RulesError
from gameplay.engine.kozyol import KozyolMatchState, KozyolRules
from gameplay.engine.kozyol_rules import redeal_grounds, trump_order
from gameplay.engine.state import Phase
from gameplay.engine.variant_scoring import score_catch, score_played_deal

N, E, S, W = 0, 1, 2, 3
NO_REDEAL = {"redeal_below": 0}


def rules(**kw) -> KozyolRules:
    return KozyolRules(**kw)


def scripted(hands: list[int], dealer: int, **kw) -> KozyolMatchState:
    state = KozyolMatchState(KozyolRules(**kw), first_dealer=dealer, auto_deal=False, seed=0)
    state.start_deal(hands)
    if state.phase == Phase.REDEAL:
        state.end_redeal_phase()
    return state


def play(state: KozyolMatchState, cards: str) -> None:
    for c in cards.split():
        state.apply(card_from_str(c))


# ---------------------------------------------------------------------- reference (from the page)
LADDER_36 = "6C QC QS QH QD JC JS JH JD AD TD KD 9D 8D 7D 6D".split()
PLAIN = "6789KTA"  # low to high, queens and jacks are never plain


def shamok(deck: str, six: bool) -> str | None:
    if not six:
        return None
    return {"36": "6C", "32-no-sevens": "6C", "32": "7C", "28": "8C"}[deck]


def ref_is_trump(card: str, sh: str | None) -> bool:
    return card == sh or card[0] in "QJ" or card[1] == "D"


def ref_rank(card: str, sh: str | None) -> int:
    """Position on the trump ladder, higher is stronger."""
    if card == sh:
        return 100
    if card[0] == "Q":
        return 90 + "DHSC".index(card[1])
    if card[0] == "J":
        return 80 + "DHSC".index(card[1])
    return 60 + "6789QKTA".index(card[0])


def ref_winner(trick: list[str], sh: str | None) -> int:
    trumps = [i for i, c in enumerate(trick) if ref_is_trump(c, sh)]
    if trumps:
        return max(trumps, key=lambda i: ref_rank(trick[i], sh))
    led = trick[0][1]
    return max((i for i, c in enumerate(trick) if c[1] == led), key=lambda i: PLAIN.index(trick[i][0]))


def ref_legal(hand: set[str], trick: list[str], sh: str | None, led: set[str], ace_ban: bool,
              lead_plain: bool) -> set[str]:
    if not trick:
        plain = {c for c in hand if not ref_is_trump(c, sh)}
        return plain if lead_plain and plain else set(hand)
    if ref_is_trump(trick[0], sh):
        follow = {c for c in hand if ref_is_trump(c, sh)}
    else:
        follow = {c for c in hand if c[1] == trick[0][1] and not ref_is_trump(c, sh)}
    if follow:
        return follow
    if ace_ban:
        banned = {c for c in hand if c in ("AC", "AH", "AS") and c[1] not in led}
        if banned != hand:
            return hand - banned
    return set(hand)


# ---------------------------------------------------------------------- rules object
def test_house_rules_defaults_and_refusals():
    """"House rules of Kozyol khvalyony": deck 36 by default; jack_holder is refused."""
    r = KozyolRules()
    assert (r.deck, r.six_of_clubs, r.first_lead) == ("36", True, "ace_of_diamonds")
    assert (r.redeal_below, r.rout_at, r.dealer_leads_plain, r.first_catch_wins) == (14, 90, False, False)
    assert r.to_json()["game"] == "kozyol"
    assert KozyolRules.from_json(r.to_json()) == r
    with pytest.raises(RulesError, match="first_lead"):
        KozyolRules.from_json({"first_lead": "jack_holder"})
    with pytest.raises(RulesError, match="game"):
        KozyolRules.from_json({"game": "bilka"})
    with pytest.raises(RulesError, match="stock"):
        KozyolRules.from_json({"stock": "halves"})
    with pytest.raises(RulesError, match="six_of_clubs"):
        KozyolRules.from_json({"six_of_clubs": 1})


# ---------------------------------------------------------------------- trumps
def test_the_36_card_ladder_is_the_pages():
    """"Trumps": 6C QC QS QH QD JC JS JH JD AD TD KD 9D 8D 7D 6D, 16 trumps and 20 plain cards."""
    assert [card_to_str(c) for c in trump_order(KozyolRules())] == LADDER_36


@pytest.mark.parametrize(("deck", "top"), [("36", "6C"), ("32-no-sevens", "6C"), ("32", "7C"), ("28", "8C")])
def test_the_shamok_is_the_lowest_club_of_the_deck(deck, top):
    """"Trumps", house rule six_of_clubs=true: 7C stands in with 32 cards, 8C with 28."""
    order = [card_to_str(c) for c in trump_order(KozyolRules(deck=deck))]
    assert order[0] == top
    assert order[1:9] == "QC QS QH QD JC JS JH JD".split()


def test_without_the_shamok_the_six_of_clubs_is_a_plain_club():
    """"Trumps", six_of_clubs=false: the queens are the highest trumps, 6C a plain club."""
    order = [card_to_str(c) for c in trump_order(KozyolRules(six_of_clubs=False))]
    assert order[0] == "QC" and "6C" not in order
    # 6C follows a club lead: E holds 6C and no other plain club
    hands = fill_hands({N: "AC AD", E: "6C QS QH QD JS JH JD 9D 8D"}, "36")
    state = scripted(hands, W, six_of_clubs=False, **NO_REDEAL)
    state.apply(card_from_str("AC"))
    assert state.legal_actions() == [card_from_str("6C")]


def test_the_worked_deal():
    """"A worked deal": West deals, North holds AD and leads; NS 69 : EW 51, 2 eyes to NS."""
    hands = [mask("6C QS JD AD 9D AH KH 7S 8C"), mask("QC JH TD 7D TH 6H AS 9S KC"),
             mask("QH JC KD 8D 9H 8H TS 6S AC"), mask("QD JS 6D 7H KS 8S TC 9C 7C")]
    state = KozyolMatchState(KozyolRules(), first_dealer=W, auto_deal=False, seed=0)
    state.start_deal(hands)
    assert state.phase == Phase.REDEAL and not any(state.may_redeal(s) for s in range(4))
    for seat in state.redeal_pending:
        state.apply(PASS, seat)
    assert state.to_move == N
    tricks = [("AH 6H 8H 7H", N, 11, 0), ("KH TH 9H 7C", E, 11, 14), ("AS 6S KS 7S", E, 11, 29),
              ("9S TS 8S 8C", S, 21, 29), ("AC 9C 9D KC", N, 36, 29), ("JD 7D 8D JS", W, 36, 33),
              ("TC QS QC JC", E, 36, 51), ("TD QH 6D AD", S, 60, 51), ("KD QD 6C JH", N, 69, 51)]
    for cards, winner, ns, ew in tricks:
        play(state, cards)
        assert state.deals[0].trick_winners[-1] == winner
        assert state.points == (ns, ew)
    log = state.deals[0]
    assert (log.outcome, log.points, log.eyes, state.score) == ("win", (69, 51), (2, 0), [2, 0])
    assert state.dealer == N  # the deal passes to the next player


def test_worked_deal_trick_4_a_queen_is_no_spade():
    """"A worked deal", trick 4: North's QS is a trump, so he has no plain spade and may play anything."""
    hands = fill_hands({E: "9S", N: "QS 8C 6C JD AD 9D AH KH TH"}, "36", seed=1)
    state = scripted(hands, N, first_lead="after_dealer", **NO_REDEAL)
    state.apply(card_from_str("9S"))
    # S and W have whatever; play their legal cards until N is to move
    while state.to_move != N:
        state.apply(state.legal_actions()[0])
    assert strings(state.legal_mask()) == strings(state.hands[N])


# ---------------------------------------------------------------------- the catch
@pytest.mark.parametrize(("leader", "trick", "catch_pair", "winner"), [
    (N, "6C QC 7D 8D", 0, N),
    (E, "QC AD 9D 6C", 0, N),
    (N, "6C JH QC TD", None, N),
    (N, "QS QC JC KD", None, E),
])
def test_the_catch_table(leader, trick, catch_pair, winner):
    """"Шамок ловить шамку: the catch": the table of four tricks."""
    cards = trick.split()
    fixed = {(leader + i) % 4: c for i, c in enumerate(cards)}
    hands = fill_hands(fixed, "36", seed=leader)
    state = scripted(hands, (leader + 3) % 4, first_lead="after_dealer", **NO_REDEAL)
    play(state, trick)
    log = state.deals[0]
    assert log.trick_winners == [winner]
    if catch_pair is None:
        assert log.outcome is None and log.catch is None and state.to_move == winner
    else:
        assert log.outcome == "catch" and log.catch == winner
        assert log.eyes[catch_pair] == 4 and log.eyes[1 - catch_pair] == 0
        assert state.phase == Phase.DEALING  # the deal stopped; the cards not played stay unplayed
        assert sum(h.bit_count() for h in state.hands) == 32
        assert sum(log.points) == points(cards)  # the card points do not sum to 120


def test_a_catch_can_be_forced():
    """"A catch instead": a player whose only trump is QC must play it to a trump lead."""
    hands = fill_hands({N: "6C", E: "QC AH KH 9H 8H 7H AS KS 9S"}, "36")
    state = scripted(hands, W, first_lead="after_dealer", **NO_REDEAL)
    state.apply(card_from_str("6C"))
    assert state.legal_actions() == [card_from_str("QC")]
    with pytest.raises(IllegalAction, match="must play a trump"):
        state.apply(card_from_str("AH"))
    state.apply(card_from_str("QC"))
    play_rest = state.legal_actions()[0]
    state.apply(play_rest)
    state.apply(state.legal_actions()[0])
    assert state.deals[0].outcome == "catch" and state.score == [4, 0]


def test_first_catch_wins_the_match():
    """"The catch", first_catch_wins=true: a catch in the first played deal ends the match."""
    hands = fill_hands({N: "6C", E: "QC", S: "7D", W: "8D"}, "36")
    state = scripted(hands, W, first_lead="after_dealer", first_catch_wins=True, **NO_REDEAL)
    play(state, "6C QC 7D 8D")
    assert state.winner == 0 and state.phase == Phase.OVER and state.score == [12, 0]


def test_a_catch_in_a_later_deal_does_not_win_with_first_catch_wins():
    """"The catch", first_catch_wins=true: only the first played deal's catch wins the match."""
    state = KozyolMatchState(KozyolRules(first_lead="after_dealer", first_catch_wins=True, redeal_below=0),
                             first_dealer=S, auto_deal=False, seed=3)
    state.start_deal()
    while state.deals[0].outcome is None:
        state.apply(state.legal_actions()[-1])
    assert state.deals[0].outcome != "catch" and state.dealer == W
    state.start_deal(fill_hands({N: "6C", E: "QC", S: "7D", W: "8D"}, "36"))
    assert state.to_move == N
    before = list(state.score)
    play(state, "6C QC 7D 8D")
    assert state.deals[1].outcome == "catch" and state.winner is None
    assert state.score == [before[0] + 4, before[1]]


def test_partners_never_catch_and_without_a_shamok_there_is_no_catch():
    """"The catch": partners' cards never make a catch; six_of_clubs=false: no шамок, no catch."""
    # the шамок and the queen are partners': N 6C, S QC
    partners = fill_hands({N: "6C", E: "JH", S: "QC", W: "TD"}, "36", seed=4)
    state = scripted(partners, W, first_lead="after_dealer", **NO_REDEAL)
    play(state, "6C JH QC TD")
    assert state.deals[0].outcome is None and state.deals[0].trick_winners == [N]
    # no шамок: 6C is a plain club; E, without a plain club, plays QC, which wins
    hands = [mask("6C AH KH 9H 8H 7H 6H AS KS"), mask("QC JS JH JD QS QH QD AD TD"),
             mask("7C 8C 9C TC KC TH 9S 8S 7S"), mask("AC JC KD 9D 8D 7D 6D 6S TS")]
    state = scripted(hands, W, first_lead="after_dealer", six_of_clubs=False, **NO_REDEAL)
    play(state, "6C QC 7C AC")
    assert state.deals[0].outcome is None and state.deals[0].trick_winners == [E]


# ---------------------------------------------------------------------- scoring
@pytest.mark.parametrize(("kw", "eggs", "pts", "outcome", "eyes"), [
    ({}, 0, (69, 51), "win", (2, 0)),
    ({}, 0, (26, 94), "rout", (0, 4)),
    ({}, 0, (90, 30), "rout", (4, 0)),
    ({"rout_at": 91}, 0, (90, 30), "win", (2, 0)),
    ({}, 0, (60, 60), "eggs", (0, 0)),
    ({}, 1, (68, 52), "win", (4, 0)),
    ({"eggs": "plus_four"}, 1, (68, 52), "win", (6, 0)),
])
def test_the_scored_deals_table(kw, eggs, pts, outcome, eyes):
    """"Scoring" and "A worked deal", the table of more deals (rows 1-6 and 9)."""
    result = score_played_deal(KozyolRules(**kw), pts, (5, 4), 2, 4, eggs, False, (0, 0))
    assert (result.outcome, result.eyes) == (outcome, eyes)


def test_the_scored_deals_table_catches_and_lucy():
    """The table of more deals, rows 7, 8, 10 and 11."""
    r = KozyolRules()
    assert score_catch(r, 1, 0, False, False, (0, 0)).eyes == (0, 4)
    assert score_catch(r, 0, 1, False, False, (0, 0)).eyes == (8, 0)
    lucy = score_played_deal(r, (120, 0), (9, 0), 2, 4, 0, False, (3, 5))
    assert lucy.outcome == "lucy" and lucy.match_won == 0 and lucy.eyes == (9, 0)
    won = score_catch(r, 0, 0, True, True, (0, 0))
    assert won.match_won == 0 and won.eyes == (12, 0)
    # a catch is never a Lucy and first_deal_two_eyes does not apply to it
    assert score_catch(KozyolRules(first_deal_two_eyes=True), 0, 0, True, False, (0, 0)).eyes == (4, 0)
    zero = score_played_deal(KozyolRules(lucy="zero"), (120, 0), (9, 0), 2, 4, 0, False, (3, 5))
    assert zero.eyes == (4, 0) and zero.reset == 1


def test_eggs_then_a_catch_in_play():
    """"The catch": eggs before a catch multiply its 4 eyes (double: 4 x 2)."""
    state = KozyolMatchState(KozyolRules(first_lead="after_dealer", redeal_below=0), first_dealer=W,
                             auto_deal=False, seed=0)
    state.eggs = 1
    state.start_deal(fill_hands({N: "6C", E: "QC", S: "7D", W: "8D"}, "36"))
    play(state, "6C QC 7D 8D")
    assert state.score == [8, 0] and state.eggs == 0


# ---------------------------------------------------------------------- lead rules
def test_the_ace_of_diamonds_leads_every_deal():
    """"Dealing and the first lead": first_lead=ace_of_diamonds."""
    rng = random.Random(5)
    state = KozyolMatchState(KozyolRules(redeal_below=0), rng=rng)
    for _ in range(20):
        log = state.current_deal
        assert log is not None and log.hands[log.leader] >> card_from_str("AD") & 1
        while state.current_deal is log:
            state.apply(rng.choice(state.legal_actions()))
        if state.winner is not None:
            break


def test_after_dealer_leads():
    state = KozyolMatchState(KozyolRules(first_lead="after_dealer", redeal_below=0), first_dealer=S, seed=1)
    assert state.to_move == W


def test_dealer_leads_plain():
    """"Dealing and the first lead", dealer_leads_plain=true: in the first played deal both pairs
    lead plain cards while they have them; later only the dealer's pair."""
    hands = fill_hands({N: "QC QS AH 7H"}, "36", seed=2)
    state = scripted(hands, W, first_lead="after_dealer", dealer_leads_plain=True, **NO_REDEAL)
    legal = strings(state.legal_mask())
    assert "QC" not in legal and "AH" in legal
    assert legal == {c for c in strings(state.hands[N]) if not ref_is_trump(c, "6C")}
    # a later deal: N leads again after E dealt (pair EW deals): N is free
    state2 = KozyolMatchState(KozyolRules(first_lead="after_dealer", dealer_leads_plain=True, redeal_below=0),
                              first_dealer=E, auto_deal=False, seed=0)
    state2.start_deal()
    while state2.deals[0].outcome is None:
        state2.apply(state2.legal_actions()[0])
    state2.dealer = W  # the next deal is dealt by W, so N leads and is not of the dealing pair
    state2.start_deal(hands)
    assert strings(state2.legal_mask()) == strings(hands[N])
    state3 = KozyolMatchState(KozyolRules(first_lead="after_dealer", dealer_leads_plain=True, redeal_below=0),
                              first_dealer=E, auto_deal=False, seed=0)
    state3.start_deal()
    while state3.deals[0].outcome is None:
        state3.apply(state3.legal_actions()[0])
    state3.dealer = E  # E deals: S leads, of the other pair; make S's hand N's
    state3.start_deal([hands[2], hands[3], hands[0], hands[1]])
    assert state3.to_move == S and "QC" in strings(state3.legal_mask())


def test_ace_discard_ban():
    """"Playing a trick": ace_discard_ban as in Bilka, plain suits clubs, hearts and spades."""
    hands = fill_hands({N: "KH", E: "AS AC 9D 8D 7D 6D TD KD JD"}, "36")
    state = scripted(hands, W, first_lead="after_dealer", ace_discard_ban=True, **NO_REDEAL)
    state.apply(card_from_str("KH"))
    legal = strings(state.legal_mask())
    assert "AS" not in legal and "AC" not in legal and "9D" in legal


# ---------------------------------------------------------------------- redeal
def test_redeal_grounds():
    """"Redeal": five of a suit counts the diamonds, never the permanent trumps; redeal_queens."""
    r = KozyolRules(redeal_below=0, redeal_five_of_suit=True, redeal_queens=True)
    assert redeal_grounds(r, mask("AD TD KD 9D 8D QH QS JC 7C")) == [("five_of_suit", 1)]
    assert redeal_grounds(r, mask("AC QC JC 6C 9C 8C 7H 8H 9H")) == []  # 6C, QC, JC are trumps
    assert redeal_grounds(r, mask("QC QS QH QD 7C 8H 9H 7S 8S")) == [("queens", 0)]
    assert redeal_grounds(r, mask("6C QC QS QH 7C 8H 9H 7S 8S")) == [("queens", 0)]
    no_six = KozyolRules(redeal_below=0, redeal_queens=True, six_of_clubs=False)
    assert redeal_grounds(no_six, mask("6C QC QS QH 7C 8H 9H 7S 8S")) == []
    assert redeal_grounds(KozyolRules(), mask("6C 7C 8C 9C 6H 7H 8H 9H JD")) == [("points", 2)]


def test_a_redeal_keeps_the_dealer_and_three_redeals_give_an_eye():
    """"Redeal": as in Bilka, the same dealer deals again; three_redeals_eye."""
    rng = random.Random(9)
    state = KozyolMatchState(KozyolRules(redeal_below=30, three_redeals_eye=True), rng=rng, first_dealer=N)
    redeals = 0
    while redeals < 3:
        seats = [s for s in range(4) if state.may_redeal(s)]
        if seats:
            state.apply(REDEAL, seats[0])
            redeals += 1
            assert state.dealer == N
        else:
            state.end_redeal_phase()
            while state.current_deal is not None and state.current_deal.outcome is None:
                state.apply(state.legal_actions()[0])
            redeals = 0
    assert state.deals[-2].outcome == "redeal" and state.deals[-2].eyes == (0, 1)


# ---------------------------------------------------------------------- properties
rules_strategy = st.builds(
    KozyolRules,
    deck=st.sampled_from(["36", "32-no-sevens", "32", "28"]),
    direction=st.sampled_from(["clockwise", "counterclockwise"]),
    six_of_clubs=st.booleans(),
    first_lead=st.sampled_from(["ace_of_diamonds", "after_dealer"]),
    dealer_leads_plain=st.booleans(),
    first_catch_wins=st.booleans(),
    ace_discard_ban=st.booleans(),
    lucy=st.sampled_from(["win", "zero"]),
    lucy_by=st.sampled_from(["tricks", "points"]),
    eggs=st.sampled_from(["double", "four", "plus_four"]),
    redeal_below=st.sampled_from([0, 14, 30]),
    redeal_five_of_suit=st.booleans(),
    redeal_queens=st.booleans(),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rules_strategy, seed=st.integers(0, 2**32))
def test_random_legal_play_follows_the_reference(rules, seed):
    """Legal moves, trick winners, catches, the deck kept whole and 120 points per played deal."""
    rng = random.Random(seed)
    state = KozyolMatchState(rules, seed=seed)
    sh = shamok(rules.deck, rules.six_of_clubs)
    order = "NESW" if rules.direction == "clockwise" else "NWSE"
    full = deck_mask(rules.deck)
    led: set[str] = set()
    trick: list[str] = []
    seats: list[int] = []
    deal_points = [0, 0]
    played = 0
    first_played = True
    while state.winner is None:
        actions = state.legal_actions()
        if actions[-1] == PASS:
            state.apply(rng.choice(actions))
            continue
        log = state.current_deal
        assert log is not None
        seat = state.to_move
        hand = strings(state.hands[seat])
        restricted = rules.dealer_leads_plain and (first_played or seat % 2 == log.dealer % 2)
        assert {card_to_str(a) for a in actions} == ref_legal(hand, trick, sh, led, rules.ace_discard_ban,
                                                              restricted)
        if trick:
            assert order.index(SEATS[seat]) == (order.index(SEATS[seats[-1]]) + 1) % 4
        action = rng.choice(actions)
        card = card_to_str(action)
        if not trick and not ref_is_trump(card, sh):
            led.add(card[1])
        trick.append(card)
        seats.append(seat)
        state.apply(action)
        # the deck is whole: hands and played cards are the deck, each card once
        in_hands = 0
        for h in state.hands:
            assert not in_hands & h
            in_hands |= h
        plays = mask(" ".join(card_to_str(c) for c in log.plays))
        if log.outcome is None:
            assert not in_hands & plays and in_hands | plays == full
        elif log.outcome == "catch":  # stopped: the unplayed cards stay in the dealt hands
            assert plays & (log.hands[0] | log.hands[1] | log.hands[2] | log.hands[3]) == plays
        if len(trick) == 4:
            winner = seats[ref_winner(trick, sh)]
            assert log.trick_winners[-1] == winner
            deal_points[winner % 2] += points(trick)
            catch = sh is not None and sh in trick and "QC" in trick and \
                seats[trick.index(sh)] % 2 != seats[trick.index("QC")] % 2
            assert (log.outcome == "catch") == catch
            trick, seats = [], []
            if log.outcome is not None:
                assert list(log.points) == deal_points
                if catch:
                    assert log.catch is not None and log.eyes[log.catch % 2] >= 4
                else:
                    assert sum(log.points) == 120 and plays == full
                played += 1
                first_played = False
                led, deal_points = set(), [0, 0]
    assert state.phase == Phase.OVER and max(state.score) == 12 and state.score[state.winner] == 12


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), rules=rules_strategy)
def test_every_match_of_random_legal_moves_ends_with_a_winner(seed, rules):
    state = KozyolMatchState(rules, seed=seed)
    play_all_passing(state, random.Random(seed))
    assert state.winner in (0, 1) and state.capped_score[state.winner] == 12
    assert state.legal_actions() == []
    with pytest.raises(IllegalAction, match="over"):
        state.apply(0)


def test_illegal_actions_leave_the_state_unchanged():
    hands = fill_hands({N: "AH", E: "KH"}, "36")
    state = scripted(hands, W, first_lead="after_dealer", **NO_REDEAL)
    with pytest.raises(IllegalAction, match="turn"):
        state.apply(card_from_str("AH"), seat=E)
    not_held = next(c for c in range(36) if not state.hands[N] >> c & 1 and deck_mask("36") >> c & 1)
    with pytest.raises(IllegalAction, match="does not hold"):
        state.apply(not_held)
    state.apply(card_from_str("AH"), seat=N)
    hearts = {c for c in strings(deck_mask("36")) if c[1] == "H" and c[0] not in "QJ"}
    plain_hearts = strings(state.hands[E]) & hearts
    other = next(c for c in strings(state.hands[E]) if c not in plain_hearts)
    with pytest.raises(IllegalAction, match="must follow hearts"):
        state.apply(card_from_str(other))
    assert state.trick == (card_from_str("AH"),)


def test_values_are_bilkas():
    assert VALUES == {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}
    assert sum(points([card_to_str(c)]) for c in ids(" ".join(strings(deck_mask("36"))))) == 120
