"""bilka-record/1: read and validate (by replaying every card), write, and score (bilka-score/1).

A record holds only what happened (hands as dealt, cards in order, redeals, penalties, how
the match ended); every score is recomputed by replaying it through `MatchState`, so the
scorer and the live tables can never disagree.

A record's optional `game` (`bilka` when absent, so every record written before it reads the same)
names the game; this module reads, writes and scores Bilka's, and `record_games.py` dispatches a
record of any game (`read_game_record`, `write_game_record`, `score_game_record`).
"""

from __future__ import annotations

import json
import random
import secrets
from typing import Any

from gameplay.engine.boards import BoardSet, read_board_set
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
    seat_from_str,
)
from gameplay.engine.deal import hand_qualifies
from gameplay.engine.errors import IllegalAction, RecordError, RulesError
from gameplay.engine.games import BILKA, GAMES
from gameplay.engine.house_rules import show
from gameplay.engine.match import END_REASONS, MatchState
from gameplay.engine.rules import Rules
from gameplay.engine.shuffle import read_shuffle
from gameplay.engine.state import BaseMatchState, Phase

FORMAT = "bilka-record/1"
SCORE_FORMAT = "bilka-score/1"
_TOP_KEYS = {"format", "game", "rules", "players", "deals", "end", "penalties", "shuffle", "duplicate"}
_DEAL_KEYS = {"dealer", "hands", "plays", "redeal", "passed", "board"}


def load_record(data: str | bytes | dict[str, Any]) -> dict[str, Any]:
    """The record as a JSON object, from its text or bytes; RecordError if it is not one."""
    if isinstance(data, (str, bytes)):
        try:
            data = json.loads(data)
        except (ValueError, UnicodeDecodeError) as exc:
            raise RecordError(f"not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise RecordError("a record is a JSON object")
    return data


def record_game(rec: dict[str, Any]) -> str:
    """The record's `game` (`bilka` when it has none); RecordError in one line for a game this
    engine does not know, naming the ones it knows."""
    if "game" not in rec:
        return BILKA
    game = rec["game"]
    if not isinstance(game, str) or game not in GAMES:
        raise RecordError(f"unknown game {show(game)}: the known games are {', '.join(GAMES)}")
    return game


def record_rules(rec: dict[str, Any], game: str) -> dict[str, Any]:
    """The record's rules object, without a `game` key that agrees with the record's game (Bilka's
    rules object has no `game` parameter); RecordError when it is not an object or names another."""
    rules = rec.get("rules", {})
    if not isinstance(rules, dict):
        raise RecordError("rules: must be a JSON object")
    if "game" in rules:
        if rules["game"] != game:
            raise RecordError(f"rules.game is {show(rules['game'])} but the record is a {game} record")
        rules = {k: v for k, v in rules.items() if k != "game"}
    return rules


def _seat(value: object, what: str, deal: int | None = None) -> int:
    try:
        return seat_from_str(value)  # type: ignore[arg-type]
    except ValueError:
        raise RecordError(f"{what} must be one of N, E, S, W, not {value!r}", deal) from None


def read_record(data: str | bytes | dict[str, Any], rng: random.Random | None = None) -> MatchState:
    """Validate a record by replaying it; return the match state it leads to.

    Raises RecordError naming the deal (from 1, redeals counted) and, for a card, the trick
    (from 1), the seat and the card. `rng` deals any later deals of the returned state.
    """
    rec = load_record(data)
    unknown = set(rec) - _TOP_KEYS
    if unknown:
        raise RecordError(f"unknown key {sorted(unknown)[0]!r} in the record")
    if rec.get("format") != FORMAT:
        raise RecordError(f"format must be {FORMAT!r}, not {rec.get('format')!r}")
    game = record_game(rec)
    if game != BILKA:
        raise RecordError(f"this is a {game} record; only {BILKA} records are read here")
    try:
        rules = Rules.from_json(record_rules(rec, game))
    except RulesError as exc:
        raise RecordError(str(exc)) from None
    except TypeError as exc:
        raise RecordError(f"rules: {exc}") from None
    players = rec.get("players")
    if players is not None:
        if not isinstance(players, dict) or not all(
            k in SEATS and len(k) == 1 and isinstance(v, str) for k, v in players.items()
        ):
            raise RecordError("players must map seats N, E, S, W to names")
    deals = rec.get("deals")
    if not isinstance(deals, list):
        raise RecordError("deals must be a list")
    penalties = _read_penalties(rec.get("penalties", []), len(deals))
    if "duplicate" in rec and "shuffle" in rec:
        raise RecordError("a record has a shuffle or a duplicate board set, not both")
    shuffle = read_shuffle(rec["shuffle"]) if "shuffle" in rec else None
    boards = read_board_set(rec["duplicate"]) if "duplicate" in rec else None

    first_dealer = 0
    if deals and isinstance(deals[0], dict):
        first_dealer = _seat(deals[0].get("dealer"), "dealer", 1)
    state = MatchState(rules, rng=rng or secrets.SystemRandom(), first_dealer=first_dealer, auto_deal=False,
                       players=players, shuffle=shuffle, boards=boards)
    for number, deal in enumerate(deals, start=1):
        _check_board(boards, deal, number)
        if state.phase == Phase.OVER:
            raise RecordError(f"the match was already decided ({PAIRS[state.winner or 0]} won)", number)
        if state.phase != Phase.DEALING:
            raise RecordError("the previous deal was not played to the end", number)
        _replay_deal(state, deal, number)
        for after, pair, eyes, reason in penalties:
            if after == number:
                if state.winner is not None:
                    raise RecordError(f"penalty after deal {after}: the match was already decided")
                if state.phase != Phase.DEALING:
                    raise RecordError(f"penalty after deal {after}: that deal is not finished")
                state.add_penalty(pair, eyes, reason)
    end = rec.get("end")
    if end is not None:
        if not isinstance(end, dict) or set(end) != {"reason", "seat"} or end["reason"] not in END_REASONS:
            raise RecordError(f"end must be {{\"reason\": {' | '.join(END_REASONS)}, \"seat\": S}}")
        seat = _seat(end["seat"], "end.seat")
        if state.phase == Phase.OVER:
            raise RecordError(f"end: the match was already decided ({PAIRS[state.winner or 0]} won)")
        state.end_match(end["reason"], seat)
    state.auto_deal = True
    return state


def _check_board(boards: BoardSet | None, deal: object, number: int) -> None:
    """A deal of a duplicate record names its board, the set's next one; other records name none."""
    if not isinstance(deal, dict) or "board" not in deal and boards is None:
        return
    if boards is None:
        raise RecordError("board is only for the deals of a duplicate record", number)
    count = len(boards.numbers)
    if number > count:
        raise RecordError(f"the board set has {count} boards, and this is deal {number}", number)
    board = boards.numbers[number - 1]
    if deal.get("board") != board:
        raise RecordError(f"the board must be {board}, not {deal.get('board')!r}", number)


def _read_penalties(value: object, n_deals: int) -> list[tuple[int, int, int, str]]:
    if not isinstance(value, list):
        raise RecordError("penalties must be a list")
    out: list[tuple[int, int, int, str]] = []
    for i, p in enumerate(value, start=1):
        if not isinstance(p, dict) or set(p) != {"after_deal", "pair", "eyes", "reason"}:
            raise RecordError(f"penalty {i} must have after_deal, pair, eyes and reason")
        after, pair, eyes, reason = p["after_deal"], p["pair"], p["eyes"], p["reason"]
        if isinstance(after, bool) or not isinstance(after, int) or not 1 <= after <= n_deals:
            raise RecordError(f"penalty {i}: after_deal must be a deal number from 1 to {n_deals}")
        if pair not in PAIRS:
            raise RecordError(f"penalty {i}: pair must be NS or EW, not {pair!r}")
        if isinstance(eyes, bool) or not isinstance(eyes, int) or eyes < 1:
            raise RecordError(f"penalty {i}: eyes must be a positive integer, not {eyes!r}")
        if not isinstance(reason, str):
            raise RecordError(f"penalty {i}: reason must be a string")
        if out and after < out[-1][0]:
            raise RecordError(f"penalty {i}: penalties must be in the order of their deals")
        out.append((after, PAIRS.index(pair), eyes, reason))
    return out


def read_hands(deal: dict[str, Any], number: int) -> list[int]:
    """The four hands of a recorded deal as card masks (N, E, S, W); RecordError naming the deal
    when a hand is missing, is not a list, holds something that is not a card or a card twice."""
    hands_in = deal.get("hands")
    if not isinstance(hands_in, dict) or set(hands_in) != set(SEATS):
        raise RecordError("hands must give the cards of N, E, S and W", number)
    masks = []
    for name in SEATS:
        cards = hands_in[name]
        if not isinstance(cards, list):
            raise RecordError(f"the hand of {name} must be a list of cards", number)
        mask = 0
        for text in cards:
            try:
                card = card_from_str(text)
            except ValueError:
                raise RecordError(f"{text!r} in the hand of {name} is not a card", number) from None
            if mask & BIT[card]:
                raise RecordError(f"{text} is dealt twice (hand of {name})", number)
            mask |= BIT[card]
        masks.append(mask)
    return masks


def _replay_deal(state: MatchState, deal: object, number: int) -> None:
    if not isinstance(deal, dict):
        raise RecordError("a deal is a JSON object", number)
    unknown = set(deal) - _DEAL_KEYS
    if unknown:
        raise RecordError(f"unknown key {sorted(unknown)[0]!r} in the deal", number)
    dealer = _seat(deal.get("dealer"), "dealer", number)
    if dealer != state.dealer:
        raise RecordError(f"the dealer must be {SEATS[state.dealer]}, not {SEATS[dealer]}", number)
    masks = read_hands(deal, number)
    try:
        state.start_deal((masks[0], masks[1], masks[2], masks[3]))
    except IllegalAction as exc:
        raise RecordError(str(exc), number) from None
    plays = deal.get("plays", [])
    if not isinstance(plays, list):
        raise RecordError("plays must be a list of cards", number)
    if "redeal" in deal:
        seat = _seat(deal["redeal"], "redeal", number)
        if plays:
            raise RecordError("a redealt deal has no plays", number)
        if "passed" in deal:
            raise RecordError("passed is only for a deal still in its redeal phase", number)
        hand = masks[seat]
        if state.phase != Phase.REDEAL or not hand_qualifies(state.rules, hand):
            raise RecordError(f"{SEATS[seat]} may not ask for a redeal: the hand does not qualify", number)
        state.apply(REDEAL, seat)
        return
    passed = deal.get("passed", [])
    if passed:
        # A match saved in the middle of its redeal phase: the seats that have already answered
        # "play", in the order they answered (once a card is played the answers are implied).
        if plays or not isinstance(passed, list):
            raise RecordError("passed is only for a deal still in its redeal phase", number)
        for value in passed:
            seat = _seat(value, "passed", number)
            if state.phase != Phase.REDEAL:
                raise RecordError(f"{SEATS[seat]} cannot answer now: there is no redeal question", number)
            if seat not in state.redeal_pending:
                raise RecordError(f"{SEATS[seat]} answers twice", number)
            state.apply(PASS, seat)
    if plays and state.phase == Phase.REDEAL:
        state.end_redeal_phase()  # every seat answered "play" (or its time ran out)
    for index, text in enumerate(plays):
        trick = index // 4 + 1
        if state.phase != Phase.PLAY:
            raise RecordError(f"{text!r} is one card more than the deal has", number, trick)
        try:
            card = card_from_str(text)
        except ValueError:
            raise RecordError(f"{SEATS[state.to_move or 0]} plays {text!r}, which is not a card",
                              number, trick) from None
        try:
            state.apply(card)
        except IllegalAction as exc:
            raise RecordError(str(exc), number, trick) from None


def write_record(state: BaseMatchState) -> dict[str, Any]:
    """The record of a match so far, as a JSON-ready dict."""
    rec: dict[str, Any] = {"format": FORMAT, "rules": state.rules.to_json()}
    boards: BoardSet | None = getattr(state, "boards", None)  # a MatchState's (`match.py`)
    if state.players:
        rec["players"] = dict(state.players)
    deals: list[dict[str, Any]] = []
    for log in state.deals:
        d: dict[str, Any] = {
            "dealer": SEATS[log.dealer],
            "hands": {
                SEATS[s]: [card_to_str(c) for c in sorted(mask_cards(log.hands[s]), key=hand_sort_key)]
                for s in range(4)
            },
        }
        if boards is not None:
            d["board"] = boards.numbers[len(deals)]
        if log.redeal is not None:
            d["redeal"] = SEATS[log.redeal]
        else:
            d["plays"] = [card_to_str(c) for c in log.plays]
            if log.passed and not log.plays and log.outcome is None:
                d["passed"] = [SEATS[s] for s in log.passed]
        deals.append(d)
    rec["deals"] = deals
    if state.shuffle is not None:
        # the seed is revealed only once the match is over; a cancelled match reveals it at its table
        rec["shuffle"] = state.shuffle.to_json(reveal=state.phase == Phase.OVER)
    if boards is not None:
        rec["duplicate"] = boards.to_json()  # public: the numbers and the commitment, never hands
    if state.end is not None:
        rec["end"] = {"reason": state.end[0], "seat": SEATS[state.end[1]]}
    if state.penalties:
        rec["penalties"] = [
            {"after_deal": a, "pair": PAIRS[p], "eyes": e, "reason": r} for a, p, e, r in state.penalties
        ]
    return rec


def record_to_json(state: BaseMatchState) -> str:
    return json.dumps(write_record(state), ensure_ascii=False, indent=1)


def score_record(data: str | bytes | dict[str, Any]) -> dict[str, Any]:
    """The bilka-score/1 report of a Bilka record (RECORD-FORMAT.md); RecordError if it is illegal
    (`record_games.score_game_record` scores a record of any game)."""
    state = read_record(data)
    return score_state(state)


def _pairs(values: tuple[int, int]) -> dict[str, int]:
    return {"NS": values[0], "EW": values[1]}


def score_state(state: BaseMatchState) -> dict[str, Any]:
    out = []
    for log in state.deals:
        if log.outcome == "redeal":
            out.append({
                "jack_holder": SEATS[log.jack_holder],
                "outcome": "redeal",
                "eyes": _pairs(log.eyes),
                "score": _pairs(log.score_after),
            })
            continue
        tricks = []
        leader = log.leader
        points = [0, 0]
        for t, winner in enumerate(log.trick_winners):
            cards = log.plays[4 * t:4 * t + 4]
            pts = sum(VALUE[c] for c in cards)
            points[winner & 1] += pts
            tricks.append({
                "leader": SEATS[leader],
                "cards": [card_to_str(c) for c in cards],
                "winner": SEATS[winner],
                "points": pts,
            })
            leader = winner
        finished = log.outcome is not None
        played: dict[str, Any] = {
            "trump": SUITS[log.trump],
            "jack_holder": SEATS[log.jack_holder],
            "on_duty": PAIRS[log.pair_on_duty],
            "tricks": tricks,
            "points": _pairs((points[0], points[1])),
            "outcome": log.outcome if finished else "unfinished",
            "eyes": _pairs(log.eyes),
            "score": _pairs(log.score_after if finished else state.capped_score),
        }
        out.append(played)
    return {
        "format": SCORE_FORMAT,
        "deals": out,
        "score": _pairs(state.capped_score),
        "winner": None if state.winner is None else PAIRS[state.winner],
    }
