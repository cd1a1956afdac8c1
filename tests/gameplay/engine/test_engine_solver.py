"""The double-dummy solver is exact: against a plain minimax written here from RULES.md (endings of
up to four tricks cut from random legal play, every rule that changes what is legal), against a
plain alpha-beta on five tricks from the end (and, marked slow, on full deals), and it agrees with
the engine on every legal card and trick."""

from __future__ import annotations

import importlib.util
import itertools
import random
import sys
from functools import cache

import pytest
from engine_helpers import REPO

import gameplay.engine.solver as solver_module
from gameplay.engine.analysis import start_position
from gameplay.engine.cards import PASS, VALUE, deck_cards
from gameplay.engine.deal_position import Position
from gameplay.engine.match import MatchState
from gameplay.engine.rules import Rules
from gameplay.engine.solver import Solver

# ---------------------------------------------------------------- the rules again, plainly (RULES.md)
JACK, ACE = 5, 8
JACK_ORDER = {0: 4, 3: 3, 2: 2, 1: 1}  # JC > JS > JH > JD (suits C D H S = 0 1 2 3)
PLAIN = {8: 8, 4: 7, 7: 6, 6: 5, 3: 4, 2: 3, 1: 2, 0: 1}  # A > 10 > K > Q > 9 > 8 > 7 > 6


def is_trump(card: int, trump: int) -> bool:
    return card % 9 == JACK or card // 9 == trump


def led_of(card: int, trump: int) -> str | int:
    return "trump" if is_trump(card, trump) else card // 9


def plain_legal(hand: frozenset[int], trick: tuple[int, ...], led_suits: frozenset[int], trump: int,
                ban: bool) -> list[int]:
    if not trick:
        return sorted(hand)
    led = led_of(trick[0], trump)
    if led == "trump":
        follow = [c for c in hand if is_trump(c, trump)]
    else:
        follow = [c for c in hand if c // 9 == led and c % 9 != JACK]
    if follow:
        return sorted(follow)
    if ban:
        allowed = [c for c in hand if not (c % 9 == ACE and c // 9 != trump and c // 9 not in led_suits)]
        if allowed:
            return sorted(allowed)
    return sorted(hand)


def plain_winner(trick: tuple[int, ...], seats: tuple[int, ...], trump: int) -> int:
    def strength(card: int) -> tuple[int, int]:
        if card % 9 == JACK:
            return (3, JACK_ORDER[card // 9])
        if card // 9 == trump:
            return (2, PLAIN[card % 9])
        if card // 9 == trick[0] // 9 and not is_trump(trick[0], trump):
            return (1, PLAIN[card % 9])
        return (0, 0)

    best = max(range(4), key=lambda i: strength(trick[i]))
    return seats[best]


def plain_minimax(trump: int, ban: bool, order: tuple[int, ...]):
    """rest(hands, trick, leader, led suits): the points N/S take from there on (the trick on the
    table included), every line tried."""

    @cache
    def rest(hands: tuple[frozenset[int], ...], trick: tuple[int, ...], leader: int,
             led_suits: frozenset[int]) -> int:
        if not trick and not any(hands):
            return 0
        seats = [leader]
        for _ in range(3):
            seats.append(order[seats[-1]])
        seat = seats[len(trick)]
        values = []
        for card in plain_legal(hands[seat], trick, led_suits, trump, ban):
            new_hands = tuple(h - {card} if s == seat else h for s, h in enumerate(hands))
            new_trick = (*trick, card)
            led = led_suits
            if len(new_trick) == 1 and not is_trump(card, trump):
                led = led | {card // 9}
            if len(new_trick) == 4:
                winner = plain_winner(new_trick, tuple(seats), trump)
                points = sum(VALUE[c] for c in new_trick) if winner % 2 == 0 else 0
                values.append(points + rest(new_hands, (), winner, led))
            else:
                values.append(rest(new_hands, new_trick, leader, led))
        return max(values) if seat % 2 == 0 else min(values)

    return rest


# ---------------------------------------------------------------- positions from the engine's own play
LEGALITY_RULES = [
    Rules(deck=deck, direction=direction, first_lead=first_lead, ace_discard_ban=ban, redeal_below=0)
    for deck, direction, first_lead, ban in itertools.product(
        ("32", "36", "32-no-sevens", "28"), ("clockwise", "counterclockwise"),
        ("jack_holder", "after_dealer"), (False, True))
]


def random_deal(rules: Rules, rng: random.Random, plays: int) -> tuple[MatchState, Position]:
    """A deal of random hands and trump played `plays` cards at random by the engine, and the
    solver's position after them, checked against the engine at every card."""
    state = MatchState(rules, auto_deal=False, first_dealer=rng.randrange(4), rng=rng)
    suits = [0, 1, 2, 3]
    rng.shuffle(suits)
    state.suit_of_seat = (suits[0], suits[1], suits[2], suits[3])
    cards = deck_cards(rules.deck)
    rng.shuffle(cards)
    n = len(cards) // 4
    state.start_deal([sum(1 << c for c in cards[i * n:(i + 1) * n]) for i in range(4)])
    while state.to_move is not None and state.legal_actions()[-1] == PASS:
        state.apply(PASS)
    log = state.deals[-1]
    pos = start_position(rules, log)
    for _ in range(plays):
        assert pos.to_move == state.to_move
        assert pos.legal_mask() == state.legal_mask()
        assert pos.hands == state.hands and pos.points == state.points
        card = rng.choice(state.legal_actions())
        pos = pos.play(card)
        state.apply(card)
    if not pos.over:
        assert pos.to_move == state.to_move and pos.legal_mask() == state.legal_mask()
    return state, pos


def plain_answer(pos: Position, rules: Rules) -> tuple[int, dict[int, int]]:
    hands = tuple(frozenset(c for c in range(36) if h >> c & 1) for h in pos.hands)
    led: set[int] = set()
    if rules.ace_discard_ban:
        led = {s for s in range(4) if s != pos.trump and not pos.unled_aces >> (9 * s + ACE) & 1}
    minimax = plain_minimax(pos.trump, rules.ace_discard_ban, pos.next_seat)
    rest = minimax(hands, pos.trick, pos.leader, frozenset(led))
    cards = {}
    for card in plain_legal(hands[pos.to_move], pos.trick, frozenset(led), pos.trump, rules.ace_discard_ban):
        child = pos.play(card)
        child_hands = tuple(frozenset(c for c in range(36) if h >> c & 1) for h in child.hands)
        child_led = set(led)
        if not pos.trick and not is_trump(card, pos.trump):
            child_led.add(card // 9)
        cards[card] = child.points[0] + minimax(child_hands, child.trick, child.leader, frozenset(child_led))
    return pos.points[0] + rest, cards


def test_the_solvers_legal_cards_and_trick_winners_are_the_engines():
    rng = random.Random(5)
    for i in range(200):
        rules = LEGALITY_RULES[i % len(LEGALITY_RULES)]
        n = len(deck_cards(rules.deck))
        state, pos = random_deal(rules, rng, n)  # every card checked on the way
        assert pos.over and pos.points == state.deals[-1].points


def test_a_thousand_endings_match_a_plain_minimax_par_and_every_card():
    rng = random.Random(11)
    checked = 0
    for i in range(1040):
        rules = LEGALITY_RULES[i % len(LEGALITY_RULES)]
        n = len(deck_cards(rules.deck))
        cut = rng.randrange(max(0, n - 16), n)  # up to four tricks left, often mid-trick
        _, pos = random_deal(rules, rng, cut)
        par, cards = plain_answer(pos, rules)
        solver = Solver(pos.trump, pos.next_seat)
        assert solver.card_values(pos) == cards, (i, rules)
        assert solver.value(pos) == par, (i, rules)
        checked += 1
    assert checked >= 1000


def legal_cards(pos: Position) -> list[int]:
    mask = pos.legal_mask()
    return [c for c in range(36) if mask >> c & 1]


def plain_alpha_beta(pos: Position, window: tuple[int, int] | None = None) -> int:
    """The points N/S end the deal with: alpha-beta with a table of bounds, nothing more.

    With ``window`` (alpha, beta) of final points, fail-soft: a result at or below alpha says the
    value is at most it, one at or above beta that it is at least it."""
    table: dict[tuple[object, ...], tuple[int, int]] = {}

    def search(p: Position, alpha: int, beta: int) -> int:  # the points N/S take from here on
        if p.over:
            return 0
        key = (p.hands, p.leader, p.trick, p.unled_aces)
        lo, hi = table.get(key, (0, 120))
        if lo == hi:
            return lo
        if lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        alpha, beta = max(alpha, lo), min(beta, hi)
        a, b = alpha, beta
        maximise = p.to_move % 2 == 0
        best = -1 if maximise else 999
        for card in sorted(legal_cards(p), key=lambda c: -VALUE[c]):
            child = p.play(card)
            gain = child.points[0] - p.points[0]
            v = gain + search(child, a - gain, b - gain)
            if maximise:
                best = max(best, v)
                a = max(a, v)
            else:
                best = min(best, v)
                b = min(b, v)
            if a >= b:
                break
        if best <= alpha:
            table[key] = (lo, best)
        elif best >= beta:
            table[key] = (best, hi)
        else:
            table[key] = (best, best)
        return best

    if window is not None:
        return pos.points[0] + search(pos, window[0] - pos.points[0], window[1] - pos.points[0])
    return pos.points[0] + search(pos, -1, 999)


def test_five_tricks_from_the_end_match_a_plain_alpha_beta():
    """Deeper than the plain minimax reaches: 17 to 21 cards left, often mid-trick, under every
    legality rule, the 36-card deck too. Seeded, so the work is fixed: about a second of CPU here,
    where whole deals cost the plain search seconds to a minute each (the slow test below)."""
    rng = random.Random(29)
    for i in range(32):
        rules = LEGALITY_RULES[i % len(LEGALITY_RULES)]
        n = len(deck_cards(rules.deck))
        _, pos = random_deal(rules, rng, rng.randrange(n - 21, n - 17))
        value = Solver(pos.trump, pos.next_seat).value(pos)
        assert plain_alpha_beta(pos, (value - 1, value)) >= value, (i, rules)
        assert plain_alpha_beta(pos, (value, value + 1)) <= value, (i, rules)


@cache
def _twenty_full_deals() -> list[tuple[Rules, Position]]:
    # Every legality rule but the 36-card deck, whose nine tricks take the plain search minutes.
    eight_tricks = [r for r in LEGALITY_RULES if r.deck != "36"]
    rng = random.Random(23)
    deals = []
    for i in range(20):
        rules = eight_tricks[(i * 5) % len(eight_tricks)]
        deals.append((rules, random_deal(rules, rng, 0)[1]))
    return deals


@pytest.mark.slow
# No wall-clock limit: the deals are seeded, so the work is fixed (about three minutes of CPU for
# the plain search on an idle machine, most of it in deals 6, 12 and 16), and only the machine's
# load decides how long that takes; under pytest-timeout's 600 s a busy machine failed it
# mid-search. One test a deal, so that the suite's workers share them out instead of one worker
# carrying all twenty at the end of a run.
@pytest.mark.timeout(0)
@pytest.mark.parametrize("i", range(20))
def test_twenty_full_deals_match_a_plain_alpha_beta(i: int) -> None:
    rules, pos = _twenty_full_deals()[i]
    value = Solver(pos.trump, pos.next_seat).value(pos)
    # Proved by the plain search with two zero windows around it (at least value, at most
    # value): exact, and far cheaper than its open-window search, which took minutes a deal.
    assert plain_alpha_beta(pos, (value - 1, value)) >= value, (i, rules)
    assert plain_alpha_beta(pos, (value, value + 1)) <= value, (i, rules)


def test_the_plain_alpha_beta_is_the_minimax_on_endings():
    rng = random.Random(3)
    for i in range(40):
        rules = LEGALITY_RULES[i % len(LEGALITY_RULES)]
        n = len(deck_cards(rules.deck))
        _, pos = random_deal(rules, rng, rng.randrange(n - 12, n))
        value = plain_answer(pos, rules)[0]
        assert plain_alpha_beta(pos) == value
        # its zero windows prove the true value
        assert plain_alpha_beta(pos, (value - 1, value)) >= value
        assert plain_alpha_beta(pos, (value, value + 1)) <= value


def test_equivalent_cards_get_one_search_and_the_same_value():
    # N holds JS and JH with JC out: the two jacks are one move; 9C 8C 7C likewise.
    hands = (0, 0, 0, 0)
    js, jh, jc = 3 * 9 + 5, 2 * 9 + 5, 5
    n_hand = 1 << js | 1 << jh | 1 << 3 | 1 << 2 | 1 << 1
    alive = n_hand | 1 << jc
    reps = solver_module.representatives(n_hand, alive)
    assert reps == 1 << js | 1 << 3
    assert solver_module.representatives(n_hand, alive | 1 << (2 * 9 + 8)) == reps  # AH is not between
    assert solver_module.representatives(n_hand | 0, alive | 1 << 3 * 9) == reps
    assert hands == (0, 0, 0, 0)


def _pure_solver_module():
    spec = importlib.util.spec_from_file_location("pure_solver", REPO / "gameplay" / "engine" / "solver.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["pure_solver"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_the_native_build_answers_as_the_pure_solver():
    if solver_module.__file__ is None or solver_module.__file__.endswith(".py"):
        pytest.skip("the solver is not compiled here (python -m gameplay.engine build-native)")
    pure = _pure_solver_module()
    rng = random.Random(9)
    for i in range(60):
        rules = LEGALITY_RULES[i % len(LEGALITY_RULES)]
        n = len(deck_cards(rules.deck))
        _, pos = random_deal(rules, rng, rng.randrange(n - 16, n))
        twin = pure.Position(pos.hands, pos.trump, pos.leader, pos.trick, pos.unled_aces, pos.points,
                             pos.next_seat)
        assert Solver(pos.trump, pos.next_seat).card_values(pos) == pure.Solver(
            pos.trump, pos.next_seat).card_values(twin)


# ---------------------------------------------------------------- the command line
def _run(tmp_path, args: list[str], content: object):
    import json
    import subprocess

    from engine_helpers import PYTHON

    path = tmp_path / "match.json"
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    return subprocess.run([PYTHON, "-m", "gameplay.engine", *args[:1], str(path), *args[1:]], cwd=REPO,
                          capture_output=True, text=True, timeout=120, check=False)


@pytest.fixture(scope="module")
def match_record():
    from engine_helpers import MatchBuilder

    builder = MatchBuilder({"ace_discard_ban": True, "deck": "28"}, seed=3)
    builder.played()
    builder.redeal()
    builder.played()
    return builder.record()


def test_solve_prints_par_and_every_legal_card_of_the_position(tmp_path, match_record):
    import json

    from gameplay.engine.record import read_record

    out = _run(tmp_path, ["solve", "--deal", "3", "--ply", "13"], match_record)
    assert out.returncode == 0 and out.stderr == ""
    doc = json.loads(out.stdout)
    state = read_record(match_record)
    log = state.deals[2]
    pos = start_position(state.rules, log)
    for card in log.plays[:13]:
        pos = pos.play(card)
    cards = Solver(pos.trump, pos.next_seat).card_values(pos)
    assert doc["format"] == "bilka-solve/1" and (doc["deal"], doc["ply"]) == (3, 13)
    assert doc["to_move"] == "NESW"[pos.to_move]
    assert set(doc["cards"]) == {"6789TJQKA"[c % 9] + "CDHS"[c // 9] for c in legal_cards(pos)}
    assert all(v["NS"] + v["EW"] == 120 for v in doc["cards"].values())
    best = max if pos.to_move % 2 == 0 else min
    assert doc["par"]["NS"] == best(v["NS"] for v in doc["cards"].values()) == best(cards.values())


def test_solve_at_ply_zero_is_the_deals_par(tmp_path, match_record):
    import json

    from gameplay.engine.record import read_record

    doc = json.loads(_run(tmp_path, ["solve", "--deal", "1", "--ply", "0"], match_record).stdout)
    log = read_record(match_record).deals[0]
    assert doc["to_move"] == "NESW"[log.leader]
    pos = start_position(read_record(match_record).rules, log)
    assert doc["par"]["NS"] == plain_alpha_beta(pos)


@pytest.mark.parametrize(("args", "message"), [
    (["solve", "--deal", "2", "--ply", "0"], "deal 2: the deal was redealt"),
    (["solve", "--deal", "1", "--ply", "29"], "deal 1: ply 29 is beyond the deal's 28 cards"),
    (["solve", "--deal", "4", "--ply", "0"], "there is no deal 4"),
])
def test_solve_refuses_a_redealt_deal_and_a_ply_beyond_the_deal(tmp_path, match_record, args, message):
    out = _run(tmp_path, args, match_record)
    assert out.returncode == 2 and out.stdout == ""
    assert len(out.stderr.splitlines()) == 1 and out.stderr.startswith(message)


@pytest.mark.parametrize("command", [["solve", "--deal", "1", "--ply", "0"], ["analyse"]])
def test_a_broken_record_is_refused_in_one_line(tmp_path, match_record, command):
    broken = dict(match_record)
    broken["deals"] = [dict(match_record["deals"][0])]
    broken["deals"][0]["plays"] = list(reversed(broken["deals"][0]["plays"]))
    for content in (broken, "{not json"):
        out = _run(tmp_path, command, content)
        assert out.returncode == 2 and out.stdout == "" and len(out.stderr.splitlines()) == 1


def test_analyse_gives_each_played_deal_its_par_and_each_card_its_loss(tmp_path, match_record):
    import json

    out = _run(tmp_path, ["analyse"], match_record)
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert doc["format"] == "bilka-analysis/1"
    assert [d["deal"] for d in doc["deals"]] == [1, 3]  # the redeal is skipped
    for d, number in zip(doc["deals"], (0, 2), strict=True):
        plays = match_record["deals"][number]["plays"]
        assert [c["card"] for c in d["cards"]] == plays
        assert d["par"] == d["cards"][0]["par"]
        for c in d["cards"]:
            assert c["lost"] >= 0 and (c["lost"] == 0) == (c["card"] in c["best"])
        # par moves only by what was lost, and ends at the deal's points
        ns = d["par"]["NS"]
        for c, after in zip(d["cards"], [*d["cards"][1:], None], strict=True):
            ns += -c["lost"] if c["seat"] in "NS" else c["lost"]
            if after is not None:
                assert after["par"]["NS"] == ns
