"""What one seat (or a spectator) may see: never another seat's unplayed card.

The live tables send `Observation.to_json()` to each viewer and the bots decide from an
`Observation` alone, so a bot cannot cheat and a client cannot leak.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gameplay.engine.cards import PAIRS, SEATS, SUITS, action_to_str, card_to_str, hand_sort_key, mask_cards

if TYPE_CHECKING:
    from collections.abc import Callable

    from gameplay.engine.deal import DealLog
    from gameplay.engine.rules import Rules
    from gameplay.engine.state import BaseMatchState


@dataclass(frozen=True, slots=True)
class Observation:
    """A seat's view (`seat` set, `hand` its cards) or a spectator's (`seat` and `hand` None).

    Public by the rules: whose suit is whose, the trump, and so who holds `JC` (the trump
    *is* the suit of the `JC` holder), the cards on the table, each seat's number of cards,
    tricks taken, the score. In the redeal phase every seat is asked at once: `to_move` is None
    for all, `legal` holds the seat's own answers while it has not answered, and `answered` names
    the seats that have answered "play" (public: whether a hand qualifies is not). Points are
    shown for finished deals only: `last_deal` is the last
    deal that ended (a redeal included), `last_played` the last one played to the end, with the
    pair that was on duty in it and the score after it (the summary shown between deals).

    Python-side only (not in `to_json`, so the frames sent to clients stay as they are):
    `history`, every card played in this deal with its seat, in order, as a player at the table
    remembers the deal even where `review_tricks` hides the turned tricks; `passed`, the seats
    that answered "play" to this deal's redeal question; `rules`, the table's rules (public).
    The strong bot reasons from these, and they hold nothing a seat may not see.
    """

    seat: int | None
    phase: str
    deal_number: int
    dealer: int
    to_move: int | None
    hand: tuple[int, ...] | None
    legal: tuple[int, ...]
    hand_sizes: tuple[int, int, int, int]
    trump: int | None
    jack_holder: int | None
    pair_on_duty: int | None
    suit_of_seat: tuple[int, int, int, int] | None
    trick_leader: int | None
    trick: tuple[int, ...]
    last_trick: tuple[int, tuple[int, ...], int] | None
    tricks_taken: tuple[int, int]
    redeal_phase: bool
    last_deal: dict[str, Any] | None
    score: tuple[int, int]
    eggs: int
    winner: int | None
    end: tuple[str, int] | None
    deck: str
    last_played: dict[str, Any] | None = None
    answered: tuple[int, ...] = ()
    history: tuple[tuple[int, int], ...] = ()
    passed: tuple[int, ...] = ()
    rules: Rules | None = None

    @classmethod
    def of(cls, state: BaseMatchState, seat: int | None) -> Observation:
        log = state.deals[-1] if state.deals else None
        in_deal = log is not None and log.outcome is None
        hands = state.hands
        hand = tuple(mask_cards(hands[seat])) if seat is not None and in_deal else None
        to_move = state.to_move
        legal: tuple[int, ...] = ()
        redeal_phase = state.phase.name == "REDEAL"
        answered: tuple[int, ...] = ()
        if redeal_phase:
            to_move = None  # everyone answers at once
            answered = tuple(log.passed) if log is not None else ()
            if seat is not None:
                legal = tuple(state.redeal_options(seat))
        elif seat is not None and to_move == seat:
            legal = tuple(state.legal_actions())
        last_trick = state.last_trick if state.rules.review_tricks == "last" and in_deal else None
        finished = [d for d in state.deals if d.outcome is not None]
        last_deal = None
        if finished:
            d = finished[-1]
            last_deal = {
                "outcome": d.outcome,
                "points": d.points if d.outcome != "redeal" else None,
                "eyes": d.eyes,
                "redeal": d.redeal,
            }
        played = [(i, d) for i, d in enumerate(state.deals) if d.outcome not in (None, "redeal")]
        last_played = None
        if played:
            number, p = played[-1]
            last_played = {"deal": number + 1, "outcome": p.outcome, "points": p.points, "eyes": p.eyes,
                           "pair_on_duty": p.pair_on_duty, "score_after": p.score_after}
        return cls(
            seat=seat,
            phase=state.phase.name.lower(),
            deal_number=len(state.deals),
            dealer=state.dealer,
            to_move=to_move,
            hand=hand,
            legal=legal,
            hand_sizes=tuple(h.bit_count() for h in hands) if in_deal else (0, 0, 0, 0),  # type: ignore[arg-type]
            trump=state.trump if in_deal else None,
            jack_holder=log.jack_holder if in_deal and log is not None else None,
            pair_on_duty=log.pair_on_duty if in_deal and log is not None else None,
            suit_of_seat=state.suit_of_seat,
            trick_leader=state.trick_leader if in_deal else None,
            trick=state.trick if in_deal else (),
            last_trick=last_trick,
            tricks_taken=state.tricks_taken if in_deal else (0, 0),
            redeal_phase=redeal_phase,
            last_deal=last_deal,
            score=state.capped_score,
            eggs=state.eggs,
            winner=state.winner,
            end=state.end,
            deck=state.rules.deck,
            last_played=last_played,
            answered=answered,
            history=_history(log, state.next_seat) if in_deal and log is not None else (),
            passed=tuple(log.passed) if in_deal and log is not None else (),
            rules=state.rules,
        )

    def visible_cards(self) -> set[int]:
        """Every card id this observation mentions (for the no-leak property)."""
        cards = set(self.hand or ()) | set(self.trick) | {c for c in self.legal if c < 36}
        if self.last_trick:
            cards |= set(self.last_trick[1])
        return cards | {c for _, c in self.history}

    def to_json(self) -> dict[str, Any]:
        """Plain JSON in the notation of RULES.md, for a client."""

        def seat_name(s: int | None) -> str | None:
            return None if s is None else SEATS[s]

        return {
            "seat": seat_name(self.seat),
            "phase": self.phase,
            "deal": self.deal_number,
            "dealer": SEATS[self.dealer],
            "to_move": seat_name(self.to_move),
            "hand": None if self.hand is None else [
                card_to_str(c) for c in sorted(self.hand, key=hand_sort_key)
            ],
            "legal": [action_to_str(a) for a in self.legal],
            "hand_sizes": dict(zip(SEATS, self.hand_sizes, strict=True)),
            "trump": None if self.trump is None else SUITS[self.trump],
            "jack_holder": seat_name(self.jack_holder),
            "on_duty": None if self.pair_on_duty is None else PAIRS[self.pair_on_duty],
            "suits": None if self.suit_of_seat is None else {
                SEATS[s]: SUITS[self.suit_of_seat[s]] for s in range(4)
            },
            "trick": {"leader": seat_name(self.trick_leader), "cards": [card_to_str(c) for c in self.trick]},
            "last_trick": None if self.last_trick is None else {
                "leader": SEATS[self.last_trick[0]],
                "cards": [card_to_str(c) for c in self.last_trick[1]],
                "winner": SEATS[self.last_trick[2]],
            },
            "tricks_taken": dict(zip(PAIRS, self.tricks_taken, strict=True)),
            "last_deal": None if self.last_deal is None else {
                "outcome": self.last_deal["outcome"],
                "points": None if self.last_deal["points"] is None else dict(
                    zip(PAIRS, self.last_deal["points"], strict=True)
                ),
                "eyes": dict(zip(PAIRS, self.last_deal["eyes"], strict=True)),
                "redeal": seat_name(self.last_deal["redeal"]),
            },
            "answered": [SEATS[s] for s in self.answered],
            "score": dict(zip(PAIRS, self.score, strict=True)),
            "eggs": self.eggs,
            "winner": None if self.winner is None else PAIRS[self.winner],
            "end": None if self.end is None else {"reason": self.end[0], "seat": SEATS[self.end[1]]},
            "deck": self.deck,
            "last_played": None if self.last_played is None else {
                "deal": self.last_played["deal"],
                "outcome": self.last_played["outcome"],
                "points": dict(zip(PAIRS, self.last_played["points"], strict=True)),
                "eyes": dict(zip(PAIRS, self.last_played["eyes"], strict=True)),
                "on_duty": PAIRS[self.last_played["pair_on_duty"]],
                "score": dict(zip(PAIRS, self.last_played["score_after"], strict=True)),
            },
        }


def _history(log: DealLog, next_seat: Callable[[int], int]) -> tuple[tuple[int, int], ...]:
    """(seat, card) of every card played in the deal so far: each trick led by the last one's winner."""
    out: list[tuple[int, int]] = []
    seat = log.leader
    winners = log.trick_winners
    for i, card in enumerate(log.plays):
        if i and i % 4 == 0:
            seat = winners[i // 4 - 1]
        out.append((seat, card))
        seat = next_seat(seat)
    return tuple(out)


def observe(state: BaseMatchState, seat: int) -> Observation:
    """The view of `seat` (0..3 = N E S W)."""
    if not 0 <= seat < 4:
        raise ValueError(f"{seat!r} is not a seat")
    return Observation.of(state, seat)


def observe_spectator(state: BaseMatchState) -> Observation:
    """The view of someone not at the table: no hand at all."""
    return Observation.of(state, None)
