"""Records of all three games (docs/record-format.md, "Records of the other games"): random matches
of each game round-trip through write, read and score; Bilka's old records read byte for byte as
before; an unknown game is refused in one line; the new games deal by their shuffle schemes."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gameplay.engine import bilka2_rules, kozyol_rules
from gameplay.engine.bilka2 import Bilka2MatchState, Bilka2Rules
from gameplay.engine.cards import mask_cards
from gameplay.engine.errors import RecordError
from gameplay.engine.games import GAMES, new_match, rules_from_json
from gameplay.engine.house_rules import Spec
from gameplay.engine.kozyol import KozyolMatchState, KozyolRules
from gameplay.engine.match import MatchState
from gameplay.engine.record import read_record, record_to_json, score_record
from gameplay.engine.record_games import (
    game_record_to_json,
    read_game_record,
    score_game_record,
    score_game_state,
    write_game_record,
)
from gameplay.engine.rules import Rules
from gameplay.engine.shuffle import (
    BILKA2_SCHEME,
    GAME_SCHEMES,
    KOZYOL_SCHEME,
    Shuffle,
    dealt_cards,
    first_dealer,
)
from gameplay.engine.state import Phase

FIXTURES = Path(__file__).parent / "fixtures"
OLD_RECORDS = sorted(FIXTURES.glob("bilka-*.record.json"))
SEED = bytes(range(32))
FOUR = ("north", "east", "south", "west")


# ---------------------------------------------------------------------- random matches
def _rules_json(draw: st.DrawFn, game: str, spec: Spec) -> dict[str, object]:
    out: dict[str, object] = {"game": game}
    for key, values in spec.choices.items():
        out[key] = draw(st.sampled_from(values))
    for key, ints in spec.int_choices.items():
        out[key] = draw(st.sampled_from(ints))
    for key, (low, high) in spec.int_ranges.items():
        out[key] = draw(st.integers(low, high))
    for key in spec.bools:
        out[key] = draw(st.booleans())
    return out


@st.composite
def game_rules(draw: st.DrawFn, game: str) -> dict[str, object]:
    if game == "kozyol":
        return _rules_json(draw, game, kozyol_rules.SPEC)
    if game == "bilka-2":
        return _rules_json(draw, game, bilka2_rules.SPEC)
    return Rules(deck=draw(st.sampled_from(["32", "36", "28"])),
                 redeal_below=draw(st.sampled_from([0, 14, 20])),
                 eggs=draw(st.sampled_from(["double", "four"]))).to_json()


def play_randomly(state, rng: random.Random, moves: int) -> None:
    """Random legal actions (redeal answers included), now and then the redeal question's time
    running out, until `moves` are made or the match is over."""
    for _ in range(moves):
        if state.winner is not None:
            return
        if state.phase == Phase.REDEAL and rng.random() < 0.1:
            state.end_redeal_phase()
            continue
        actions = state.legal_actions()
        if not actions:
            return
        state.apply(rng.choice(actions))


def snapshot(state) -> dict[str, object]:
    """What a player or a scorer can tell of a match state."""
    out = {
        "phase": state.phase, "to_move": state.to_move, "winner": state.winner, "score": list(state.score),
        "dealer": state.dealer, "hands": state.hands, "trick": state.trick, "points": state.points,
        "eggs": state.eggs, "pending": state.redeal_pending, "trump": state.trump, "deals": len(state.deals),
        "legal": state.legal_actions() if state.phase in (Phase.PLAY, Phase.REDEAL) else [],
        "end": state.end,
    }
    if isinstance(state, Bilka2MatchState):
        out["stock_left"] = state.stock_left
    return out


def random_match(game: str, rules_json: dict[str, object], seed: int, moves: int, shuffled: bool,
                 end: tuple[str, int] | None, named: bool):
    rules = rules_from_json(rules_json)
    seats = "NS" if game == "bilka-2" else "NESW"
    shuffle = Shuffle.fresh(scheme=GAME_SCHEMES[game]) if shuffled else None
    players = {s: f"player {s}" for s in seats} if named else None
    state = new_match(rules, seed=seed, shuffle=shuffle, players=players)
    play_randomly(state, random.Random(seed), moves)
    if end is not None and state.phase != Phase.OVER:
        state.end_match(end[0], end[1] % len(seats))
    return state


def match_strategy(game: str) -> st.SearchStrategy:
    return st.tuples(
        game_rules(game), st.integers(0, 2**32), st.integers(0, 700), st.booleans(),
        st.none() | st.tuples(st.sampled_from(["timeout", "resign", "forfeit"]), st.integers(0, 3)),
        st.booleans(),
    )


def check_round_trip(game: str, args: tuple) -> None:
    rules_json, seed, moves, shuffled, end, named = args
    state = random_match(game, rules_json, seed, moves, shuffled, end, named)
    record = write_game_record(state)
    text = json.dumps(record, ensure_ascii=False)
    back = read_game_record(text)
    assert type(back) is type(state)
    assert write_game_record(back) == record
    assert game_record_to_json(back) == game_record_to_json(state)
    assert snapshot(back) == snapshot(state)
    score = score_game_state(state)
    assert score_game_state(back) == score == score_game_record(text)
    if game == "bilka":
        assert score_record(text) == score
    if game != "bilka":
        assert record["game"] == game and score["game"] == game
    else:
        assert "game" not in record and "game" not in score
    # play on from both to the end of the current deal (later deals come from each state's rng):
    # the stock's remaining cards and their draws must be the same
    rng = random.Random(seed + 1)
    number = len(state.deals)
    state.auto_deal = back.auto_deal = False  # a record read before the end may not know the seed
    while state.phase in (Phase.PLAY, Phase.REDEAL) and len(state.deals) == number:
        actions = state.legal_actions()
        assert back.legal_actions() == actions
        action = rng.choice(actions)
        state.apply(action)
        back.apply(action)
        assert snapshot(back) == snapshot(state)
    assert score_game_state(back) == score_game_state(state)


@settings(max_examples=60)
@given(match_strategy("kozyol"))
def test_random_kozyol_matches_round_trip(args: tuple) -> None:
    check_round_trip("kozyol", args)


@settings(max_examples=60)
@given(match_strategy("bilka-2"))
def test_random_bilka2_matches_round_trip(args: tuple) -> None:
    check_round_trip("bilka-2", args)


@settings(max_examples=25)
@given(match_strategy("bilka"))
def test_random_bilka_matches_round_trip_through_the_dispatchers(args: tuple) -> None:
    check_round_trip("bilka", args)


@pytest.mark.parametrize("game", ["kozyol", "bilka-2"])
def test_whole_matches_round_trip(game: str) -> None:
    for seed in range(6):
        state = new_match(rules_from_json({"game": game}), seed=seed,
                          shuffle=Shuffle.fresh(scheme=GAME_SCHEMES[game]))
        play_randomly(state, random.Random(seed), 100_000)
        assert state.winner is not None
        record = write_game_record(state)
        assert "seed" in record["shuffle"]  # revealed: the match is over
        back = read_game_record(json.dumps(record))
        assert snapshot(back) == snapshot(state) and back.winner == state.winner
        sides = "NS" if game == "bilka-2" else ("NS", "EW")
        assert score_game_record(record)["winner"] == sides[state.winner]


# ---------------------------------------------------------------------- old Bilka records
@pytest.mark.parametrize("path", OLD_RECORDS, ids=lambda p: p.name)
def test_an_old_bilka_record_reads_and_scores_unchanged(path: Path) -> None:
    text = path.read_text(encoding="utf-8").rstrip("\n")
    score = json.loads(path.with_name(path.name.replace(".record.", ".score.")).read_text(encoding="utf-8"))
    state = read_record(text)
    assert record_to_json(state) == text  # byte for byte
    assert score_record(text) == score
    assert score_game_record(text) == score
    via = read_game_record(text)
    assert isinstance(via, MatchState)
    assert game_record_to_json(via) == text
    named = json.loads(text) | {"game": "bilka"}  # naming the default changes nothing
    assert score_record(named) == score
    assert record_to_json(read_record(named)) == text


def test_the_fixtures_cover_what_an_old_record_holds() -> None:
    texts = " ".join(p.read_text(encoding="utf-8") for p in OLD_RECORDS)
    for key in ('"shuffle"', '"penalties"', '"end"', '"redeal"', '"players"'):
        assert key in texts, key


# ---------------------------------------------------------------------- refusals
def _kozyol_record() -> dict:
    state = KozyolMatchState(KozyolRules(), seed=1, shuffle=Shuffle(FOUR, seed=SEED, scheme=KOZYOL_SCHEME))
    play_randomly(state, random.Random(3), 60)
    return write_game_record(state)


def _bilka2_record() -> dict:
    state = Bilka2MatchState(Bilka2Rules(), seed=1, shuffle=Shuffle(("north", "south"), seed=SEED,
                                                                     scheme=BILKA2_SCHEME))
    play_randomly(state, random.Random(3), 40)
    return write_game_record(state)


@pytest.mark.parametrize("game", ["durak", "Kozyol", "", 7, None, ["kozyol"]])
def test_an_unknown_game_is_refused_in_one_line(game: object) -> None:
    shown = json.dumps(game)
    line = f"unknown game {shown}: the known games are {', '.join(GAMES)}"
    old = json.loads(OLD_RECORDS[0].read_text(encoding="utf-8"))
    for record in (_kozyol_record(), _bilka2_record(), old):
        record["game"] = game
        for reader in (read_record, read_game_record, score_record, score_game_record):
            with pytest.raises(RecordError) as caught:
                reader(json.dumps(record))
            assert str(caught.value) == line
            assert "\n" not in line


def test_read_record_reads_bilka_alone() -> None:
    with pytest.raises(RecordError, match="^this is a kozyol record; only bilka records are read here$"):
        read_record(_kozyol_record())


def _deal1(record: dict) -> dict:
    return record["deals"][0]


def _mutations() -> list[tuple[str, object, str]]:
    def kozyol(change):  # noqa: ANN001, ANN202
        def make() -> dict:
            rec = _kozyol_record()
            change(rec)
            return rec
        return make

    def bilka2(change):  # noqa: ANN001, ANN202
        def make() -> dict:
            rec = _bilka2_record()
            change(rec)
            return rec
        return make

    def full_deal(rec: dict) -> None:
        rec["deals"] = rec["deals"][:1]
        rec["deals"][0]["plays"].append("AS")

    return [
        ("k-penalties", kozyol(lambda r: r.update(penalties=[])),
         "unknown key 'penalties' in a kozyol record"),
        ("k-rules-game", kozyol(lambda r: r["rules"].update(game="bilka-2")),
         'rules.game is "bilka-2" but the record is a kozyol record'),
        ("k-scheme", kozyol(lambda r: r["shuffle"].update(scheme="bilka-shuffle/1")),
         "shuffle.scheme must be 'kozyol-shuffle/1', not 'bilka-shuffle/1'"),
        ("k-redeal", kozyol(lambda r: r.update(deals=[_deal1(r) | {"redeal": "N", "plays": []}])),
         "deal 1: N may not ask for a redeal: the hand does not qualify"),
        ("k-rule", kozyol(lambda r: r["rules"].update(deck="24")), "rules.deck: must be one of"),
        ("k-seat", kozyol(lambda r: r.update(end={"reason": "resign", "seat": "X"})),
         "end.seat must be one of N, E, S, W, not 'X'"),
        ("b-stock", bilka2(lambda r: _deal1(r).pop("stock")), "deal 1: a deal of bilka-2 needs its stock"),
        ("b-short-stock", bilka2(lambda r: _deal1(r).update(stock=_deal1(r)["stock"][1:])),
         "deal 1: the stock must hold the other 16 cards of the deck"),
        ("b-stock-card", bilka2(lambda r: _deal1(r)["stock"].__setitem__(0, "ZZ")),
         "deal 1: 'ZZ' in the stock is not a card"),
        ("b-hands", bilka2(lambda r: _deal1(r)["hands"].update(E=[])),
         "deal 1: hands must give the cards of N and S"),
        ("b-redeal", bilka2(lambda r: _deal1(r).update(redeal="N")),
         "deal 1: unknown key 'redeal' in the deal"),
        ("b-penalties", bilka2(lambda r: r.update(penalties=[])),
         "unknown key 'penalties' in a bilka-2 record"),
        ("b-players", bilka2(lambda r: r.update(players={"E": "x"})), "players must map seats N, S to names"),
        ("b-seat", bilka2(lambda r: r.update(end={"reason": "resign", "seat": "E"})),
         "end.seat must be one of N, S, not 'E'"),
        ("b-more", bilka2(full_deal), "deal 1, trick 17: 'AS' is one card more than the deal has"),
        ("b-scheme", bilka2(lambda r: r["shuffle"]["client_seeds"].update(E="e")),
         "shuffle.client_seeds must give the client seeds of N and S"),
    ]


@pytest.mark.parametrize(("name", "make", "message"), _mutations(), ids=[m[0] for m in _mutations()])
def test_a_broken_record_of_a_new_game_is_refused(name: str, make, message: str) -> None:  # noqa: ANN001
    record = make()
    with pytest.raises(RecordError) as caught:
        score_game_record(json.dumps(record))
    assert str(caught.value).startswith(message), str(caught.value)


def test_a_card_not_held_names_the_deal_trick_player_and_card() -> None:
    record = _bilka2_record()
    deal = _deal1(record)
    leader = "S" if deal["dealer"] == "N" else "N"
    other = "N" if leader == "S" else "S"
    deal["plays"][0] = deal["hands"][other][0]
    with pytest.raises(RecordError, match=rf"^deal 1, trick 1: {leader} does not hold {deal['plays'][0]}$"):
        read_game_record(record)


# ---------------------------------------------------------------------- the shuffles deal the new games
def test_a_kozyol_match_is_dealt_by_kozyol_shuffle() -> None:
    shuffle = Shuffle(FOUR, seed=SEED, scheme=KOZYOL_SCHEME)
    state = KozyolMatchState(KozyolRules(redeal_below=0), shuffle=shuffle)
    assert state.dealer == first_dealer(SEED, FOUR, KOZYOL_SCHEME)
    play_randomly(state, random.Random(0), 200)
    for k, log in enumerate(state.deals, start=1):
        cards = dealt_cards(SEED, FOUR, k, "36", KOZYOL_SCHEME)
        assert [set(mask_cards(h)) for h in log.hands] == [set(cards[9 * s:9 * s + 9]) for s in range(4)]
    assert dealt_cards(SEED, FOUR, 1, "36", KOZYOL_SCHEME) != dealt_cards(SEED, FOUR, 1, "36")  # own scheme


@pytest.mark.parametrize("stock", ["halves", "after_trick"])
def test_a_bilka2_match_is_dealt_by_bilka2_shuffle(stock: str) -> None:
    seeds = ("north", "south")
    state = Bilka2MatchState(Bilka2Rules(stock=stock, deck="36"), shuffle=Shuffle(seeds, seed=SEED,
                                                                                  scheme=BILKA2_SCHEME))
    assert state.dealer == first_dealer(SEED, seeds, BILKA2_SCHEME)
    play_randomly(state, random.Random(0), 100)
    for k, log in enumerate(state.deals, start=1):
        cards = dealt_cards(SEED, seeds, k, "36", BILKA2_SCHEME)
        assert set(mask_cards(log.hands[0])) == set(cards[:9])
        assert set(mask_cards(log.hands[1])) == set(cards[9:18])
        assert list(log.stock) == cards[18:]
        assert [c for _, c in log.draws] == cards[18:18 + len(log.draws)]  # drawn from the top, in order


def test_the_seed_is_in_a_record_only_once_the_match_is_over() -> None:
    shuffle = Shuffle(("north", "south"), seed=SEED, scheme=BILKA2_SCHEME)
    state = Bilka2MatchState(Bilka2Rules(), shuffle=shuffle)
    play_randomly(state, random.Random(3), 40)
    record = write_game_record(state)
    assert "seed" not in record["shuffle"] and set(record["shuffle"]["client_seeds"]) == {"N", "S"}
    back = read_game_record(record)
    assert back.shuffle is not None and back.shuffle.seed is None
    state.end_match("resign", 0)
    assert write_game_record(state)["shuffle"]["seed"] == SEED.hex()


@pytest.mark.parametrize("game", ["kozyol", "bilka-2"])
def test_verify_deal_checks_a_finished_record_of_the_new_games(game: str) -> None:
    from gameplay.engine.verify import verify_record

    shuffle = Shuffle.fresh(scheme=GAME_SCHEMES[game])
    state = new_match(rules_from_json({"game": game}), seed=5, shuffle=shuffle)
    play_randomly(state, random.Random(5), 100_000)
    record = write_game_record(state)
    verdict = verify_record(json.dumps(record))
    assert verdict.ok and verdict.scheme == GAME_SCHEMES[game], verdict.lines()
    assert len(verdict.deals) == len(record["deals"])
    deal = record["deals"][-1]
    if game == "bilka-2":
        deal["stock"][0], deal["stock"][1] = deal["stock"][1], deal["stock"][0]  # same cards, another order
        differing = ["stock"]
    else:
        deal["hands"]["N"][0], deal["hands"]["E"][0] = deal["hands"]["E"][0], deal["hands"]["N"][0]
        differing = ["N", "E"]
    verdict = verify_record(json.dumps(record))
    assert not verdict.ok and verdict.disagreeing == [len(record["deals"])]
    assert verdict.deals[-1].differing == differing
