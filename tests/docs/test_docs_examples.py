"""The worked examples of the docs hold against the rules engine.

Each example sits in the markdown after a marker line, `<!-- example: NAME -->`: a table the reader
reads and this test parses, or a fenced block of JSON or text. The test recomputes every figure in
it with `gameplay.engine`, so a wrong number in a doc (or an engine that changed under a doc) fails
here. Pure: no database, no site.
"""

from __future__ import annotations

import copy
import hmac
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from gameplay.engine import RecordError, Rules, score_record
from gameplay.engine.analysis import analyse_record, solve_record
from gameplay.engine.cards import PAIRS, SEATS, SUIT_NAMES, card_from_str, card_to_str, mask_points
from gameplay.engine.deal import first_suits, hand_qualifies
from gameplay.engine.deal_position import Position
from gameplay.engine.rules import PRESETS, parameters
from gameplay.engine.scoring import WIN_SCORE, score_deal
from gameplay.engine.shuffle import commitment_of, deal_hands, deal_message, dealt_cards, first_dealer

ROOT = Path(__file__).resolve().parents[2]
RULES_DOC = ROOT / "docs" / "rules.md"
RECORD_DOC = ROOT / "docs" / "record-format.md"
SHUFFLE_DOC = ROOT / "docs" / "shuffle.md"
CLOCKWISE, COUNTERCLOCKWISE = (1, 2, 3, 0), (3, 0, 1, 2)


# --- reading the examples out of the markdown ----------------------------------------------------

def _after_marker(doc: Path, name: str) -> tuple[dict[str, str], list[str]]:
    """The marker's attributes (`<!-- example: refusal deal=2 -->`) and the lines after it."""
    lines = doc.read_text(encoding="utf-8").splitlines()
    found = [i for i, line in enumerate(lines)
             if re.fullmatch(rf"<!-- example: {re.escape(name)}( [^>]*)? -->", line.strip())]
    assert len(found) == 1, f"{doc.name} should have one example marked {name!r}, has {len(found)}"
    words = lines[found[0]].strip()[len("<!-- example:"):-len("-->")].split()[1:]
    attributes = dict(word.split("=", 1) for word in words)
    rest = lines[found[0] + 1:]
    while rest and not rest[0].strip():
        rest = rest[1:]
    return attributes, rest


def example_table(doc: Path, name: str) -> list[list[str]]:
    """The rows of the table after the marker (header and separator left out), as cells."""
    _, lines = _after_marker(doc, name)
    table = []
    for line in lines:
        if not line.startswith("|"):
            break
        table.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    assert len(table) > 2, f"the example {name!r} of {doc.name} is not a table with rows"
    return table[2:]


def example_block(doc: Path, name: str) -> tuple[dict[str, str], str]:
    """The marker's attributes and the text of the fenced block after it."""
    attributes, lines = _after_marker(doc, name)
    assert lines and lines[0].startswith("```"), f"the example {name!r} of {doc.name} is not a fenced block"
    end = lines.index("```", 1)
    return attributes, "\n".join(lines[1:end])


def example_json(doc: Path, name: str) -> dict:
    return json.loads(example_block(doc, name)[1])


def codes(cell: str) -> list[str]:
    """The `code` spans of a cell."""
    return re.findall(r"`([^`]*)`", cell)


def cards(cell: str) -> list[int]:
    return [card_from_str(text) for text in " ".join(codes(cell)).split()]


def mask(cell: str) -> int:
    return sum(1 << card for card in cards(cell))


def two(cell: str) -> tuple[int, int]:
    """ "68 : 52" as (68, 52): NS first."""
    ns, ew = (int(n) for n in cell.split(":"))
    return ns, ew


def house_rules(cell: str) -> Rules:
    """ "default", or `key=value` spans, as the engine's rules (each value of its parameter's type)."""
    changes: dict[str, object] = {}
    for text in codes(cell):
        key, value = text.split("=")
        default = getattr(Rules(), key)
        changes[key] = value == "true" if isinstance(default, bool) else type(default)(value)
    assert changes or cell == "default", f"cannot read the house rules {cell!r}"
    return Rules(**changes)


# --- docs/rules.md --------------------------------------------------------------------------------

def test_every_house_rule_is_listed_with_its_values_and_its_default() -> None:
    rows = example_table(RULES_DOC, "parameters")
    assert [codes(row[0])[0] for row in rows] == [p.name for p in parameters()]
    for (_, values, default), p in zip(rows, parameters(), strict=True):
        if p.kind == "bool":
            assert codes(values) == ["true", "false"], p.name
            assert codes(default) == [json.dumps(p.default)], p.name
        elif p.kind == "range":
            assert codes(values) == [str(p.low), str(p.high)] and " to " in values, p.name
            assert codes(default) == [str(p.default)], p.name
        else:
            assert codes(values) == [str(c) for c in p.choices], p.name
            assert codes(default) == [str(p.default)], p.name


def test_named_rule_sets_differ_from_the_default_as_written() -> None:
    rows = example_table(RULES_DOC, "presets")
    assert [row[0] for row in rows] == list(PRESETS)
    for name, differences in rows:
        written = Rules() if differences.startswith("nothing") else house_rules(differences)
        assert written == PRESETS[name], name


def test_suits_trump_and_pair_on_duty() -> None:
    for direction, first, n, e, s, w, later, trump, on_duty in example_table(RULES_DOC, "suits"):
        order = CLOCKWISE if direction == "clockwise" else COUNTERCLOCKWISE
        suits = first_suits(SEATS.index(first), order)
        assert [SUIT_NAMES[x] for x in suits] == [n, e, s, w], (direction, first)
        holder = SEATS.index(later)
        assert SUIT_NAMES[suits[holder]] == trump, (direction, first, later)
        assert PAIRS[holder & 1] == on_duty, (direction, first, later)


def test_who_wins_a_trick() -> None:
    for trump, played, winner, points in example_table(RULES_DOC, "tricks"):
        trick = cards(played)
        # North leads; each seat holds the one card it plays
        hands = tuple(1 << card for card in trick)
        position = Position.start(hands, SUIT_NAMES.index(trump), 0, ace_discard_ban=False)
        for card in trick:
            position = position.play(card)
        assert trick[position.leader] == card_from_str(codes(winner)[0]), played
        assert sum(position.points) == int(points), played


def test_which_cards_a_player_may_play() -> None:
    for trump, led, hand, allowed in example_table(RULES_DOC, "follow"):
        lead = cards(led)[0]
        position = Position.start((1 << lead, mask(hand), 0, 0), SUIT_NAMES.index(trump), 0,
                                  ace_discard_ban=False).play(lead)
        assert position.legal_mask() == mask(allowed), (trump, led, hand)


def test_deals_scored_in_eyes() -> None:
    rows = example_table(RULES_DOC, "eyes")
    assert len(rows) >= 10
    for number, rules, deal, on_duty, eggs, before, points, all_tricks, outcome, eyes, after in rows:
        p = two(points)
        assert sum(p) == 120, f"example {number}: the points of a deal add up to 120"
        tricks = {"NS": (8, 0), "EW": (0, 8)}.get(all_tricks, (4, 4))
        result = score_deal(house_rules(rules), p, tricks, PAIRS.index(on_duty), int(eggs),
                            deal == "first", two(before))
        assert result.outcome == outcome.lower(), f"example {number}"
        assert result.eyes == two(eyes), f"example {number}"
        # the match score after the deal, as the engine keeps it: a reset, the eyes, the cap at 12
        score = list(two(before))
        if result.reset is not None:
            score[result.reset] = 0
        score = [min(WIN_SCORE, s + e) for s, e in zip(score, result.eyes, strict=True)]
        assert tuple(score) == two(after), f"example {number}"


def test_which_hands_may_ask_for_a_redeal() -> None:
    for rules, hand, points, may in example_table(RULES_DOC, "redeal"):
        assert len(cards(hand)) == 8, hand
        assert mask_points(mask(hand)) == int(points), hand
        assert hand_qualifies(house_rules(rules), mask(hand)) == (may == "yes"), (rules, hand)


# --- docs/record-format.md ------------------------------------------------------------------------

def test_the_example_record_scores_as_shown() -> None:
    assert score_record(example_json(RECORD_DOC, "record")) == example_json(RECORD_DOC, "score")


def test_the_score_command_prints_the_score_shown(tmp_path: Path) -> None:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(example_json(RECORD_DOC, "record")), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "gameplay.engine", "score", str(path)],
                          cwd=ROOT, capture_output=True, text=True, check=False, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == example_json(RECORD_DOC, "score")


def test_a_refused_record_gets_the_line_shown(tmp_path: Path) -> None:
    where, line = example_block(RECORD_DOC, "refusal")
    record = copy.deepcopy(example_json(RECORD_DOC, "record"))
    record["deals"][int(where["deal"]) - 1]["plays"][int(where["play"]) - 1] = where["card"]
    with pytest.raises(RecordError) as refused:
        score_record(record)
    assert str(refused.value) == line
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "gameplay.engine", "score", str(path)],
                          cwd=ROOT, capture_output=True, text=True, check=False, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", line + "\n")


def test_the_solver_answers_as_shown() -> None:
    shown = example_json(RECORD_DOC, "solve")
    assert solve_record(example_json(RECORD_DOC, "record"), shown["deal"], shown["ply"]) == shown


def test_the_analysis_excerpt_is_the_engines() -> None:
    shown = example_json(RECORD_DOC, "analysis")
    analysis = analyse_record(example_json(RECORD_DOC, "record"))
    assert shown["format"] == analysis["format"]
    deals = {deal["deal"]: deal for deal in analysis["deals"]}
    for deal in shown["deals"]:
        assert deal["par"] == deals[deal["deal"]]["par"]
        by_ply = {card["ply"]: card for card in deals[deal["deal"]]["cards"]}
        for card in deal["cards"]:
            assert card == by_ply[card["ply"]]


# --- docs/shuffle.md ------------------------------------------------------------------------------

def test_the_shuffle_example_deals_as_shown() -> None:
    shown = {what: " ".join(codes(value)) for what, value in example_table(SHUFFLE_DOC, "shuffle")}
    seed = bytes.fromhex(shown["match seed (hex)"])
    client_seeds = shown["client seeds of N, E, S, W"].split()
    deck = shown["deck"]
    message = deal_message(client_seeds, 1)
    assert commitment_of(seed) == shown["commitment"]
    assert message.hex() == shown["message of deal 1 (hex)"]
    assert hmac.digest(seed, message + bytes(4), "sha256")[:8].hex(" ") == shown["stream of deal 1 begins"]
    shuffled = " ".join(card_to_str(card) for card in dealt_cards(seed, client_seeds, 1, deck))
    assert shuffled == shown["deal 1: the deck after the shuffle"]
    assert deal_hands(seed, client_seeds, 2, deck)[0] == mask(f"`{shown['deal 2: the hand of N']}`")
    assert SEATS[first_dealer(seed, client_seeds)] == shown["first dealer"]


def test_the_boards_example_deals_as_shown() -> None:
    from gameplay.engine.boards import board_hands, board_message, jack_holder
    from gameplay.engine.shuffle import shuffled_deck

    table = example_table(SHUFFLE_DOC, "boards")
    shown = {what: " ".join(codes(value)) for what, value in table}
    seed = bytes.fromhex(shown["event seed (hex)"])
    message = board_message(1)
    assert commitment_of(seed) == shown["commitment"]
    assert message.hex() == shown["message of board 1 (hex)"]
    assert hmac.digest(seed, message + bytes(4), "sha256")[:8].hex(" ") == shown["stream of board 1 begins"]
    assert " ".join(card_to_str(c) for c in shuffled_deck(seed, message)) == shown[
        "board 1: the deck after the shuffle"]
    holder = dict(table)["board 1: who holds `JC`, so the set's suits"]
    assert holder.startswith(f"{SEATS[jack_holder(board_hands(seed, 1))]}:")
