"""The `game` parameter (docs/other-games.md: `bilka`, `bilka-2`, `kozyol`) and the adapted
beginner bot over thousands of random deals of both new games."""

from __future__ import annotations

import random

import pytest

from gameplay.engine.bilka2 import Bilka2MatchState, Bilka2Rules
from gameplay.engine.cards import PASS, REDEAL
from gameplay.engine.errors import IllegalAction, RulesError
from gameplay.engine.games import GAMES, SEATS, game_name, game_of, new_match, parameters, rules_from_json
from gameplay.engine.kozyol import KozyolMatchState, KozyolRules
from gameplay.engine.match import MatchState
from gameplay.engine.rules import Rules
from gameplay.engine.rules import parameters as bilka_parameters
from gameplay.engine.variant_bot import VariantBot, choose_action


def test_bilka_is_the_default_and_unchanged():
    """"The rules object … will carry a `game` field: `bilka` … the default"."""
    assert rules_from_json(None) == Rules() and rules_from_json({}) == Rules()
    assert rules_from_json({"game": "bilka", "deck": "36"}) == Rules(deck="36")
    assert "game" not in Rules().to_json()  # what Bilka writes is as before
    assert isinstance(new_match(seed=1), MatchState) and isinstance(new_match(Rules(), seed=1), MatchState)
    assert parameters() == bilka_parameters() and game_of({"deck": "32"}) == "bilka"
    with pytest.raises(RulesError, match="ace_of_diamonds"):
        rules_from_json({"first_lead": "ace_of_diamonds"})


def test_the_game_selects_the_engine():
    assert GAMES == ("bilka", "kozyol", "bilka-2") and SEATS == {"bilka": 4, "kozyol": 4, "bilka-2": 2}
    k = rules_from_json({"game": "kozyol", "deck": "32"})
    assert k == KozyolRules(deck="32") and game_name(k) == "kozyol"
    assert isinstance(new_match(k, seed=1), KozyolMatchState)
    b = rules_from_json({"game": "bilka-2", "stock": "after_trick"})
    assert b == Bilka2Rules(stock="after_trick") and game_name(b) == "bilka-2"
    assert isinstance(new_match(b, seed=1), Bilka2MatchState)
    assert rules_from_json(k.to_json()) == k and rules_from_json(b.to_json()) == b
    with pytest.raises(RulesError, match="game"):
        rules_from_json({"game": "durak"})
    with pytest.raises(RulesError, match="jack_holder"):
        rules_from_json({"game": "kozyol", "first_lead": "jack_holder"})
    assert [p.name for p in parameters("kozyol")][:3] == ["deck", "direction", "six_of_clubs"]
    assert {p.name: p.default for p in parameters("bilka-2")}["stock"] == "halves"
    with pytest.raises(RulesError):
        parameters("durak")


@pytest.mark.parametrize("game", ["kozyol", "bilka-2"])
def test_the_beginner_bot_is_legal_over_thousands_of_deals(game):
    """The adapted beginner bot, at every seat, over 2,000 played random deals of each game (varied
    house rules): every action it picks is legal, and every match ends with a winner."""
    rng = random.Random(11)
    bot = VariantBot(random.Random(12))
    variants = ([KozyolRules(), KozyolRules(deck="32", dealer_leads_plain=True, ace_discard_ban=True),
                 KozyolRules(deck="28", redeal_queens=True, redeal_five_of_suit=True, three_redeals_eye=True),
                 KozyolRules(six_of_clubs=False, first_lead="after_dealer", redeal_below=30)]
                if game == "kozyol" else
                [Bilka2Rules(), Bilka2Rules(stock="after_trick", deck="36", ace_discard_ban=True),
                 Bilka2Rules(deck="28", eyes="2-3", lucy="zero"), Bilka2Rules(deck="32-no-sevens")])
    deals = outcomes = 0
    seen: set[str] = set()
    while deals < 2000:
        state = new_match(variants[deals % len(variants)], rng=rng)
        while state.winner is None:
            pending = state.redeal_pending
            seat = pending[0] if pending else state.to_move
            assert seat is not None
            view = state.observation(seat)
            action = bot(view)
            if pending:
                assert action in (REDEAL, PASS) and action in state.redeal_options(seat)
            else:
                assert action in state.legal_actions() and list(view.legal) == state.legal_actions()
            state.apply(action, seat)
        assert state.winner in (0, 1)
        deals += sum(1 for d in state.deals if d.outcome != "redeal")
        outcomes += 1
        seen.update(d.outcome or "" for d in state.deals)
    assert outcomes > 10
    if game == "kozyol":
        assert {"win", "rout", "catch"} <= seen
    else:
        assert {"win", "rout"} <= seen


def test_the_bot_catches_the_queen_when_it_can():
    """The bot throws its шамок onto a trick holding the other pair's queen of clubs (it would
    otherwise follow with its lowest trump, 7D) and never onto its partner's."""
    from variant_helpers import fill_hands, mask

    hands = fill_hands({0: "QC", 1: "6C 7D 8D AH KH 9H 8H 7H 6H", 2: "AS", 3: "KS"}, "36", seed=7)
    state = KozyolMatchState(KozyolRules(first_lead="after_dealer", redeal_below=0), first_dealer=3,
                             auto_deal=False, seed=0)
    state.start_deal(hands)
    state.apply(6)  # N leads QC
    assert state.legal_mask() == mask("6C 7D 8D")
    assert choose_action(state.observation(1), random.Random(0)) == 0  # 6C
    partners = fill_hands({0: "QC", 2: "6C 7D 8D AH KH 9H 8H 7H 6H"}, "36", seed=8)
    state = KozyolMatchState(KozyolRules(first_lead="after_dealer", redeal_below=0), first_dealer=3,
                             auto_deal=False, seed=0)
    state.start_deal(partners)
    state.apply(6)
    state.apply(state.legal_actions()[0])
    assert state.to_move == 2 and choose_action(state.observation(2), random.Random(0)) != 0


def test_the_bot_refuses_a_seat_without_an_action():
    state = new_match(Bilka2Rules(), seed=1)
    idle = 1 - state.to_move
    with pytest.raises(ValueError, match="no action"):
        choose_action(state.observation(idle), random.Random(0))
    with pytest.raises(IllegalAction):
        state.apply(state.legal_actions()[0], seat=idle)
