"""The worked examples of the other games' records and shuffles hold against the engine.

docs/record-format.md ("Records of the other games") and docs/shuffle.md ("Kozyol and Bilka for
two"): each example is recomputed with `gameplay.engine`, and the shuffles also with an
independent reading of the recipe written here from the doc's words. Pure: no database, no site.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import subprocess
import sys
from pathlib import Path

from gameplay.engine.cards import card_to_str, deck_cards
from gameplay.engine.record_games import read_game_record, score_game_record, write_game_record
from gameplay.engine.shuffle import BILKA2_SCHEME, KOZYOL_SCHEME, deal_message, dealt_cards, first_dealer
from tests.docs.test_docs_examples import (
    RECORD_DOC,
    ROOT,
    SHUFFLE_DOC,
    codes,
    example_block,
    example_json,
    example_table,
)

GAMES_SHOWN = ("kozyol", "bilka-2")


def recipe_deck(seed: bytes, scheme: str, client_seeds: list[str], k: int, deck: str) -> list[str]:
    """The docs' recipe, step by step: the message, the HMAC byte stream, Fisher-Yates with rejection."""
    message = scheme.encode() + b"".join(bytes((len(s),)) + s.encode() for s in client_seeds)
    message += k.to_bytes(4, "big")
    stream = b"".join(hmac.new(seed, message + b.to_bytes(4, "big"), hashlib.sha256).digest()
                      for b in range(40))
    cards = [card_to_str(c) for c in deck_cards(deck)]
    pos = 0
    for i in range(len(cards) - 1, 0, -1):
        while stream[pos] >= 256 - 256 % (i + 1):
            pos += 1
        j = stream[pos] % (i + 1)
        pos += 1
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def _shown(name: str) -> dict[str, str]:
    return {what: " ".join(codes(value)) for what, value in example_table(SHUFFLE_DOC, name)}


def test_the_kozyol_shuffle_example_deals_as_shown() -> None:
    shown = _shown("kozyol-shuffle")
    seed = bytes.fromhex(shown["match seed (hex)"])
    seeds = shown["client seeds of N, E, S, W"].split()
    deck = shown["deck"]
    message = deal_message(seeds, 1, KOZYOL_SCHEME)
    assert message.hex() == shown["message of deal 1 (hex)"]
    assert hmac.digest(seed, message + bytes(4), "sha256")[:8].hex(" ") == shown["stream of deal 1 begins"]
    engine = " ".join(card_to_str(c) for c in dealt_cards(seed, seeds, 1, deck, KOZYOL_SCHEME))
    assert engine == shown["deal 1: the deck after the shuffle"]
    assert " ".join(recipe_deck(seed, KOZYOL_SCHEME, seeds, 1, deck)) == engine
    assert "NESW"[first_dealer(seed, seeds, KOZYOL_SCHEME)] == shown["first dealer"]
    first = hmac.digest(seed, deal_message(seeds, 0, KOZYOL_SCHEME) + bytes(4), "sha256")[0]
    assert first < 252 and "NESW"[first % 4] == shown["first dealer"]


def test_the_bilka2_shuffle_example_deals_as_shown() -> None:
    shown = _shown("bilka-2-shuffle")
    seed = bytes.fromhex(shown["match seed (hex)"])
    seeds = shown["client seeds of N, S"].split()
    deck = shown["deck"]
    message = deal_message(seeds, 1, BILKA2_SCHEME)
    assert message.hex() == shown["message of deal 1 (hex)"]
    assert hmac.digest(seed, message + bytes(4), "sha256")[:8].hex(" ") == shown["stream of deal 1 begins"]
    cards = recipe_deck(seed, BILKA2_SCHEME, seeds, 1, deck)
    assert [card_to_str(c) for c in dealt_cards(seed, seeds, 1, deck, BILKA2_SCHEME)] == cards
    assert " ".join(cards[:8]) == shown["deal 1: the hand of N"]
    assert " ".join(cards[8:16]) == shown["deal 1: the hand of S"]
    assert " ".join(cards[16:]) == shown["deal 1: the stock, top first"]
    first = hmac.digest(seed, deal_message(seeds, 0, BILKA2_SCHEME) + bytes(4), "sha256")[0]
    assert "NS"[first % 2] == "NS"[first_dealer(seed, seeds, BILKA2_SCHEME)] == shown["first dealer"]


def test_the_example_records_score_as_shown() -> None:
    for game in GAMES_SHOWN:
        record = example_json(RECORD_DOC, f"{game}-record")
        assert record["game"] == game
        assert score_game_record(record) == example_json(RECORD_DOC, f"{game}-score"), game


def test_the_example_records_are_what_the_engine_writes() -> None:
    for game in GAMES_SHOWN:
        record = example_json(RECORD_DOC, f"{game}-record")
        assert write_game_record(read_game_record(record)) == record, game


def test_the_example_records_hold_the_deals_of_their_shuffle() -> None:
    """Every deal of each example is the scheme's deal k, from the seed and client seeds shown."""
    for game in GAMES_SHOWN:
        record = example_json(RECORD_DOC, f"{game}-record")
        shuffle = record["shuffle"]
        seats = list(shuffle["client_seeds"])
        seeds = [shuffle["client_seeds"][s] for s in seats]
        seed = bytes.fromhex(shuffle["seed"])
        assert hashlib.sha256(seed).hexdigest() == shuffle["commitment"]
        deck = record["rules"]["deck"]
        first = hmac.digest(seed, deal_message(seeds, 0, shuffle["scheme"]) + bytes(4), "sha256")[0]
        assert record["deals"][0]["dealer"] == seats[first % len(seats)], game
        for k, deal in enumerate(record["deals"], start=1):
            cards = recipe_deck(seed, shuffle["scheme"], seeds, k, deck)
            h = len(cards) // 4
            for i, seat in enumerate(seats):
                assert set(deal["hands"][seat]) == set(cards[i * h:(i + 1) * h]), (game, k, seat)
            if game == "bilka-2":
                assert deal["stock"] == cards[2 * h:], (game, k)


def test_the_score_command_scores_the_examples(tmp_path: Path) -> None:
    for game in GAMES_SHOWN:
        path = tmp_path / f"{game}.json"
        path.write_text(json.dumps(example_json(RECORD_DOC, f"{game}-record")), encoding="utf-8")
        done = subprocess.run([sys.executable, "-m", "gameplay.engine", "score", str(path)],
                              capture_output=True, text=True, cwd=ROOT, check=False)
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout) == example_json(RECORD_DOC, f"{game}-score")


def test_an_unknown_game_gets_the_line_shown(tmp_path: Path) -> None:
    where, line = example_block(RECORD_DOC, "unknown-game")
    record = example_json(RECORD_DOC, "kozyol-record") | {"game": where["game"]}
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "gameplay.engine", "score", str(path)],
                          capture_output=True, text=True, cwd=ROOT, check=False)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", line + "\n")
