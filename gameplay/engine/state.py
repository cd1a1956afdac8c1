"""The state of a whole match: deals, redeals, tricks, eyes; `legal_actions()` and `apply()`.

Cards are ints and hands are bitmasks (see `cards.py`). `apply()` validates every action by
one bit test against a legal-card mask that is kept up to date as the trick goes round, so
the live tables, the record reader, the bots and the benchmark all share one fast path.

The state knows nothing of records or of what a viewer may see: `record.py` and
`observation.py` read it. Callers hold its subclass `match.MatchState`, which adds what comes
from outside the cards (an early end, a penalty) and each viewer's observation.
Over 400 lines because it is one class, the hot path that the mypyc build compiles
(`native.py`): `apply()` reads and writes its slots directly, so it is not split further.
"""

from __future__ import annotations

import random
import secrets
from enum import IntEnum
from typing import Final

from gameplay.engine.cards import (
    CHUNK_CARDS,
    CLUBS,
    DECK_RANKS,
    JC,
    PAIRS,
    PASS,
    PLAIN_SUIT_MASK,
    REDEAL,
    SEATS,
    SUIT_NAMES,
    VALUE,
    card_to_str,
    deck_cards,
    deck_mask,
)
from gameplay.engine.deal import (
    DealLog,
    check_hands,
    first_suits,
    qualifying_seats,
    redeal_possible,
    shuffled_hands,
)
from gameplay.engine.errors import IllegalAction
from gameplay.engine.ladder import FOLLOW, LEAD_KEY, PLAIN_ACES, STRENGTH4
from gameplay.engine.rules import Rules
from gameplay.engine.scoring import WIN_SCORE, score_deal
from gameplay.engine.shuffle import Shuffle

_DEALING, _REDEAL, _PLAY, _OVER = 0, 1, 2, 3


_C0, _C1, _C2 = CHUNK_CARDS
_DECK_BITS = {deck: [1 << c for c in deck_cards(deck)] for deck in DECK_RANKS}
_JC_BIT = 1 << JC
_DECK_MASKS = {deck: deck_mask(deck) for deck in DECK_RANKS}


class Phase(IntEnum):
    """DEALING: waiting for `start_deal()`; REDEAL: all four seats answer "play" or "redeal"
    at once; PLAY: cards; OVER: decided."""

    DEALING = _DEALING
    REDEAL = _REDEAL
    PLAY = _PLAY
    OVER = _OVER


#: The attributes of a match state (also what `MatchState._become_replay` copies).
MATCH_STATE_SLOTS: Final = (
    "rules", "rng", "auto_deal", "players", "score", "winner", "end", "penalties", "suit_of_seat",
    "eggs", "redeal_streak", "dealer", "deals", "_next", "_deck", "_jack_holder_leads", "_deck_mask",
    "_hand_size", "_phase", "_hands", "_trump", "_log", "_plays", "_winners", "_to_move",
    "_pending", "_qualify", "_redeal_rules", "_trump4", "_ace_ban", "_first_played", "_bw", "_row",
    "_follow", "_lead_keys", "_legal", "_unled_aces", "_points", "shuffle",
)


class BaseMatchState:
    """A match from its first deal to its winner (callers hold its subclass, `match.MatchState`).

    Create with `MatchState(rules, seed=...)` (seeded, for tests, bots and simulations) or
    `MatchState(rules)` (shuffled from `secrets.SystemRandom`). With `auto_deal=True` the next
    deal is dealt as soon as one ends; with `auto_deal=False` the caller deals with
    `start_deal(hands)`, which is how a record is replayed. With a `shuffle`
    (`shuffle.Shuffle`) every deal is dealt by its documented scheme, not by the rng.
    """

    __slots__ = MATCH_STATE_SLOTS

    def __init__(
        self,
        rules: Rules | None = None,
        *,
        seed: int | None = None,
        rng: random.Random | None = None,
        first_dealer: int | None = None,
        auto_deal: bool = True,
        players: dict[str, str] | None = None,
        shuffle: Shuffle | None = None,
    ) -> None:
        self.rules = rules if rules is not None else Rules()
        self.shuffle = shuffle
        if rng is None:
            # seeded: reproducible deals for tests, bots and simulations; else the OS's randomness
            rng = random.Random(seed) if seed is not None else secrets.SystemRandom()  # noqa: S311
        self.rng = rng
        self.auto_deal = auto_deal
        self.players = dict(players) if players else None
        self.score = [0, 0]
        self.winner: int | None = None
        self.end: tuple[str, int] | None = None
        #: (after_deal, pair, eyes, reason) as entered by an organiser.
        self.penalties: list[tuple[int, int, int, str]] = []
        self.suit_of_seat: tuple[int, int, int, int] | None = None
        self.eggs = 0
        self.redeal_streak = 0
        if first_dealer is None:
            # by the shuffle scheme where the seed is known (so it can be checked), else drawn
            known = shuffle is not None and shuffle.seed is not None
            first_dealer = shuffle.first_dealer() if known else self.rng.randrange(4)  # type: ignore[union-attr]
        self.dealer = first_dealer
        self.deals: list[DealLog] = []
        if self.rules.direction == "clockwise":
            self._next = (1, 2, 3, 0)
        else:
            self._next = (3, 0, 1, 2)
        self._deck = _DECK_BITS[self.rules.deck]
        self._jack_holder_leads = self.rules.first_lead == "jack_holder"
        self._deck_mask = _DECK_MASKS[self.rules.deck]
        self._hand_size = len(self._deck) // 4
        self._phase = _DEALING
        self._hands = [0, 0, 0, 0]
        self._trump = CLUBS
        self._plays: list[int] = []
        self._winners: list[int] = []
        self._to_move: int | None = None
        #: The redeal phase: the seats yet to answer (in play order from the leader), and the
        #: seats whose hands qualify (bit s = seat s); the phase exists only if the rules allow one.
        self._pending: list[int] = []
        self._qualify = 0
        self._redeal_rules = redeal_possible(self.rules)
        self._trump4 = 0
        self._ace_ban = self.rules.ace_discard_ban
        self._first_played = True
        self._bw = -1
        self._row: tuple[int, ...] = STRENGTH4[0]
        self._follow = 0
        self._lead_keys: tuple[int, ...] = LEAD_KEY[0]
        self._legal = 0
        self._unled_aces = 0
        self._points = [0, 0]
        if auto_deal:
            self.start_deal()

    # ------------------------------------------------------------------ read-only views
    @property
    def phase(self) -> Phase:
        return Phase(self._phase)

    @property
    def to_move(self) -> int | None:
        """The seat whose action `legal_actions()` lists, or None between deals / at the end.

        In the redeal phase every seat answers at once (`redeal_pending`); `to_move` is then the
        first seat yet to answer, for callers that answer for the seats one at a time."""
        return self._to_move if self._phase in (_REDEAL, _PLAY) else None

    @property
    def redeal_pending(self) -> tuple[int, ...]:
        """The seats yet to answer "play" or "redeal" (empty outside the redeal phase)."""
        return tuple(self._pending) if self._phase == _REDEAL else ()

    def may_redeal(self, seat: int) -> bool:
        """Does `seat`'s hand qualify for a redeal in this deal (RULES.md, "Redeal")?"""
        return bool(self._qualify >> seat & 1) if self._phase == _REDEAL else False

    def redeal_options(self, seat: int) -> list[int]:
        """What `seat` may answer in the redeal phase: [REDEAL, PASS] where its hand qualifies,
        [PASS] where it does not, [] once it has answered (or outside the phase)."""
        if self._phase != _REDEAL or seat not in self._pending:
            return []
        return [REDEAL, PASS] if self._qualify >> seat & 1 else [PASS]

    @property
    def trump(self) -> int:
        return self._trump

    @property
    def hands(self) -> tuple[int, int, int, int]:
        h = self._hands
        return (h[0], h[1], h[2], h[3])

    @property
    def trick(self) -> tuple[int, ...]:
        n = len(self._plays) & 3  # tricks are four cards, so the trick is the tail of the plays
        return tuple(self._plays[len(self._plays) - n:]) if n else ()

    @property
    def trick_leader(self) -> int:
        """Who led the current trick: the last trick's winner, or the deal's first leader."""
        if not self.deals:
            return 0
        winners = self._winners
        return winners[-1] if winners else self._log.leader

    @property
    def points(self) -> tuple[int, int]:
        return (self._points[0], self._points[1])

    @property
    def tricks_taken(self) -> tuple[int, int]:
        ew = sum(w & 1 for w in self._log.trick_winners) if self.deals else 0
        return (len(self._log.trick_winners) - ew, ew) if self.deals else (0, 0)

    @property
    def last_trick(self) -> tuple[int, tuple[int, ...], int] | None:
        """(leader, cards, winner) of the last completed trick of the current deal."""
        winners = self._winners
        if not self.deals or not winners:
            return None
        t = len(winners) - 1
        leader = winners[t - 1] if t else self._log.leader
        return (leader, tuple(self._plays[4 * t:4 * t + 4]), winners[t])

    @property
    def current_deal(self) -> DealLog | None:
        return self.deals[-1] if self.deals and self.deals[-1].outcome is None else None

    def next_seat(self, seat: int) -> int:
        return self._next[seat]

    # ------------------------------------------------------------------ dealing
    def start_deal(self, hands: tuple[int, int, int, int] | list[int] | None = None) -> None:
        """Deal the next deal: by the shuffle scheme (deal k = len(deals) + 1) or from the rng, or the
        given four hand masks (N E S W)."""
        if self._phase != _DEALING:
            raise IllegalAction("a deal is in progress" if self._phase != _OVER else "the match is over")
        if hands is None and self.shuffle is not None:
            hands = self.shuffle.hands(self.rules.deck, len(self.deals) + 1)
        elif hands is None:
            hands = shuffled_hands(self._deck, self.rng, self._hand_size)
        else:
            check_hands(hands, self.rules.deck, self._deck_mask, self._hand_size)
        hands = self._hands = list(hands)
        jack_holder = 0
        while not hands[jack_holder] & _JC_BIT:
            jack_holder += 1
        suits = self.suit_of_seat
        trump = CLUBS if suits is None else suits[jack_holder]
        self._trump = trump
        dealer = self.dealer
        leader = jack_holder if self._jack_holder_leads else self._next[dealer]
        log = DealLog(dealer, (hands[0], hands[1], hands[2], hands[3]), trump, jack_holder, leader)
        self.deals.append(log)
        self._log = log
        self._plays = log.plays
        self._winners = log.trick_winners
        self._points = [0, 0]
        if self._redeal_rules:
            # Every seat is asked, qualifying or not, so that the question tells nothing.
            nxt = self._next
            self._pending = [leader, nxt[leader], nxt[nxt[leader]], nxt[nxt[nxt[leader]]]]
            self._qualify = qualifying_seats(self.rules, hands)
            self._phase = _REDEAL
            self._legal = 0
            self._to_move = leader
        else:
            self._begin_play()

    def _begin_play(self) -> None:
        log = self._log
        jh = log.jack_holder
        self._pending = []
        if self.suit_of_seat is None:
            self.suit_of_seat = first_suits(jh, self._next)  # kept for the whole match
        self.redeal_streak = 0
        trump = self._trump
        self._trump4 = trump * 4
        self._lead_keys = LEAD_KEY[trump]
        self._unled_aces = PLAIN_ACES[trump] if self.rules.ace_discard_ban else 0
        self._phase = _PLAY
        self._to_move = log.leader
        self._legal = self._hands[log.leader]

    # ------------------------------------------------------------------ actions
    def legal_actions(self) -> list[int]:
        """Card ids the seat to move may play; in the redeal phase, `redeal_options(to_move)`."""
        m = self._legal  # 0 outside the play phase
        if m:
            return _C0[m & 0xFFF] + _C1[m >> 12 & 0xFFF] + _C2[m >> 24]
        if self._phase == _REDEAL:
            return self.redeal_options(self._to_move)  # type: ignore[arg-type]
        return []

    def legal_mask(self) -> int:
        """The legal cards as a bitmask (0 outside play)."""
        return self._legal

    def apply(self, action: int, seat: int | None = None) -> None:
        """Play a card (id 0..35) for the seat to move, or answer the redeal question (REDEAL /
        PASS) for `seat` (any seat yet to answer; without `seat`, the first of them).

        Raises IllegalAction saying why, and leaves the state unchanged, if the action is not
        allowed. In play `seat`, when given, must be the seat to move (a live table passes it).
        """
        # Validation: one bit test against the legal mask kept for the seat to move (the mask
        # is 0 outside the play phase, so redeal decisions and errors take the slow path).
        try:
            ok = self._legal >> action & 1
        except (TypeError, ValueError):
            ok = 0
        if not ok or seat is not None:
            self._apply_other(action, seat)
            return
        mover: int = self._to_move  # type: ignore[assignment]
        hands = self._hands
        hands[mover] ^= 1 << action
        plays = self._plays
        n = len(plays) & 3  # cards already in this trick
        plays.append(action)
        if n == 0:
            idx = self._trump4 + self._lead_keys[action]
            row = self._row = STRENGTH4[idx]
            follow = self._follow = FOLLOW[idx]
            self._bw = row[action] + mover
            if self._ace_ban and idx & 3 != self._trump4 >> 2:
                self._unled_aces &= ~PLAIN_SUIT_MASK[idx & 3]
        elif n == 3:
            bw = self._row[action] + mover
            best = self._bw
            win = (bw if bw > best else best) & 3
            self._points[win & 1] += (
                VALUE[action] + VALUE[plays[-2]] + VALUE[plays[-3]] + VALUE[plays[-4]]
            )
            self._winners.append(win)
            self._to_move = win
            h = hands[win]
            if h:
                self._legal = h
            else:
                self._finish_deal()
            return
        else:
            bw = self._row[action] + mover
            if bw > self._bw:
                self._bw = bw
            follow = self._follow
        nxt = self._next[mover]
        self._to_move = nxt
        h = hands[nxt]
        self._legal = h & follow or h & ~self._unled_aces or h

    def _apply_other(self, action: int, seat: int | None) -> None:
        phase = self._phase
        if phase == _OVER:
            raise IllegalAction("the match is over")
        if phase == _DEALING:
            raise IllegalAction("no deal is in progress")
        mover = self._to_move
        assert mover is not None  # noqa: S101
        if phase == _REDEAL:
            self._answer(action, mover if seat is None else seat)
            return
        if seat is not None and seat != mover:
            raise IllegalAction(f"it is {SEATS[mover]}'s turn, not {SEATS[seat]}'s")
        if seat is None:
            raise IllegalAction(self._why_illegal(action))
        self.apply(action)

    def _answer(self, action: int, seat: int) -> None:
        """`seat`'s answer to the redeal question: "play" (PASS) or, if its hand qualifies, "redeal"."""
        pending = self._pending
        if isinstance(action, int) and not isinstance(action, bool) and 0 <= action < 36:
            raise IllegalAction(f"{SEATS[seat]} must first answer play or redeal, "
                                f"before any card is played")
        if action not in (REDEAL, PASS):
            raise IllegalAction(f"{action!r} is not an action")
        if seat not in pending:
            raise IllegalAction(f"{SEATS[seat]} has already answered")
        if action == REDEAL:
            if not self._qualify >> seat & 1:
                raise IllegalAction(f"{SEATS[seat]} may not ask for a redeal: the hand does not qualify")
            self._redeal(seat)
            return
        pending.remove(seat)
        self._log.passed.append(seat)
        if pending:
            self._to_move = pending[0]
        else:
            self._begin_play()

    def end_redeal_phase(self) -> None:
        """The redeal phase's time ran out: every seat yet to answer counts as "play"."""
        if self._phase != _REDEAL:
            raise IllegalAction("no redeal question is open")
        self._log.passed.extend(self._pending)
        self._begin_play()

    def _redeal(self, seat: int) -> None:
        log = self._log
        log.redeal = seat
        log.outcome = "redeal"
        self._phase = _DEALING
        self._legal = 0
        self._to_move = None
        self._pending = []
        self.redeal_streak += 1
        eyes = [0, 0]
        if self.rules.three_redeals_eye and self.redeal_streak == 3:
            # The third redeal in a row: one eye to the pair that is not dealing.
            other = 1 - (self.dealer & 1)
            eyes[other] = 1
            self.redeal_streak = 0
        log.eyes = (eyes[0], eyes[1])
        self._add_eyes(eyes)
        log.score_after = self.capped_score
        self._after_deal()

    def _why_illegal(self, action: object) -> str:
        if not isinstance(action, int) or isinstance(action, bool) or not 0 <= action < 36:
            if action in (REDEAL, PASS):
                return "a redeal may only be asked for before the first card is played"
            return f"{action!r} is not a card"
        seat = self._to_move
        assert seat is not None  # noqa: S101
        name, card = SEATS[seat], card_to_str(action)
        hand = self._hands[seat]
        if not hand >> action & 1:
            return f"{name} does not hold {card}"
        n = len(self._plays) & 3
        if hand & self._follow and n:
            lead = self._lead_keys[self._plays[-n]]
            if lead == self._trump:
                return f"{name} must play a trump and cannot play {card}"
            return f"{name} must follow {SUIT_NAMES[lead]} and cannot play {card}"
        return f"{name} may not discard {card}: {SUIT_NAMES[action // 9]} have not been led yet"

    # ------------------------------------------------------------------ end of a deal
    def _finish_deal(self) -> None:
        log = self._log
        log.points = (self._points[0], self._points[1])
        first_played = self._first_played
        self._first_played = False
        ew = sum(map((1).__and__, log.trick_winners))
        result = score_deal(
            self.rules,
            log.points,
            (len(log.trick_winners) - ew, ew),
            log.pair_on_duty,
            self.eggs,
            first_played,
            (self.score[0], self.score[1]),
        )
        log.outcome = result.outcome
        log.eyes = result.eyes
        self.eggs = 0 if result.decided else self.eggs + 1
        if result.reset is not None:
            self.score[result.reset] = 0
        self._add_eyes(list(result.eyes))
        log.score_after = self.capped_score
        self.dealer = self._next[self.dealer]
        self._phase = _DEALING
        self._legal = 0
        self._to_move = None
        self._after_deal()

    def _add_eyes(self, eyes: list[int]) -> None:
        for pair in (0, 1):
            self.score[pair] = min(WIN_SCORE, self.score[pair] + eyes[pair])
            if self.score[pair] >= WIN_SCORE and self.winner is None:
                self.winner = pair

    def _after_deal(self) -> None:
        if self.winner is not None:
            self._phase = _OVER
        elif self.auto_deal:
            self.start_deal()

    @property
    def capped_score(self) -> tuple[int, int]:
        return (min(WIN_SCORE, self.score[0]), min(WIN_SCORE, self.score[1]))

    @property
    def deals_finished(self) -> int:
        return sum(1 for d in self.deals if d.outcome is not None)

    def _stop(self) -> None:
        """The match is decided: nobody is to move any more."""
        self._phase = _OVER
        self._legal = 0
        self._to_move = None
        self._pending = []

    def describe_seat(self, seat: int) -> str:
        return SEATS[seat]

    def describe_pair(self, pair: int) -> str:
        return PAIRS[pair]
