"""The fair-play statistic: does a seat's play fit the real hidden hands better than it fits hands
the seat could not tell from them?

For each decision of a seat (a card played where it had at least two legal cards) the solver
values every legal card on the real hands and on `samples` layouts of the hidden hands drawn by
the strong bot's sampler (`sampler.Knowledge`) from what the seat had seen (its `Observation`,
rebuilt from a record by `puzzles.observation_at`). The card's *loss* on a layout is the points
its pair gives up against the best card on that layout. A seat that cannot see the hidden cards
chooses its card from the observation alone; if the real layout is one more draw from the same
distribution as the samples, the K+1 losses are exchangeable and the real layout's rank among them
is uniform. A seat that sees the cards loses less on the real layout than on the samples: its
rank sinks.

How the decisions are combined, and why this way: each decision gives the **mid-rank** r of the
real loss among the K+1 losses (ties share the average of their ranks, 0 = the smallest loss).
Conditional on the multiset of the K+1 losses, under honesty r is the mid-rank of a uniformly
chosen member, so its mean is exactly K/2 and its variance is the variance of the multiset's
mid-ranks; the decisions are independent given what was seen, and the sum of (r - K/2) over
decisions divided by the root of the summed variances is a standard normal score Z (a
Wilcoxon-type sum of ranks with the ties correction; p is its lower tail). This is preferred to
Fisher's or Stouffer's combination of randomized ranks because most decisions carry little or no
information: where every layout gives the same loss (a card that is best everywhere, or a last
trick) a randomized rank is pure noise that Fisher or Stouffer would weigh like a telling
decision, while here such a decision has variance 0 and adds exactly nothing; a decision where
the layouts disagree a little adds a little. Fisher's method on mid-p values is not valid (mid-p
values are not uniform). The seeded randomized rank (ties broken at random) is still given per
decision, for anyone who wants a uniform per-decision value.

What the normal score assumes: that the real layout is distributed as the sampler draws, i.e.
uniformly among the layouts consistent with what was seen. Real players' cards say more than
that (a seat that follows low probably had nothing higher), so the real layout is not exactly
exchangeable with uniform draws; the calibration on honest bots (`bench/fairplay/`) measures how
much that shifts Z. The first trick is left out by default (`from_trick`): it costs nine tenths of
the solving, and its cards are chosen on almost nothing but one's own hand.

`partner_known`: the sampler also keeps the partner's real hand fixed, drawing only the
opponents'. A seat that sees its partner's cards (a partnership sharing them) is then honest, so
a player flagged by the plain test but not by this one points at shared cards, and one flagged by
both at more than that.

Everything is seeded: the same record, key and settings give the same figures.
"""

from __future__ import annotations

import hashlib
import math
import random
from dataclasses import dataclass, replace
from typing import Any

from gameplay.engine.analysis import start_position
from gameplay.engine.cards import SEATS, card_to_str
from gameplay.engine.deal_position import Position
from gameplay.engine.errors import RecordError
from gameplay.engine.observation import Observation
from gameplay.engine.puzzles import observation_at
from gameplay.engine.record import read_record
from gameplay.engine.sampler import Inconsistent, Knowledge
from gameplay.engine.solver import Solver

#: Layouts drawn per decision by default: 20 gives ranks in steps of 1/21, which is fine enough
#: for a sum over hundreds of decisions, at 21 solves a decision.
SAMPLES = 20
#: The effect margin the review flags beyond by default (`combine`): an honest bot that reads its
#: opponents perfectly (the calibration's "reader", against beginners) showed an effect of about
#: -0.2, a partner-seeing cheat -0.46, the all-seeing cheat -0.8; chosen on a short run, then checked on
#: 177 repetitions held out from it (docs/fairplay.md, "Calibration").
MARGIN = 0.25
#: Tricks before this one (counted from 0) are not reviewed by default (see the module's note).
FROM_TRICK = 1


@dataclass(frozen=True)
class Decision:
    """One reviewed card: where (deal from 1, ply = cards of the deal before it), by whom, the card,
    its loss on the real hands and on each drawn layout, the real loss's mid-rank among all of
    them (0 = smallest), its mean and variance under honesty, and a seeded randomized rank."""

    deal: int
    ply: int
    seat: str
    card: str
    real_loss: int
    sample_losses: tuple[int, ...]
    mid_rank: float
    mean: float
    variance: float
    random_rank: int

    @property
    def informative(self) -> bool:
        """The layouts disagree on the card's loss, so the decision can tell anything."""
        return self.variance > 0

    @property
    def mid_p(self) -> float:
        """The mid-p value of the real loss being this small: (mid-rank + 1/2) / (K + 1)."""
        return (self.mid_rank + 0.5) / (len(self.sample_losses) + 1)

    def weight(self, total_sd: float) -> float:
        """How much this decision pushed Z down (towards "sees the cards")."""
        return (self.mean - self.mid_rank) / total_sd if total_sd else 0.0


@dataclass(frozen=True)
class Verdict:
    """The decisions of one player combined: how many were reviewed and how many told anything,
    the normal score Z (negative: fits the real hands better than chance), its one-sided p against
    the margin asked for, the root of the summed variances (`sd`) and the sum of the decisions'
    standard deviations (`spread`)."""

    decisions: int
    informative: int
    z: float
    p: float
    sd: float
    spread: float = 0.0
    margin: float = 0.0

    @property
    def effect(self) -> float:
        """How far the real layout's ranks sat below their mean, in the decisions' own standard
        deviations (weighted by them): about 0 for a player who cannot see the cards."""
        return self.z * self.sd / self.spread if self.spread else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {"decisions": self.decisions, "informative": self.informative, "z": round(self.z, 3),
                "p": self.p, "effect": round(self.effect, 4), "sd": self.sd, "spread": self.spread,
                "margin": self.margin}


def p_with_margin(z: float, sd: float, spread: float, margin: float) -> float:
    """The one-sided p of the effect being below -`margin` (0: the plain test of honesty)."""
    shifted = z + margin * spread / sd if sd else 0.0
    return 0.5 * math.erfc(-shifted / math.sqrt(2))


def _maximises(seat: int) -> bool:
    return seat % 2 == 0  # the solver counts North-South's points


def _losses(values: dict[int, int], card: int, seat: int) -> int:
    best = max(values.values()) if _maximises(seat) else min(values.values())
    return best - values[card] if _maximises(seat) else values[card] - best


def knowledge(obs: Observation, hands: tuple[int, int, int, int] = (0, 0, 0, 0), *,
              partner_known: bool = False) -> Knowledge:
    """What the seat of `obs` knew of the hidden hands, and with `partner_known` its partner's real
    hand (`hands`, the four hands held now) besides: the sampler then draws only the opponents'."""
    k = Knowledge.of(obs)
    if not partner_known:
        return k
    partner = (k.seat + 2) % 4
    held = hands[partner] & k.unknown
    allowed = list(k.allowed)
    for s in range(4):
        if s == partner:
            allowed[s] = held & ~k.forced[s]
        elif s != k.seat:
            allowed[s] &= ~held
    return replace(k, allowed=(allowed[0], allowed[1], allowed[2], allowed[3]))


def position(obs: Observation, k: Knowledge, hands: tuple[int, int, int, int]) -> Position:
    """The solver's position at the seat's decision with `hands` as the four hands."""
    if obs.trump is None or obs.trick_leader is None:
        raise ValueError("not a seat's observation of a deal in play")
    return Position(hands, obs.trump, obs.trick_leader, obs.trick, k.unled_aces, k.points, k.next_seat)


def _mid_ranks(losses: list[int]) -> list[float]:
    ordered = sorted(losses)
    first: dict[int, int] = {}
    count: dict[int, int] = {}
    for i, loss in enumerate(ordered):
        first.setdefault(loss, i)
        count[loss] = count.get(loss, 0) + 1
    return [first[x] + (count[x] - 1) / 2 for x in losses]


def rank_decision(real_loss: int, sample_losses: list[int],
                  rng: random.Random) -> tuple[float, float, float, int]:
    """(mid-rank, its mean and variance under honesty, randomized rank) of the real loss among
    the real and the sampled losses."""
    losses = [real_loss, *sample_losses]
    ranks = _mid_ranks(losses)
    n = len(losses)
    mean = (n - 1) / 2
    variance = sum((r - mean) ** 2 for r in ranks) / n
    below = sum(1 for x in sample_losses if x < real_loss)
    ties = sum(1 for x in sample_losses if x == real_loss)
    return ranks[0], mean, variance, below + rng.randint(0, ties)


def review_decision(obs: Observation, hands: tuple[int, int, int, int], card: int, *, samples: int = SAMPLES,
                    seed: int = 0, partner_known: bool = False, deal: int = 0,
                    ply: int = 0) -> Decision | None:
    """The decision of the seat of `obs` to play `card`, `hands` being the real four hands held at
    that moment; None when the seat had fewer than two legal cards."""
    if obs.seat is None or obs.hand is None:
        raise ValueError("not a seat's observation of a deal in play")
    seat = obs.seat
    if len([c for c in obs.legal if c < 36]) < 2:
        return None
    k = knowledge(obs, hands, partner_known=partner_known)
    if hands[seat] != k.hand:
        raise ValueError("the real hands do not hold the seat's own hand")
    trump = obs.trump if obs.trump is not None else 0
    solver = Solver(trump, k.next_seat)
    real = solver.card_values(position(obs, k, hands))
    if card not in real:
        raise ValueError(f"{card_to_str(card)} is not a legal card here")
    sampler = k.sampler()
    rng = random.Random(seed)  # noqa: S311 - a reproducible draw, not a secret
    sampled = [_losses(solver.card_values(position(obs, k, sampler.draw(rng))), card, seat)
               for _ in range(samples)]
    mid, mean, variance, rand = rank_decision(_losses(real, card, seat), sampled, rng)
    return Decision(deal=deal, ply=ply, seat=SEATS[seat], card=card_to_str(card),
                    real_loss=_losses(real, card, seat), sample_losses=tuple(sampled), mid_rank=mid,
                    mean=mean, variance=variance, random_rank=rand)


def combine(decisions: list[Decision], *, margin: float = 0.0) -> Verdict:
    """Z = sum(mid-rank - mean) / sqrt(sum variance), p = P(N(0,1) <= Z); with no informative
    decision Z is 0 and p is 1.

    `margin` > 0 tests instead whether the real layout's ranks sit more than `margin` of each
    decision's standard deviation below their mean: an honest player who reads the others' play
    better than the uniform sampler does fits the real layout a little better than chance (the
    calibration's "reader" bot), and the margin keeps him from being flagged for it."""
    var = sum(d.variance for d in decisions)
    informative = sum(1 for d in decisions if d.informative)
    if var <= 0:
        return Verdict(decisions=len(decisions), informative=0, z=0.0, p=1.0, sd=0.0, margin=margin)
    sd = math.sqrt(var)
    spread = sum(math.sqrt(d.variance) for d in decisions)
    z = sum(d.mid_rank - d.mean for d in decisions) / sd
    return Verdict(decisions=len(decisions), informative=informative, z=z,
                   p=p_with_margin(z, sd, spread, margin), sd=sd, spread=spread, margin=margin)


def heaviest(decisions: list[Decision], verdict: Verdict, n: int = 5) -> list[Decision]:
    """The `n` decisions that pushed Z down the most."""
    telling = [d for d in decisions if d.mid_rank < d.mean]
    return sorted(telling, key=lambda d: -d.weight(verdict.sd))[:n]


def decision_seed(key: str, deal: int, ply: int, partner_known: bool) -> int:
    """The seed of one decision's layouts, fixed by the record's key and the position."""
    digest = hashlib.sha256(f"fairplay/{key}/{deal}/{ply}/{int(partner_known)}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def review_record(record: dict[str, Any], *, seats: str = "NESW", key: str = "", samples: int = SAMPLES,
                  partner_known: bool = False, from_trick: int = FROM_TRICK) -> list[Decision]:
    """Every decision of `seats` in a bilka-record/1 record, from trick `from_trick` (from 0) on;
    redealt deals have none. `key` (e.g. the record's hash) seeds the layouts."""
    for s in seats:
        if s not in SEATS:
            raise RecordError(f"{s!r} is not a seat: one of N, E, S, W")
    state = read_record(record)
    out = []
    for number, log in enumerate(state.deals, start=1):
        if log.redeal is not None:
            continue
        pos = start_position(state.rules, log)
        for ply, card in enumerate(log.plays):
            seat = pos.to_move
            if ply >= 4 * from_trick and SEATS[seat] in seats:
                obs = observation_at(record, number, ply)
                try:
                    d = review_decision(obs, pos.hands, card, samples=samples,
                                        seed=decision_seed(key, number, ply, partner_known),
                                        partner_known=partner_known, deal=number, ply=ply)
                except Inconsistent:
                    d = None  # cannot come from a real table: nothing to compare
                if d is not None:
                    out.append(d)
            pos = pos.play(card)
    return out


__all__ = ["FROM_TRICK", "MARGIN", "SAMPLES", "Decision", "Verdict", "combine", "decision_seed", "heaviest",
           "knowledge", "p_with_margin", "position", "rank_decision", "review_decision", "review_record"]
