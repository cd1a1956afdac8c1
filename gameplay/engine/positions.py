"""Positions of a replay: each deal of a bilka-record/1 record, and the table at any card of it.

A replay viewer steps through a match card by card; this module says, for every deal, what was
dealt and what happened (from `record.read_record` and `record.score_state`, so the viewer and the
scorer can never disagree), and for a deal and a card, the position: the hands left, the trick on
the table, the tricks taken, the running points and whose turn it is. Pure, like the rest of the
engine: a page, a CLI or a test reads it without Django.

A Kozyol record (`record_games.py`) replays the same way: it has no jack of clubs' holder, no
suits of seats and no pair on duty (those are None), and a deal its шамок stopped names the seat
that caught the queen of clubs (`catch`).

A Bilka-for-two record replays with two seats, N and S, two cards a trick and a score by player
(keyed `N` and `S`); its deals carry `draws`, the stock's cards as they reached the hands, each
with the number of cards played before it (`position` adds them to the hands from there on).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gameplay.engine.bilka2 import Bilka2MatchState, Bilka2Rules
from gameplay.engine.cards import (
    PAIRS,
    SEATS,
    SUITS,
    card_from_str,
    card_to_str,
    hand_sort_key,
    mask_cards,
    mask_points,
)
from gameplay.engine.deal import DealLog, redeal_grounds
from gameplay.engine.kozyol import KozyolMatchState, KozyolRules
from gameplay.engine.kozyol_rules import redeal_grounds as kozyol_redeal_grounds
from gameplay.engine.match import MatchState
from gameplay.engine.record_games import read_game_record, score_game_state
from gameplay.engine.state import Phase

Score = dict[str, int]
#: The games a replay shows: four seats in two pairs, or Bilka for two's two players.
FourSeatMatch = MatchState | KozyolMatchState | Bilka2MatchState


@dataclass(frozen=True)
class Trick:
    """One trick: who led it, its cards with their seats in the order played, who took it."""

    leader: str
    cards: tuple[tuple[str, str], ...]
    winner: str | None
    points: int


@dataclass(frozen=True)
class RedealAsked:
    """The seat that asked for a redeal and every rule of RULES.md ("Redeal") its hand met.

    `grounds` holds `("points", p)`, `("four_nines", 0)` or `("five_of_suit", suit letter)`, as
    `deal.redeal_grounds` found them; `hand_points` and `redeal_below` let a page say "13 points,
    fewer than 14"."""

    seat: str
    grounds: tuple[tuple[str, int | str], ...]
    hand_points: int
    redeal_below: int


@dataclass(frozen=True)
class DealSummary:
    """One deal as dealt and as it went. `number` counts from 1, redeals included (as in errors).

    `suits` is whose suit is whose (seat -> suit letter), None before the first played deal of the
    match gives them; `trump`, `pair_on_duty`, `tricks` and `points` are None or empty for a
    redealt deal. `cards` is every card played, with its seat, the last trick possibly incomplete.
    """

    number: int
    dealer: str
    hands: dict[str, tuple[str, ...]]
    jack_holder: str | None
    trump: str | None
    suits: dict[str, str] | None
    pair_on_duty: str | None
    leader: str
    cards: tuple[tuple[str, str], ...]
    tricks: tuple[Trick, ...]
    outcome: str
    points: Score | None
    eyes: Score
    score_before: Score
    score_after: Score
    redeal: RedealAsked | None
    catch: str | None = None
    #: Bilka for two: (cards played before it, seat, card) for each card of the stock drawn.
    draws: tuple[tuple[int, str, str], ...] = ()

    @property
    def finished(self) -> bool:
        return self.outcome != "unfinished"

    @property
    def plays(self) -> int:
        """How many cards this deal has: the last `card` a position of it may show."""
        return len(self.cards)


@dataclass(frozen=True)
class Position:
    """The table after `card` cards of deal `deal` (index from 0): what a replay viewer draws.

    `trick` is the trick on the table: the one being built, or, right after its fourth card, the
    trick just completed (then `trick_winner` is set, and it also counts in `tricks`). `to_move` is
    the seat to play next, None when the deal has no more cards."""

    deal: int
    card: int
    plays: int
    hands: dict[str, tuple[str, ...]]
    trick: tuple[tuple[str, str], ...]
    trick_leader: str | None
    trick_winner: str | None
    tricks: tuple[Trick, ...]
    points: Score
    tricks_taken: Score
    eyes_before: Score
    eyes_after: Score
    to_move: str | None


def _pair(seat: str | None) -> str | None:
    return None if seat is None else PAIRS[SEATS.index(seat) & 1]


def _sorted(cards: list[int]) -> tuple[str, ...]:
    return tuple(card_to_str(c) for c in sorted(cards, key=hand_sort_key))


def _sorted_codes(codes: list[str], gone: set[str]) -> tuple[str, ...]:
    return _sorted([card_from_str(c) for c in codes if c not in gone])


def _draws(state: Bilka2MatchState, log: Any) -> tuple[tuple[int, str, str], ...]:
    """The stock's cards of a Bilka-for-two deal as they reached the hands, each with the number of
    cards played before it: two after each trick (`stock=after_trick`), or all of them once the
    first hands are played out (`stock=halves`)."""
    out = []
    quarter = log.hands[0].bit_count()
    for i, (player, card) in enumerate(log.draws):
        at = 2 * (i // 2 + 1) if state.rules.stock == "after_trick" else 2 * quarter
        out.append((at, "NS"[player], card_to_str(card)))
    return tuple(out)


class Replay:
    """Every deal of one record, and `position(deal_index, card)` for any point of it.

    Build with `Replay.from_record(record)`; a RecordError (from `read_record`) says what is wrong
    with a record that breaks the rules."""

    def __init__(self, state: FourSeatMatch, record: dict[str, Any]) -> None:
        self.players: dict[str, str] = dict(state.players or {})
        self.rules = state.rules
        two = isinstance(state, Bilka2MatchState)
        #: the seats' letters (N E S W, or N S), how many cards a trick has, the score's sides
        self.seats: str = "NS" if two else SEATS
        self.per_trick = len(self.seats)
        self.sides: tuple[str, str] = ("N", "S") if two else (PAIRS[0], PAIRS[1])
        self._next = {self.seats[s]: self.seats[state.next_seat(s)] for s in range(self.per_trick)}
        self.game: str = str(record.get("game") or "bilka")
        score = score_game_state(state)
        self.score: Score = score["score"]
        self.winner: str | None = score["winner"]
        end = record.get("end")
        self.end: tuple[str, str] | None = (end["reason"], end["seat"]) if isinstance(end, dict) else None
        self.deals: tuple[DealSummary, ...] = tuple(self._deals(state, score["deals"]))

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Replay:
        return cls(read_game_record(record), record)

    def side_of(self, seat: str | None) -> str | None:
        """The side a seat scores for: its pair, or in Bilka for two the player himself."""
        if seat is None:
            return None
        return seat if self.per_trick == 2 else _pair(seat)

    # ------------------------------------------------------------------ deals
    def _deals(self, state: FourSeatMatch, scored: list[dict[str, Any]]) -> list[DealSummary]:
        out: list[DealSummary] = []
        before: Score = dict.fromkeys(self.sides, 0)
        suits_known = False
        last = len(state.deals) - 1
        logs: list[Any] = list(state.deals)
        seats, per = self.seats, self.per_trick
        for index, (log, sc) in enumerate(zip(logs, scored, strict=True)):
            redeal = getattr(log, "redeal", None)
            redealt = redeal is not None
            # the suits are given out when the first deal's play begins (RULES.md, "Whose suit")
            began = not redealt and (bool(log.plays) or log.outcome is not None
                                     or (index == last and state.phase == Phase.PLAY))
            suits_known = suits_known or began
            suits = None
            suit_of_seat = getattr(state, "suit_of_seat", None)
            if suits_known and suit_of_seat is not None:
                suits = {SEATS[s]: SUITS[suit_of_seat[s]] for s in range(4)}
            cards = self._seated_cards(state, log.leader, [card_to_str(c) for c in log.plays],
                                       [seats[w] for w in log.trick_winners])
            tricks = tuple(
                Trick(leader=t["leader"], cards=tuple(cards[per * i:per * i + per]), winner=t["winner"],
                      points=t["points"])
                for i, t in enumerate(sc.get("tricks", []))
            )
            out.append(DealSummary(
                number=index + 1,
                dealer=seats[log.dealer],
                hands={seats[s]: _sorted(mask_cards(log.hands[s])) for s in range(per)},
                jack_holder=SEATS[log.jack_holder] if isinstance(log, DealLog) else None,
                trump=sc.get("trump"),
                suits=suits,
                pair_on_duty=sc.get("on_duty"),
                leader=seats[log.leader],
                cards=tuple(cards),
                tricks=tricks,
                outcome=sc["outcome"],
                points=sc.get("points"),
                eyes=sc["eyes"],
                score_before=before,
                score_after=sc["score"],
                redeal=None if redeal is None else self._redeal_asked(redeal, log.hands[redeal]),
                catch=sc.get("catch"),
                draws=_draws(state, log) if isinstance(state, Bilka2MatchState) else (),
            ))
            before = sc["score"]
        return out

    def _seated_cards(self, state: FourSeatMatch, leader: int, plays: list[str],
                      winners: list[str]) -> list[tuple[str, str]]:
        """Each card with the seat that played it: the leader, then in play order; each trick's
        winner (as the engine decided it) leads the next."""
        out: list[tuple[str, str]] = []
        seat, per = leader, self.per_trick
        for i, card in enumerate(plays):
            if i and i % per == 0:
                seat = self.seats.index(winners[i // per - 1])
            elif i:
                seat = state.next_seat(seat)
            out.append((self.seats[seat], card))
        return out

    def _redeal_asked(self, seat: int, hand: int) -> RedealAsked:
        assert not isinstance(self.rules, Bilka2Rules)  # noqa: S101 - Bilka for two has no redeal
        grounds = tuple(
            (rule, SUITS[detail] if rule == "five_of_suit" else detail)
            for rule, detail in (kozyol_redeal_grounds(self.rules, hand)
                                 if isinstance(self.rules, KozyolRules) else redeal_grounds(self.rules, hand))
        )
        return RedealAsked(seat=SEATS[seat], grounds=grounds, hand_points=mask_points(hand),
                           redeal_below=self.rules.redeal_below)

    # ------------------------------------------------------------------ positions
    def clamp(self, deal_index: int, card: int) -> tuple[int, int]:
        """The nearest real position: a deal index in 0..len-1, a card in 0..its plays."""
        if not self.deals:
            return (0, 0)
        deal_index = min(max(deal_index, 0), len(self.deals) - 1)
        return (deal_index, min(max(card, 0), self.deals[deal_index].plays))

    def position(self, deal_index: int, card: int) -> Position:
        """The table after `card` cards of deal `deal_index` (0 = before the first card); out-of-range
        values are clamped to the nearest real position. A record without deals has none."""
        if not self.deals:
            raise IndexError("the record has no deal")
        deal_index, card = self.clamp(deal_index, card)
        deal = self.deals[deal_index]
        played = deal.cards[:card]
        gone = {c for _seat, c in played}
        drawn = {s: [c for at, who, c in deal.draws if at <= card and who == s] for s in self.seats}
        hands = {s: _sorted_codes([*deal.hands[s], *drawn[s]], gone) for s in self.seats}
        per = self.per_trick
        complete = card // per
        taken = deal.tricks[:complete]
        points = {p: sum(t.points for t in taken if self.side_of(t.winner) == p) for p in self.sides}
        tricks_taken = {p: sum(1 for t in taken if self.side_of(t.winner) == p) for p in self.sides}
        if card % per:
            trick = played[card - card % per:]
            winner = None
        elif card:
            trick = played[card - per:]
            winner = taken[-1].winner
        else:
            trick, winner = (), None
        trick_leader = trick[0][0] if trick else None
        to_move = deal.cards[card][0] if card < deal.plays else None
        if to_move is None and not deal.finished and deal.redeal is None:
            to_move = self._next_to_play(deal, card)
        return Position(
            deal=deal_index, card=card, plays=deal.plays, hands=hands, trick=tuple(trick),
            trick_leader=trick_leader, trick_winner=winner, tricks=tuple(taken), points=points,
            tricks_taken=tricks_taken, eyes_before=deal.score_before,
            eyes_after=deal.score_after if deal.finished else deal.score_before, to_move=to_move,
        )

    def _next_to_play(self, deal: DealSummary, card: int) -> str | None:
        """Who was to play after the last card of a deal that stops short (a match in progress or
        ended by a timeout): the trick's winner, the first leader, or the next seat in play order."""
        if not any(deal.hands[s] for s in self.seats):
            return None
        if card == 0:
            return deal.leader
        per = self.per_trick
        if card % per == 0:
            return deal.tricks[card // per - 1].winner if len(deal.tricks) >= card // per else None
        return self._next[deal.cards[card - 1][0]]

    # ------------------------------------------------------------------ for the page's script
    def to_json(self, visible_deals: int | None = None) -> dict[str, Any]:
        """What the page's script needs to step through the deals without asking the server again:
        each deal's hands as dealt, its cards with seats and its tricks' winners and points."""
        deals = self.deals if visible_deals is None else self.deals[:max(visible_deals, 0)]
        return {
            "players": self.players,
            "seats": self.seats,
            "sides": list(self.sides),
            "deals": [
                {
                    "number": d.number, "dealer": d.dealer, "hands": {s: list(h) for s, h in d.hands.items()},
                    "jack_holder": d.jack_holder, "trump": d.trump, "suits": d.suits,
                    "pair_on_duty": d.pair_on_duty, "leader": d.leader, "outcome": d.outcome,
                    "cards": [list(c) for c in d.cards],
                    "tricks": [{"leader": t.leader, "winner": t.winner, "points": t.points}
                               for t in d.tricks],
                    "points": d.points, "eyes": d.eyes, "score_before": d.score_before,
                    "score_after": d.score_after, "redeal": d.redeal is not None,
                    "finished": d.finished, "to_move_at_end": self.position(i, d.plays).to_move,
                    **({"catch": d.catch} if d.catch is not None else {}),
                    **({"draws": [list(x) for x in d.draws]} if d.draws else {}),
                }
                for i, d in enumerate(deals)
            ],
        }

