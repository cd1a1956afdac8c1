"""Records of the other games (docs/record-format.md, "Records of the other games"), and the
game-dispatching `read_game_record`, `write_game_record` and `score_game_record` for all three.

A record's `game` names its game (`bilka` when absent: `record.py` reads those exactly as before).
`kozyol` records keep Bilka's four-seat shape, with Kozyol's rules and no penalties; `bilka-2`
records have two seats, N and S, and each deal carries its stock in the order it reaches the hands
(the draws follow from the `stock` rule, so replaying the cards replays them). Every score is
recomputed by replaying the record through the game's engine, as for Bilka. Over 400 lines
because the two games' readers, writers and scorers share their checks and wording here, so a
refusal reads the same in every game.
"""

from __future__ import annotations

import json
import random
import secrets
from typing import Any

from gameplay.engine.bilka2 import Bilka2MatchState, Bilka2Rules
from gameplay.engine.bilka2_rules import GAME as BILKA2
from gameplay.engine.cards import (
    BIT,
    PAIRS,
    PASS,
    REDEAL,
    SEATS,
    SUITS,
    VALUE,
    card_from_str,
    card_to_str,
    hand_sort_key,
    mask_cards,
)
from gameplay.engine.errors import IllegalAction, RecordError, RulesError
from gameplay.engine.games import BILKA, AnyMatch
from gameplay.engine.kozyol import KozyolMatchState, KozyolRules
from gameplay.engine.kozyol_rules import GAME as KOZYOL
from gameplay.engine.match import END_REASONS
from gameplay.engine.record import (
    FORMAT,
    SCORE_FORMAT,
    load_record,
    read_hands,
    read_record,
    record_game,
    record_rules,
    score_record,
    score_state,
    write_record,
)
from gameplay.engine.shuffle import GAME_SCHEMES, Shuffle, read_shuffle
from gameplay.engine.state import Phase

_TOP_KEYS = {"format", "game", "rules", "players", "deals", "end", "shuffle"}
_KOZYOL_DEAL_KEYS = {"dealer", "hands", "plays", "redeal", "passed"}
_BILKA2_DEAL_KEYS = {"dealer", "hands", "stock", "plays"}
#: The seat letters of Bilka for two: players 0 and 1.
TWO_SEATS = "NS"


# ---------------------------------------------------------------------- the dispatchers
def read_game_record(data: str | bytes | dict[str, Any], rng: random.Random | None = None) -> AnyMatch:
    """Validate a record of any game by replaying it; return the match state it leads to (a
    `MatchState`, `KozyolMatchState` or `Bilka2MatchState`). RecordError as `record.read_record`;
    an unknown `game` is refused in one line naming the known games."""
    rec = load_record(data)
    game = record_game(rec)
    if game == BILKA:
        return read_record(rec, rng)  # exactly as before the other games, refusals included
    if rec.get("format") != FORMAT:
        raise RecordError(f"format must be {FORMAT!r}, not {rec.get('format')!r}")
    if game == KOZYOL:
        return _read_kozyol(rec, rng)
    return _read_bilka2(rec, rng)


def write_game_record(state: AnyMatch) -> dict[str, Any]:
    """The record of a match of any game so far, as a JSON-ready dict (Bilka's exactly as
    `record.write_record` writes it, with no `game` key)."""
    if isinstance(state, KozyolMatchState):
        return _write_kozyol(state)
    if isinstance(state, Bilka2MatchState):
        return _write_bilka2(state)
    return write_record(state)


def game_record_to_json(state: AnyMatch) -> str:
    return json.dumps(write_game_record(state), ensure_ascii=False, indent=1)


def score_game_record(data: str | bytes | dict[str, Any]) -> dict[str, Any]:
    """The bilka-score/1 report of a record of any game; RecordError if it is illegal."""
    rec = load_record(data)
    if record_game(rec) == BILKA:
        return score_record(rec)
    return score_game_state(read_game_record(rec))


def score_game_state(state: AnyMatch) -> dict[str, Any]:
    """The bilka-score/1 report of a match state of any game."""
    if isinstance(state, KozyolMatchState):
        return _score_kozyol(state)
    if isinstance(state, Bilka2MatchState):
        return _score_bilka2(state)
    return score_state(state)


# ---------------------------------------------------------------------- reading, shared
def _seat(value: object, seats: str, what: str, deal: int | None = None) -> int:
    if isinstance(value, str) and len(value) == 1 and value in seats:
        return seats.index(value)
    raise RecordError(f"{what} must be one of {', '.join(seats)}, not {value!r}", deal)


def _header(rec: dict[str, Any], game: str, seats: str) -> tuple[
        dict[str, Any], dict[str, str] | None, list[Any], Shuffle | None]:
    """The rules object, players, deals and shuffle of a record of `game`, checked."""
    unknown = set(rec) - _TOP_KEYS
    if unknown:
        raise RecordError(f"unknown key {sorted(unknown)[0]!r} in a {game} record")
    rules = record_rules(rec, game)
    players = rec.get("players")
    if players is not None and (not isinstance(players, dict) or not all(
            isinstance(k, str) and len(k) == 1 and k in seats and isinstance(v, str)
            for k, v in players.items())):
        raise RecordError(f"players must map seats {', '.join(seats)} to names")
    deals = rec.get("deals")
    if not isinstance(deals, list):
        raise RecordError("deals must be a list")
    shuffle = read_shuffle(rec["shuffle"], GAME_SCHEMES[game]) if "shuffle" in rec else None
    return rules, players, deals, shuffle


def _first_dealer(deals: list[Any], seats: str) -> int:
    if deals and isinstance(deals[0], dict):
        return _seat(deals[0].get("dealer"), seats, "dealer", 1)
    return 0


def _before_deal(state: KozyolMatchState | Bilka2MatchState, number: int,
                 sides: str | tuple[str, str]) -> None:
    if state.phase == Phase.OVER:
        raise RecordError(f"the match was already decided ({sides[state.winner or 0]} won)", number)
    if state.phase != Phase.DEALING:
        raise RecordError("the previous deal was not played to the end", number)


def _read_end(rec: dict[str, Any], state: KozyolMatchState | Bilka2MatchState, seats: str,
              sides: str | tuple[str, str]) -> None:
    end = rec.get("end")
    if end is None:
        return
    if not isinstance(end, dict) or set(end) != {"reason", "seat"} or end["reason"] not in END_REASONS:
        raise RecordError(f"end must be {{\"reason\": {' | '.join(END_REASONS)}, \"seat\": S}}")
    seat = _seat(end["seat"], seats, "end.seat")
    if state.phase == Phase.OVER:
        raise RecordError(f"end: the match was already decided ({sides[state.winner or 0]} won)")
    state.end_match(end["reason"], seat)


def _deal_object(deal: object, keys: set[str], number: int) -> dict[str, Any]:
    if not isinstance(deal, dict):
        raise RecordError("a deal is a JSON object", number)
    unknown = set(deal) - keys
    if unknown:
        raise RecordError(f"unknown key {sorted(unknown)[0]!r} in the deal", number)
    return deal


def _plays(deal: dict[str, Any], number: int) -> list[Any]:
    plays = deal.get("plays", [])
    if not isinstance(plays, list):
        raise RecordError("plays must be a list of cards", number)
    return plays


def _play_cards(state: KozyolMatchState | Bilka2MatchState, plays: list[Any], number: int, per_trick: int,
                seats: str) -> None:
    for index, text in enumerate(plays):
        trick = index // per_trick + 1
        if state.phase != Phase.PLAY:
            raise RecordError(f"{text!r} is one card more than the deal has", number, trick)
        try:
            card = card_from_str(text)
        except ValueError:
            raise RecordError(f"{seats[state.to_move or 0]} plays {text!r}, which is not a card",
                              number, trick) from None
        try:
            state.apply(card)
        except IllegalAction as exc:
            raise RecordError(str(exc), number, trick) from None


# ---------------------------------------------------------------------- Kozyol
def _read_kozyol(rec: dict[str, Any], rng: random.Random | None) -> KozyolMatchState:
    rules_json, players, deals, shuffle = _header(rec, KOZYOL, SEATS)
    try:
        rules = KozyolRules.from_json(rules_json)
    except RulesError as exc:
        raise RecordError(str(exc)) from None
    except TypeError as exc:
        raise RecordError(f"rules: {exc}") from None
    state = KozyolMatchState(rules, rng=rng or secrets.SystemRandom(),
                             first_dealer=_first_dealer(deals, SEATS), auto_deal=False, players=players,
                             shuffle=shuffle)
    for number, deal in enumerate(deals, start=1):
        _before_deal(state, number, PAIRS)
        _replay_kozyol_deal(state, _deal_object(deal, _KOZYOL_DEAL_KEYS, number), number)
    _read_end(rec, state, SEATS, PAIRS)
    state.auto_deal = True
    return state


def _replay_kozyol_deal(state: KozyolMatchState, deal: dict[str, Any], number: int) -> None:
    dealer = _seat(deal.get("dealer"), SEATS, "dealer", number)
    if dealer != state.dealer:
        raise RecordError(f"the dealer must be {SEATS[state.dealer]}, not {SEATS[dealer]}", number)
    masks = read_hands(deal, number)
    try:
        state.start_deal((masks[0], masks[1], masks[2], masks[3]))
    except IllegalAction as exc:
        raise RecordError(str(exc), number) from None
    plays = _plays(deal, number)
    if "redeal" in deal:
        seat = _seat(deal["redeal"], SEATS, "redeal", number)
        if plays:
            raise RecordError("a redealt deal has no plays", number)
        if "passed" in deal:
            raise RecordError("passed is only for a deal still in its redeal phase", number)
        if not state.may_redeal(seat):
            raise RecordError(f"{SEATS[seat]} may not ask for a redeal: the hand does not qualify", number)
        state.apply(REDEAL, seat)
        return
    passed = deal.get("passed", [])
    if passed:
        if plays or not isinstance(passed, list):
            raise RecordError("passed is only for a deal still in its redeal phase", number)
        for value in passed:
            seat = _seat(value, SEATS, "passed", number)
            if state.phase != Phase.REDEAL:
                raise RecordError(f"{SEATS[seat]} cannot answer now: there is no redeal question", number)
            if seat not in state.redeal_pending:
                raise RecordError(f"{SEATS[seat]} answers twice", number)
            state.apply(PASS, seat)
    if plays and state.phase == Phase.REDEAL:
        state.end_redeal_phase()  # every seat answered "play" (or its time ran out)
    _play_cards(state, plays, number, 4, SEATS)


def _sorted_hand(mask: int) -> list[str]:
    return [card_to_str(c) for c in sorted(mask_cards(mask), key=hand_sort_key)]


def _write_head(state: KozyolMatchState | Bilka2MatchState, game: str) -> dict[str, Any]:
    rec: dict[str, Any] = {"format": FORMAT, "game": game, "rules": state.rules.to_json()}
    if state.players:
        rec["players"] = dict(state.players)
    return rec


def _write_tail(rec: dict[str, Any], state: KozyolMatchState | Bilka2MatchState,
                seats: str) -> dict[str, Any]:
    if state.shuffle is not None:
        rec["shuffle"] = state.shuffle.to_json(reveal=state.phase == Phase.OVER)
    if state.end is not None:
        rec["end"] = {"reason": state.end[0], "seat": seats[state.end[1]]}
    return rec


def _write_kozyol(state: KozyolMatchState) -> dict[str, Any]:
    rec = _write_head(state, KOZYOL)
    deals = []
    for log in state.deals:
        d: dict[str, Any] = {"dealer": SEATS[log.dealer],
                             "hands": {SEATS[s]: _sorted_hand(log.hands[s]) for s in range(4)}}
        if log.redeal is not None:
            d["redeal"] = SEATS[log.redeal]
        else:
            d["plays"] = [card_to_str(c) for c in log.plays]
            if log.passed and not log.plays and log.outcome is None:
                d["passed"] = [SEATS[s] for s in log.passed]
        deals.append(d)
    rec["deals"] = deals
    return _write_tail(rec, state, SEATS)


def _sides(values: tuple[int, int], names: str | tuple[str, str]) -> dict[str, int]:
    return {names[0]: values[0], names[1]: values[1]}


def _tricks(plays: list[int], winners: list[int], leader: int, per_trick: int, seats: str,
            side: int) -> tuple[list[dict[str, Any]], tuple[int, int]]:
    """The complete tricks of a deal as the score lists them, and the points of each side
    (`side`: 1 for a seat's pair, seat & 1; 2 for a player, the seat itself)."""
    tricks = []
    points = [0, 0]
    for t, winner in enumerate(winners):
        cards = plays[per_trick * t:per_trick * t + per_trick]
        pts = sum(VALUE[c] for c in cards)
        points[winner & 1 if side == 1 else winner] += pts
        tricks.append({"leader": seats[leader], "cards": [card_to_str(c) for c in cards],
                       "winner": seats[winner], "points": pts})
        leader = winner
    return tricks, (points[0], points[1])


def _score_kozyol(state: KozyolMatchState) -> dict[str, Any]:
    out: list[dict[str, Any]] = []
    for log in state.deals:
        if log.outcome == "redeal":
            out.append({"leader": SEATS[log.leader], "outcome": "redeal",
                        "eyes": _sides(log.eyes, PAIRS), "score": _sides(log.score_after, PAIRS)})
            continue
        tricks, points = _tricks(log.plays, log.trick_winners, log.leader, 4, SEATS, 1)
        finished = log.outcome is not None
        played: dict[str, Any] = {"trump": SUITS[log.trump], "leader": SEATS[log.leader], "tricks": tricks,
                                  "points": _sides(points, PAIRS),
                                  "outcome": log.outcome if finished else "unfinished"}
        if log.catch is not None:
            played["catch"] = SEATS[log.catch]
        played["eyes"] = _sides(log.eyes, PAIRS)
        played["score"] = _sides(log.score_after if finished else state.capped_score, PAIRS)
        out.append(played)
    return {"format": SCORE_FORMAT, "game": KOZYOL, "deals": out, "score": _sides(state.capped_score, PAIRS),
            "winner": None if state.winner is None else PAIRS[state.winner]}


# ---------------------------------------------------------------------- Bilka for two
def _read_bilka2(rec: dict[str, Any], rng: random.Random | None) -> Bilka2MatchState:
    rules_json, players, deals, shuffle = _header(rec, BILKA2, TWO_SEATS)
    try:
        rules = Bilka2Rules.from_json(rules_json)
    except RulesError as exc:
        raise RecordError(str(exc)) from None
    except TypeError as exc:
        raise RecordError(f"rules: {exc}") from None
    state = Bilka2MatchState(rules, rng=rng or secrets.SystemRandom(),
                             first_dealer=_first_dealer(deals, TWO_SEATS), auto_deal=False, players=players,
                             shuffle=shuffle)
    for number, deal in enumerate(deals, start=1):
        _before_deal(state, number, TWO_SEATS)
        _replay_bilka2_deal(state, _deal_object(deal, _BILKA2_DEAL_KEYS, number), number)
    _read_end(rec, state, TWO_SEATS, TWO_SEATS)
    state.auto_deal = True
    return state


def _card_list(value: object, where: str, number: int) -> list[int]:
    if not isinstance(value, list):
        raise RecordError(f"{where} must be a list of cards", number)
    out = []
    seen = 0
    for text in value:
        try:
            card = card_from_str(text)
        except ValueError:
            raise RecordError(f"{text!r} in {where} is not a card", number) from None
        if seen & BIT[card]:
            raise RecordError(f"{text} is dealt twice ({where})", number)
        seen |= BIT[card]
        out.append(card)
    return out


def read_two_hands(deal: dict[str, Any], number: int) -> list[int]:
    """The hands of N and S of a recorded Bilka-for-two deal as card masks; RecordError naming the
    deal when one is missing or holds something that is not a card, or a card twice."""
    hands_in = deal.get("hands")
    if not isinstance(hands_in, dict) or set(hands_in) != set(TWO_SEATS):
        raise RecordError("hands must give the cards of N and S", number)
    return [sum(BIT[c] for c in _card_list(hands_in[s], f"the hand of {s}", number)) for s in TWO_SEATS]


def _replay_bilka2_deal(state: Bilka2MatchState, deal: dict[str, Any], number: int) -> None:
    dealer = _seat(deal.get("dealer"), TWO_SEATS, "dealer", number)
    if dealer != state.dealer:
        raise RecordError(f"the dealer must be {TWO_SEATS[state.dealer]}, not {TWO_SEATS[dealer]}", number)
    hands = read_two_hands(deal, number)
    if "stock" not in deal:
        raise RecordError("a deal of bilka-2 needs its stock", number)
    stock = _card_list(deal["stock"], "the stock", number)
    try:
        state.start_deal((hands[0], hands[1]), stock)
    except IllegalAction as exc:
        raise RecordError(str(exc), number) from None
    _play_cards(state, _plays(deal, number), number, 2, TWO_SEATS)


def _write_bilka2(state: Bilka2MatchState) -> dict[str, Any]:
    rec = _write_head(state, BILKA2)
    rec["deals"] = [{
        "dealer": TWO_SEATS[log.dealer],
        "hands": {TWO_SEATS[s]: _sorted_hand(log.hands[s]) for s in range(2)},
        "stock": [card_to_str(c) for c in log.stock],
        "plays": [card_to_str(c) for c in log.plays],
    } for log in state.deals]
    return _write_tail(rec, state, TWO_SEATS)


def _score_bilka2(state: Bilka2MatchState) -> dict[str, Any]:
    out: list[dict[str, Any]] = []
    for log in state.deals:
        tricks, points = _tricks(log.plays, log.trick_winners, log.leader, 2, TWO_SEATS, 2)
        finished = log.outcome is not None
        out.append({"trump": SUITS[log.trump], "leader": TWO_SEATS[log.leader], "tricks": tricks,
                    "points": _sides(points, TWO_SEATS),
                    "outcome": log.outcome if finished else "unfinished",
                    "eyes": _sides(log.eyes, TWO_SEATS),
                    "score": _sides(log.score_after if finished else state.capped_score, TWO_SEATS)})
    return {"format": SCORE_FORMAT, "game": BILKA2, "deals": out,
            "score": _sides(state.capped_score, TWO_SEATS),
            "winner": None if state.winner is None else TWO_SEATS[state.winner]}


__all__ = ["TWO_SEATS", "game_record_to_json", "read_game_record", "read_two_hands", "score_game_record",
           "score_game_state", "write_game_record"]
