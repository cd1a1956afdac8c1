"""`MatchState`, the match as callers hold it: its deals' play, early end, penalties and views.

The play of its deals is `state.py`; this adds what comes from outside the cards (an early end,
an organiser's penalty, a duplicate event's boards) and what each viewer may see. The play of the
deals knows nothing of observations; this class is where a state meets them, so
`state.observation(seat)` reads as it always has while `state.py` imports neither.
"""

from __future__ import annotations

import random
from typing import Final

from gameplay.engine.boards import BoardSet
from gameplay.engine.cards import PASS, REDEAL
from gameplay.engine.errors import IllegalAction
from gameplay.engine.observation import Observation, observe, observe_spectator
from gameplay.engine.rules import Rules
from gameplay.engine.scoring import WIN_SCORE
from gameplay.engine.shuffle import Shuffle
from gameplay.engine.state import MATCH_STATE_SLOTS, BaseMatchState, Phase

END_REASONS: Final = ("timeout", "resign", "forfeit")


class MatchState(BaseMatchState):
    """A match from its first deal to its winner, however it ends (see `BaseMatchState`).

    With `boards` (`boards.BoardSet`, a duplicate event's table) deal k is the set's k-th board with
    that board's dealer, there is no redeal, and the match is over after the last board whatever
    the eyes: 12 eyes decide nothing and `winner` stays None (an `end_match` still ends it)."""

    __slots__ = ("boards",)

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
        boards: BoardSet | None = None,
    ) -> None:
        self.boards = boards
        if boards is not None:
            first_dealer = boards.dealer(1)
        super().__init__(rules, seed=seed, rng=rng, first_dealer=first_dealer, auto_deal=auto_deal,
                         players=players, shuffle=shuffle)

    # ------------------------------------------------------------------ a duplicate event's boards
    def start_deal(self, hands: tuple[int, int, int, int] | list[int] | None = None) -> None:
        boards = self.boards
        if boards is not None:
            self._redeal_rules = False  # a board is never redealt
            if hands is None and self.phase == Phase.DEALING:
                hands = boards.hands(len(self.deals) + 1)
        super().start_deal(hands)

    def _after_deal(self) -> None:
        boards = self.boards
        if boards is not None and self.winner is None:
            played = len(self.deals)
            if played >= len(boards.numbers):
                self._stop()  # the set's last board: the table is over
                return
            self.dealer = boards.dealer(played + 1)  # each board has its own dealer
        super()._after_deal()

    def _add_eyes(self, eyes: list[int]) -> None:
        if self.boards is None:
            super()._add_eyes(eyes)
            return
        for pair in (0, 1):  # counted for the table's display; eyes decide nothing in a board set
            self.score[pair] = min(WIN_SCORE, self.score[pair] + eyes[pair])

    # ------------------------------------------------------------------ ending and penalties
    def end_match(self, reason: str, seat: int) -> None:
        """End the match other than by eyes: the pair of `seat` loses (timeout/resign/forfeit)."""
        if reason not in END_REASONS:
            raise IllegalAction(f"{reason!r} is not a reason to end a match ({', '.join(END_REASONS)})")
        if not 0 <= seat < 4:
            raise IllegalAction(f"{seat!r} is not a seat")
        if self.phase == Phase.OVER:
            raise IllegalAction("the match is over")
        self.end = (reason, seat)
        self.winner = 1 - (seat & 1)
        self._stop()

    def add_penalty(self, pair: int, eyes: int, reason: str) -> None:
        """An organiser's penalty: `eyes` to `pair` (the opponents of the side at fault).

        Entered between deals: allowed while no card of the current deal has been played; it
        counts as entered after the last finished deal, and it may decide the match.
        """
        if self.phase == Phase.OVER:
            raise IllegalAction("the match is over")
        if pair not in (0, 1) or isinstance(eyes, bool) or not isinstance(eyes, int) or eyes < 1:
            raise IllegalAction("a penalty is a positive number of eyes to NS or EW")
        cur = self.current_deal
        if cur is not None and cur.plays:
            raise IllegalAction("a penalty is entered between deals, not during one")
        after = self.deals_finished
        if after < 1:
            raise IllegalAction("a penalty is entered after a deal")
        self.penalties.append((after, pair, eyes, reason))
        gained = [0, 0]
        gained[pair] = eyes
        self._add_eyes(gained)
        self.deals[after - 1].score_after = self.capped_score
        if self.winner is not None:
            if cur is not None:
                # The next deal, dealt but not played, never happened: become exactly the
                # state that replaying the record up to this penalty gives (a rare path).
                self.deals.pop()
                self._become_replay()
            self._stop()

    def _become_replay(self) -> None:
        """Become exactly the state that replaying the deals and penalties so far gives (as
        `record.read_record` replays a record: hands as dealt, passes, redeals, cards)."""
        deals, rng, auto_deal = self.deals, self.rng, self.auto_deal
        replayed = type(self)(self.rules, rng=rng, first_dealer=deals[0].dealer, auto_deal=False,
                              players=self.players, shuffle=self.shuffle,
                              boards=self.boards)
        for number, log in enumerate(deals, start=1):
            replayed.start_deal(log.hands)
            if log.redeal is not None:
                replayed.apply(REDEAL, log.redeal)
            else:
                for seat in log.passed:
                    if replayed.phase == Phase.REDEAL:
                        replayed.apply(PASS, seat)
            for card in log.plays:
                if replayed.phase == Phase.REDEAL:
                    replayed.end_redeal_phase()
                replayed.apply(card)
            for after, pair, eyes, reason in self.penalties:
                if after == number:
                    replayed.add_penalty(pair, eyes, reason)
        for slot in MATCH_STATE_SLOTS:
            setattr(self, slot, getattr(replayed, slot))
        self.rng, self.auto_deal = rng, auto_deal

    # ------------------------------------------------------------------ views for viewers
    def observation(self, seat: int) -> Observation:
        """What `seat` may see (see `observation.py`)."""
        return observe(self, seat)

    def spectator_observation(self) -> Observation:
        """What a spectator may see: everything public, no hand."""
        return observe_spectator(self)
