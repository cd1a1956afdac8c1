"""Kozyol khvalyony for four in two pairs (docs/other-games.md, "Kozyol khvalyony"): the match.

The ace of diamonds' holder leads; nobody is on duty (a win 2 eyes, a rout 4); the шамок catching
the other pair's queen of clubs stops the deal and opens 4 eyes. Deck, card values, eggs, Lucy, the
redeal question and the match to 12 are Bilka's. The rules object, the trump ladder and the redeal
grounds are `kozyol_rules.py`.

Cards are Bilka's ids and hands bitmasks (`cards.py`); as in `state.py` every action is checked
by one bit test against a legal-card mask kept up to date as the trick goes round.
Over 400 lines: one class, Bilka's `MatchState` in shape, whose `apply()` reads and writes its
slots on the hot path; split further, every card would pay for a call.
"""

from __future__ import annotations

import random
import secrets
from typing import ClassVar, Final

from gameplay.engine.cards import (
    CHUNK_CARDS,
    DECK_RANKS,
    DIAMONDS,
    NUM_CARDS,
    PAIRS,
    PASS,
    REDEAL,
    SEATS,
    SUIT_NAMES,
    VALUE,
    card_to_str,
    deck_cards,
    deck_mask,
    mask_cards,
)
from gameplay.engine.deal import shuffled_hands
from gameplay.engine.errors import IllegalAction
from gameplay.engine.kozyol_rules import (
    AD,
    GAME,
    QC,
    ROUT_EYES,
    WIN_EYES,
    KozyolDealLog,
    KozyolRules,
    check_hands,
    ladder_of,
    redeal_grounds,
    redeal_possible,
)
from gameplay.engine.scoring import WIN_SCORE
from gameplay.engine.shuffle import Shuffle, draw_first_dealer
from gameplay.engine.state import Phase
from gameplay.engine.variant_scoring import score_catch, score_played_deal
from gameplay.engine.variant_view import View, play_history

_DEALING, _REDEAL, _PLAY, _OVER = 0, 1, 2, 3
_C0, _C1, _C2 = CHUNK_CARDS
_DECK_BITS: Final = {deck: [1 << c for c in deck_cards(deck)] for deck in DECK_RANKS}
_DECK_MASKS: Final = {deck: deck_mask(deck) for deck in DECK_RANKS}
_AD_BIT: Final = 1 << AD
_QC_BIT: Final = 1 << QC


class KozyolMatchState:
    """A Kozyol match, Bilka's `MatchState` in shape: `KozyolMatchState(rules, seed=7)` (or
    `shuffle=`); `legal_actions()`, `apply(action, seat=None)`, `redeal_pending` /
    `redeal_options(seat)` / `end_redeal_phase()` for the redeal question put to all four seats;
    with `auto_deal=False` the caller deals with `start_deal(hands)`. Pairs 0 (NS) and 1 (EW)."""

    game: ClassVar[str] = GAME
    __slots__ = ("rules", "rng", "auto_deal", "score", "winner", "end", "eggs", "redeal_streak", "dealer",
                 "deals", "_next", "_deck", "_deck_mask", "_hand_size", "_ladder", "_lead_key", "_strength4",
                 "_follows", "_shamok_bit", "_catch_mask", "_plain_all", "_redeal_rules", "_phase", "_hands",
                 "_log", "_plays", "_winners", "_to_move", "_pending", "_qualify", "_first_played",
                 "_restricted", "_row", "_follow", "_bw", "_trick_mask", "_legal", "_unled_aces", "_points",
                 "players", "shuffle")

    def __init__(
        self,
        rules: KozyolRules | None = None,
        *,
        seed: int | None = None,
        rng: random.Random | None = None,
        first_dealer: int | None = None,
        auto_deal: bool = True,
        players: dict[str, str] | None = None,
        shuffle: Shuffle | None = None,
    ) -> None:
        self.rules = rules if rules is not None else KozyolRules()
        if rng is None:
            rng = random.Random(seed) if seed is not None else secrets.SystemRandom()  # noqa: S311
        self.rng = rng
        self.auto_deal = auto_deal
        self.players, self.shuffle = (dict(players) if players else None), shuffle
        self.score = [0, 0]
        self.winner: int | None = None
        self.end: tuple[str, int] | None = None
        self.eggs = 0
        self.redeal_streak = 0
        self.dealer = draw_first_dealer(shuffle, self.rng, 4) if first_dealer is None else first_dealer
        self.deals: list[KozyolDealLog] = []
        self._next = (1, 2, 3, 0) if self.rules.direction == "clockwise" else (3, 0, 1, 2)
        self._deck = _DECK_BITS[self.rules.deck]
        self._deck_mask = _DECK_MASKS[self.rules.deck]
        self._hand_size = len(self._deck) // 4
        ladder = self._ladder = ladder_of(self.rules)
        self._lead_key = ladder.lead_key
        self._strength4 = ladder.strength4
        self._follows = ladder.follow
        self._shamok_bit = 1 << ladder.shamok if ladder.shamok is not None else 0
        self._catch_mask = self._shamok_bit | _QC_BIT
        self._plain_all = ladder.plain[0] | ladder.plain[2] | ladder.plain[3]
        self._redeal_rules = redeal_possible(self.rules)
        self._phase = _DEALING
        self._hands = [0, 0, 0, 0]
        self._log = KozyolDealLog(self.dealer, (0, 0, 0, 0), 0)
        self._plays: list[int] = []
        self._winners: list[int] = []
        self._to_move: int | None = None
        self._pending: list[int] = []
        self._qualify = 0
        self._first_played = True
        self._restricted = 0  # pairs (bit p) whose leader must lead a plain card while he has one
        self._row = ladder.strength4[0]
        self._follow = 0
        self._bw = -1
        self._trick_mask = 0
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
        return self._to_move if self._phase in (_REDEAL, _PLAY) else None

    @property
    def redeal_pending(self) -> tuple[int, ...]:
        return tuple(self._pending) if self._phase == _REDEAL else ()

    def may_redeal(self, seat: int) -> bool:
        return bool(self._qualify >> seat & 1) if self._phase == _REDEAL else False

    def redeal_options(self, seat: int) -> list[int]:
        if self._phase != _REDEAL or seat not in self._pending:
            return []
        return [REDEAL, PASS] if self._qualify >> seat & 1 else [PASS]

    @property
    def trump(self) -> int:
        return DIAMONDS

    @property
    def shamok(self) -> int | None:
        return self._ladder.shamok

    @property
    def hands(self) -> tuple[int, int, int, int]:
        h = self._hands
        return (h[0], h[1], h[2], h[3])

    @property
    def trick(self) -> tuple[int, ...]:
        n = len(self._plays) & 3
        return tuple(self._plays[len(self._plays) - n:]) if n else ()

    @property
    def trick_leader(self) -> int:
        if not self.deals:
            return 0
        return self._winners[-1] if self._winners else self._log.leader

    @property
    def points(self) -> tuple[int, int]:
        return (self._points[0], self._points[1])

    @property
    def tricks_taken(self) -> tuple[int, int]:
        ew = sum(w & 1 for w in self._winners)
        return (len(self._winners) - ew, ew)

    @property
    def last_trick(self) -> tuple[int, tuple[int, ...], int] | None:
        winners = self._winners
        if not self.deals or not winners:
            return None
        t = len(winners) - 1
        leader = winners[t - 1] if t else self._log.leader
        return (leader, tuple(self._plays[4 * t:4 * t + 4]), winners[t])

    @property
    def current_deal(self) -> KozyolDealLog | None:
        return self.deals[-1] if self.deals and self.deals[-1].outcome is None else None

    @property
    def capped_score(self) -> tuple[int, int]:
        return (min(WIN_SCORE, self.score[0]), min(WIN_SCORE, self.score[1]))

    def next_seat(self, seat: int) -> int:
        return self._next[seat]

    def describe_seat(self, seat: int) -> str:
        return SEATS[seat]

    def describe_pair(self, pair: int) -> str:
        return PAIRS[pair]

    # ------------------------------------------------------------------ dealing
    def start_deal(self, hands: tuple[int, int, int, int] | list[int] | None = None) -> None:
        """Deal the next deal (the shuffle's, or from the rng), or the given four hand masks (N E S W)."""
        if self._phase != _DEALING:
            raise IllegalAction("a deal is in progress" if self._phase != _OVER else "the match is over")
        if hands is None:  # by the shuffle's scheme (docs/shuffle.md), else from the rng
            hands = (self.shuffle.hands(self.rules.deck, len(self.deals) + 1) if self.shuffle is not None
                     else shuffled_hands(self._deck, self.rng, self._hand_size))
        else:
            check_hands(hands, self.rules.deck, self._deck_mask, self._hand_size)
        hands = self._hands = list(hands)
        if self.rules.first_lead == "ace_of_diamonds":
            leader = 0
            while not hands[leader] & _AD_BIT:
                leader += 1
        else:
            leader = self._next[self.dealer]
        log = self._log = KozyolDealLog(self.dealer, (hands[0], hands[1], hands[2], hands[3]), leader)
        self.deals.append(log)
        self._plays = log.plays
        self._winners = log.trick_winners
        self._points = [0, 0]
        if self._redeal_rules:
            nxt = self._next
            self._pending = [leader, nxt[leader], nxt[nxt[leader]], nxt[nxt[nxt[leader]]]]
            self._qualify = sum(1 << s for s in range(4) if redeal_grounds(self.rules, hands[s]))
            self._phase = _REDEAL
            self._legal = 0
            self._to_move = leader
        else:
            self._begin_play()

    def _begin_play(self) -> None:
        log = self._log
        self._pending = []
        self.redeal_streak = 0
        if self.rules.dealer_leads_plain:
            self._restricted = 3 if self._first_played else 1 << (log.dealer & 1)
        self._unled_aces = self._ladder.plain_aces if self.rules.ace_discard_ban else 0
        self._phase = _PLAY
        self._to_move = log.leader
        self._legal = self._lead_mask(log.leader)

    def _lead_mask(self, seat: int) -> int:
        h = self._hands[seat]
        if self._restricted >> (seat & 1) & 1:
            return h & self._plain_all or h
        return h

    # ------------------------------------------------------------------ actions
    def legal_actions(self) -> list[int]:
        """Card ids the seat to move may play; in the redeal phase, `redeal_options(to_move)`."""
        m = self._legal
        if m:
            return _C0[m & 0xFFF] + _C1[m >> 12 & 0xFFF] + _C2[m >> 24]
        if self._phase == _REDEAL:
            return self.redeal_options(self._to_move)  # type: ignore[arg-type]
        return []

    def legal_mask(self) -> int:
        return self._legal

    def apply(self, action: int, seat: int | None = None) -> None:
        """Play a card for the seat to move, or answer the redeal question for `seat`; raises
        IllegalAction saying why, and leaves the state unchanged, if it is not allowed."""
        try:
            ok = self._legal >> action & 1
        except (TypeError, ValueError):
            ok = 0
        if not ok or (seat is not None and seat != self._to_move):
            self._apply_other(action, seat)
            return
        mover: int = self._to_move  # type: ignore[assignment]
        bit = 1 << action
        hands = self._hands
        hands[mover] ^= bit
        plays = self._plays
        n = len(plays) & 3
        plays.append(action)
        if n == 0:
            lead = self._lead_key[action]
            row = self._row = self._strength4[lead]
            self._follow = self._follows[lead]
            self._bw = row[action] + mover
            self._trick_mask = bit
            if self._unled_aces and lead != DIAMONDS:
                self._unled_aces &= ~self._ladder.plain[lead]
        elif n == 3:
            bw = self._row[action] + mover
            best = self._bw
            win = (bw if bw > best else best) & 3
            self._points[win & 1] += VALUE[action] + VALUE[plays[-2]] + VALUE[plays[-3]] + VALUE[plays[-4]]
            self._winners.append(win)
            trick_mask = self._trick_mask | bit
            if trick_mask & self._catch_mask == self._catch_mask and self._catch_mask != _QC_BIT:
                catcher = self._catcher(mover)
                if catcher is not None:
                    self._finish_deal(catcher)
                    return
            self._to_move = win
            if hands[win]:
                self._legal = self._lead_mask(win)
            else:
                self._finish_deal(None)
            return
        else:
            bw = self._row[action] + mover
            if bw > self._bw:
                self._bw = bw
            self._trick_mask |= bit
        nxt = self._next[mover]
        self._to_move = nxt
        h = hands[nxt]
        self._legal = h & self._follow or h & ~self._unled_aces or h

    def _catcher(self, last: int) -> int | None:
        """The seat of the шамок if it and the queen of clubs fell from different pairs in the
        trick just completed (`last` played its fourth card), else None."""
        seat = self._next[last]  # the trick's leader
        seats = {}
        for card in self._plays[-4:]:
            seats[card] = seat
            seat = self._next[seat]
        shamok_seat = seats[self._ladder.shamok]  # type: ignore[index]
        return shamok_seat if (shamok_seat ^ seats[QC]) & 1 else None

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
        raise IllegalAction(self._why_illegal(action))

    def _why_illegal(self, action: object) -> str:
        if not isinstance(action, int) or isinstance(action, bool) or not 0 <= action < NUM_CARDS:
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
        if n == 0:
            return f"{name}'s pair deals and may lead a trump only without a plain card, not {card}"
        if hand & self._follow:
            lead = self._ladder.lead_key[self._plays[-n]]
            if lead == DIAMONDS:
                return f"{name} must play a trump and cannot play {card}"
            return f"{name} must follow {SUIT_NAMES[lead]} and cannot play {card}"
        return f"{name} may not discard {card}: {SUIT_NAMES[action // 9]} have not been led yet"

    def _answer(self, action: int, seat: int) -> None:
        pending = self._pending
        if isinstance(action, int) and not isinstance(action, bool) and 0 <= action < NUM_CARDS:
            raise IllegalAction(f"{SEATS[seat]} must first answer play or redeal, before any card is played")
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
        """The redeal question's time ran out: every seat yet to answer counts as "play"."""
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
            eyes[1 - (self.dealer & 1)] = 1  # the pair that is not dealing
            self.redeal_streak = 0
        log.eyes = (eyes[0], eyes[1])
        self._add_eyes(eyes)
        log.score_after = self.capped_score
        self._after_deal()  # the same dealer deals again

    # ------------------------------------------------------------------ end of a deal
    def _finish_deal(self, catcher: int | None) -> None:
        log = self._log
        log.points = (self._points[0], self._points[1])
        first_played = self._first_played
        self._first_played = False
        score = (self.score[0], self.score[1])
        if catcher is not None:
            log.catch = catcher
            result = score_catch(self.rules, catcher & 1, self.eggs, first_played,
                                 self.rules.first_catch_wins, score)
        else:
            ew = sum(w & 1 for w in log.trick_winners)
            result = score_played_deal(self.rules, log.points, (len(log.trick_winners) - ew, ew),
                                       WIN_EYES, ROUT_EYES, self.eggs, first_played, score)
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

    def end_match(self, reason: str, seat: int) -> None:
        """End the match other than by eyes: the pair of `seat` loses (timeout/resign/forfeit)."""
        if reason not in ("timeout", "resign", "forfeit"):
            raise IllegalAction(f"{reason!r} is not a reason to end a match")
        if self._phase == _OVER:
            raise IllegalAction("the match is over")
        self.end = (reason, seat)
        self.winner = 1 - (seat & 1)
        self._phase = _OVER
        self._legal = 0
        self._to_move = None
        self._pending = []

    # ------------------------------------------------------------------ what a seat sees
    def observation(self, seat: int) -> View:
        """What `seat` may see: its own hand, the trick, the scores; its legal actions if it is
        to move (or yet to answer the redeal question)."""
        redeal = self._phase == _REDEAL
        if redeal:
            legal = tuple(self.redeal_options(seat))
        elif self._phase == _PLAY and seat == self._to_move:
            legal = tuple(mask_cards(self._legal))
        else:
            legal = ()
        trick = self.trick
        ladder = self._ladder
        history = play_history(self._log.leader, self._plays, self._winners, self._next) \
            if self._phase == _PLAY else ()
        seats = tuple(s for s, _ in history[len(history) - len(trick):]) if trick else ()
        return View(GAME, seat, seat ^ 2, tuple(mask_cards(self._hands[seat])), legal, redeal, trick,
                    seats, DIAMONDS, ladder.trumps, ladder.strength, ladder.lead_key,
                    self.points, self.capped_score, history=history, rules=self.rules,
                    lead_restricted=self._restricted)


__all__ = ["GAME", "KozyolDealLog", "KozyolMatchState", "KozyolRules"]
