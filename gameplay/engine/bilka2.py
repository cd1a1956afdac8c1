"""Bilka for two (docs/other-games.md, "Bilka for two").

Two players, North and South (players 0 and 1), each for himself. Each gets a quarter of the
deck; the other half is the stock (прикуп), never shown, dealt out when both hands are empty
(`stock=halves`) or drawn one card each after every trick, the trick's winner first
(`stock=after_trick`). The jacks are the top trumps as in Bilka; the trump suit is clubs in the
first deal of a match and, in every later deal, the printed suit of the last card played in the
deal before. No redeal, no pair on duty: a win opens 1 eye and a rout 2 (`eyes=1-2`) or 2 and 3
(`eyes=2-3`); eggs, Lucy and the match to 12 as in Bilka. The play rules are Bilka's, so the
trick tables are Bilka's own (`ladder.py`). The rules object and the deal log are `bilka2_rules.py`.
"""

from __future__ import annotations

import random
import secrets
from typing import ClassVar, Final

from gameplay.engine.bilka2_rules import EYES, GAME, PLAYERS, Bilka2DealLog, Bilka2Rules, next_trump
from gameplay.engine.cards import (
    CHUNK_CARDS,
    CLUBS,
    DECK_RANKS,
    NUM_CARDS,
    PLAIN_SUIT_MASK,
    SUIT_NAMES,
    VALUE,
    card_to_str,
    deck_cards,
    deck_mask,
    mask_cards,
)
from gameplay.engine.errors import IllegalAction
from gameplay.engine.ladder import FOLLOW, LEAD_KEY, PLAIN_ACES, STRENGTH, STRENGTH4, TRUMPS
from gameplay.engine.scoring import WIN_SCORE
from gameplay.engine.shuffle import Shuffle, draw_first_dealer
from gameplay.engine.state import Phase
from gameplay.engine.variant_scoring import score_played_deal
from gameplay.engine.variant_view import View, play_history

_DEALING, _PLAY, _OVER = 0, 2, 3
_C0, _C1, _C2 = CHUNK_CARDS
_DECK_CARDS: Final = {deck: deck_cards(deck) for deck in DECK_RANKS}
_DECK_MASKS: Final = {deck: deck_mask(deck) for deck in DECK_RANKS}


class Bilka2MatchState:
    """A Bilka-for-two match, Bilka's `MatchState` in shape, players 0 (N) and 1 (S).

    `Bilka2MatchState(rules, seed=7)`; `legal_actions()`, `apply(card, player=None)`; with
    `auto_deal=False` the caller deals with `start_deal(hands, stock)`. `score`, `points` and
    `winner` are per player.
    """

    game: ClassVar[str] = GAME
    __slots__ = ("rules", "rng", "auto_deal", "score", "winner", "end", "eggs", "dealer", "deals", "_cards",
                 "_deck_mask", "_quarter", "_after_trick", "_win_eyes", "_rout_eyes", "_phase", "_hands",
                 "_stock", "_trump", "_log", "_plays", "_winners", "_to_move", "_first_played", "_row",
                 "_follow", "_lead_keys", "_bw", "_legal", "_unled_aces", "_points", "players", "shuffle")

    def __init__(
        self,
        rules: Bilka2Rules | None = None,
        *,
        seed: int | None = None,
        rng: random.Random | None = None,
        first_dealer: int | None = None,
        auto_deal: bool = True,
        players: dict[str, str] | None = None,
        shuffle: Shuffle | None = None,
    ) -> None:
        self.rules = rules if rules is not None else Bilka2Rules()
        if rng is None:
            rng = random.Random(seed) if seed is not None else secrets.SystemRandom()  # noqa: S311
        self.rng = rng
        self.auto_deal = auto_deal
        self.players, self.shuffle = (dict(players) if players else None), shuffle
        self.score = [0, 0]
        self.winner: int | None = None
        self.end: tuple[str, int] | None = None
        self.eggs = 0
        self.dealer = draw_first_dealer(shuffle, self.rng, 2) if first_dealer is None else first_dealer
        self.deals: list[Bilka2DealLog] = []
        self._cards = _DECK_CARDS[self.rules.deck]
        self._deck_mask = _DECK_MASKS[self.rules.deck]
        self._quarter = len(self._cards) // 4
        self._after_trick = self.rules.stock == "after_trick"
        self._win_eyes, self._rout_eyes = EYES[self.rules.eyes]
        self._phase = _DEALING
        self._hands = [0, 0]
        self._stock: list[int] = []
        self._trump = CLUBS
        self._log = Bilka2DealLog(self.dealer, (0, 0), (), CLUBS, 0)
        self._plays: list[int] = []
        self._winners: list[int] = []
        self._to_move: int | None = None
        self._first_played = True
        self._row = STRENGTH4[0]
        self._follow = 0
        self._lead_keys = LEAD_KEY[CLUBS]
        self._bw = -1
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
        return self._to_move if self._phase == _PLAY else None

    @property
    def redeal_pending(self) -> tuple[int, ...]:
        return ()  # there is no redeal in Bilka for two

    @property
    def trump(self) -> int:
        return self._trump

    @property
    def hands(self) -> tuple[int, int]:
        return (self._hands[0], self._hands[1])

    @property
    def stock_left(self) -> int:
        return len(self._stock)

    @property
    def trick(self) -> tuple[int, ...]:
        return (self._plays[-1],) if len(self._plays) & 1 else ()

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
        s = sum(self._winners)
        return (len(self._winners) - s, s)

    @property
    def last_trick(self) -> tuple[int, tuple[int, ...], int] | None:
        winners = self._winners
        if not self.deals or not winners:
            return None
        t = len(winners) - 1
        leader = winners[t - 1] if t else self._log.leader
        return (leader, tuple(self._plays[2 * t:2 * t + 2]), winners[t])

    @property
    def current_deal(self) -> Bilka2DealLog | None:
        return self.deals[-1] if self.deals and self.deals[-1].outcome is None else None

    @property
    def capped_score(self) -> tuple[int, int]:
        return (min(WIN_SCORE, self.score[0]), min(WIN_SCORE, self.score[1]))

    def next_seat(self, player: int) -> int:
        return 1 - player

    def describe_seat(self, player: int) -> str:
        return PLAYERS[player]

    # ------------------------------------------------------------------ dealing
    def start_deal(self, hands: tuple[int, int] | list[int] | None = None,
                   stock: list[int] | tuple[int, ...] | None = None) -> None:
        """Deal the next deal (the shuffle's, or from the rng), or the given two hand masks (N, S)
        and the stock's cards in the order they will be dealt or drawn (`stock=halves`: the
        non-dealer's second hand first, then the dealer's)."""
        if self._phase != _DEALING:
            raise IllegalAction("a deal is in progress" if self._phase != _OVER else "the match is over")
        q = self._quarter
        if hands is None and self.shuffle is not None:  # by its scheme, docs/shuffle.md
            hands, stock = self.shuffle.hands_and_stock(self.rules.deck, len(self.deals) + 1)
        elif hands is None:
            cards = self._cards[:]
            self.rng.shuffle(cards)
            dealer = self.dealer
            first = [0, 0]
            first[1 - dealer] = sum(1 << c for c in cards[:q])
            first[dealer] = sum(1 << c for c in cards[q:2 * q])
            hands, stock = first, cards[2 * q:]
        else:
            if stock is None:
                raise IllegalAction("a deal of Bilka for two needs its stock")
            self._check(list(hands), list(stock))
        self._hands = [hands[0], hands[1]]
        self._stock = list(stock)
        stock_order = tuple(self._stock)
        self._stock.reverse()  # pop() from the end is the top of the stock
        if self.deals:
            last = self.deals[-1].plays
            trump = next_trump(last[-1])
        else:
            trump = CLUBS
        self._trump = trump
        leader = 1 - self.dealer
        log = self._log = Bilka2DealLog(self.dealer, (hands[0], hands[1]), stock_order, trump, leader)
        self.deals.append(log)
        self._plays = log.plays
        self._winners = log.trick_winners
        self._points = [0, 0]
        self._lead_keys = LEAD_KEY[trump]
        self._unled_aces = PLAIN_ACES[trump] if self.rules.ace_discard_ban else 0
        self._phase = _PLAY
        self._to_move = leader
        self._legal = self._hands[leader]

    def _check(self, hands: list[int], stock: list[int]) -> None:
        q = self._quarter
        if len(hands) != 2:
            raise IllegalAction("a deal of Bilka for two needs two hands")
        seen = 0
        for player, hand in enumerate(hands):
            if hand & ~self._deck_mask:
                raise IllegalAction(f"{card_to_str(mask_cards(hand & ~self._deck_mask)[0])} is not in "
                                    f"the {self.rules.deck} deck (hand of {PLAYERS[player]})")
            if hand & seen:
                raise IllegalAction(f"{card_to_str(mask_cards(hand & seen)[0])} is dealt twice")
            if hand.bit_count() != q:
                raise IllegalAction(f"{PLAYERS[player]} has {hand.bit_count()} cards, not {q}")
            seen |= hand
        for card in stock:
            if not isinstance(card, int) or not 0 <= card < NUM_CARDS or not self._deck_mask >> card & 1:
                raise IllegalAction(f"{card!r} is not a card of the {self.rules.deck} deck (stock)")
            if seen >> card & 1:
                raise IllegalAction(f"{card_to_str(card)} is dealt twice (stock)")
            seen |= 1 << card
        if seen != self._deck_mask:
            raise IllegalAction(f"the stock must hold the other {2 * q} cards of the deck")

    # ------------------------------------------------------------------ actions
    def legal_actions(self) -> list[int]:
        m = self._legal
        return _C0[m & 0xFFF] + _C1[m >> 12 & 0xFFF] + _C2[m >> 24] if m else []

    def legal_mask(self) -> int:
        return self._legal

    def apply(self, action: int, seat: int | None = None) -> None:
        """Play a card for the player to move (`seat`, when given, must be that player); raises
        IllegalAction saying why, and leaves the state unchanged, if it is not allowed."""
        try:
            ok = self._legal >> action & 1
        except (TypeError, ValueError):
            ok = 0
        if not ok or (seat is not None and seat != self._to_move):
            raise IllegalAction(self._why_illegal(action, seat))
        mover: int = self._to_move  # type: ignore[assignment]
        hands = self._hands
        hands[mover] ^= 1 << action
        plays = self._plays
        plays.append(action)
        other = 1 - mover
        if len(plays) & 1:
            idx = self._trump * 4 + self._lead_keys[action]
            self._row = STRENGTH4[idx]
            follow = FOLLOW[idx]
            self._bw = self._row[action] + mover
            if self._unled_aces and idx & 3 != self._trump:
                self._unled_aces &= ~PLAIN_SUIT_MASK[idx & 3]
            self._to_move = other
            h = hands[other]
            self._legal = h & follow or h & ~self._unled_aces or h
            return
        bw = self._row[action] + mover
        best = self._bw
        win = (bw if bw > best else best) & 3
        self._points[win] += VALUE[action] + VALUE[plays[-2]]
        self._winners.append(win)
        stock = self._stock
        if stock:
            draws = self._log.draws
            if self._after_trick:
                lose = 1 - win
                card = stock.pop()
                hands[win] |= 1 << card
                draws.append((win, card))
                card = stock.pop()
                hands[lose] |= 1 << card
                draws.append((lose, card))
            elif not hands[win]:
                # both hands are empty: the dealer deals the stock, the non-dealer first
                for player in (1 - self.dealer, self.dealer):
                    for _ in range(self._quarter):
                        card = stock.pop()
                        hands[player] |= 1 << card
                        draws.append((player, card))
        self._to_move = win
        if hands[win]:
            self._legal = hands[win]
        else:
            self._finish_deal()

    def _why_illegal(self, action: object, seat: int | None) -> str:
        if self._phase == _OVER:
            return "the match is over"
        if self._phase == _DEALING:
            return "no deal is in progress"
        mover = self._to_move
        assert mover is not None  # noqa: S101
        if seat is not None and seat != mover:
            return f"it is {PLAYERS[mover]}'s turn, not {PLAYERS[seat] if seat in (0, 1) else seat!r}'s"
        if not isinstance(action, int) or isinstance(action, bool) or not 0 <= action < NUM_CARDS:
            return f"{action!r} is not a card"
        name, card = PLAYERS[mover], card_to_str(action)
        hand = self._hands[mover]
        if not hand >> action & 1:
            return f"{name} does not hold {card}"
        lead_card = self._plays[-1]
        if hand & FOLLOW[self._trump * 4 + self._lead_keys[lead_card]]:
            lead = self._lead_keys[lead_card]
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
        s = sum(log.trick_winners)
        result = score_played_deal(self.rules, log.points, (len(log.trick_winners) - s, s),
                                   self._win_eyes, self._rout_eyes, self.eggs, first_played,
                                   (self.score[0], self.score[1]))
        log.outcome = result.outcome
        log.eyes = result.eyes
        self.eggs = 0 if result.decided else self.eggs + 1
        if result.reset is not None:
            self.score[result.reset] = 0
        for player in (0, 1):
            self.score[player] = min(WIN_SCORE, self.score[player] + result.eyes[player])
            if self.score[player] >= WIN_SCORE and self.winner is None:
                self.winner = player
        log.score_after = self.capped_score
        self.dealer = 1 - self.dealer
        self._legal = 0
        self._to_move = None
        if self.winner is not None:
            self._phase = _OVER
        else:
            self._phase = _DEALING
            if self.auto_deal:
                self.start_deal()

    def end_match(self, reason: str, player: int) -> None:
        """End the match other than by eyes: `player` loses (timeout/resign/forfeit)."""
        if reason not in ("timeout", "resign", "forfeit"):
            raise IllegalAction(f"{reason!r} is not a reason to end a match")
        if self._phase == _OVER:
            raise IllegalAction("the match is over")
        self.end = (reason, player)
        self.winner = 1 - player
        self._phase = _OVER
        self._legal = 0
        self._to_move = None

    # ------------------------------------------------------------------ what a player sees
    def observation(self, player: int) -> View:
        """What `player` may see: his hand, the trick, the trump, how many cards the stock holds."""
        legal = tuple(mask_cards(self._legal)) if self._phase == _PLAY and player == self._to_move else ()
        trick = self.trick
        trump = self._trump
        history = play_history(self._log.leader, self._plays, self._winners, (1, 0)) \
            if self._phase == _PLAY else ()
        return View(GAME, player, None, tuple(mask_cards(self._hands[player])), legal, False, trick,
                    (self.trick_leader,) if trick else (), trump, TRUMPS[trump],
                    STRENGTH[trump * 4:trump * 4 + 4], LEAD_KEY[trump], self.points,
                    self.capped_score, len(self._stock), history=history, rules=self.rules)


__all__ = ["GAME", "Bilka2DealLog", "Bilka2MatchState", "Bilka2Rules"]
