"""Whole-history ratings' linear algebra (``ratings.core.whole_newton``) against dense matrices.

The conjugate gradients must solve the posterior's curvature ``H = Jᵀ diag(h) J + P`` exactly as
a dense solve does, the preconditioner must be each owner's block of ``H`` (chains of days of
uneven length, laid out longest first), and the variances each block inverse's diagonal; and a
fit from ``ratings.core.whole`` must stop at the posterior's mode.
"""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.core.model import Deal, Match
from ratings.core.whole import fit_whole
from ratings.core.whole_newton import System


def _system(rng: random.Random) -> tuple[System, np.ndarray, np.ndarray, list[list[int]]]:
    """Owners with chains of 1-6 days (pair terms are chains of one), matches of 1-6 nodes, and the
    dense ``H`` with its per-match curvatures."""
    owners: list[list[int]] = []
    n = 0
    for _ in range(rng.randint(1, 7)):
        k = rng.randint(1, 6)
        owners.append(list(range(n, n + k)))
        n += k
    rng.shuffle(owners)
    prior = [0.0] * n
    chain = [0.0] * n
    pull = [1.0] * n
    for own in owners:
        prior[own[0]] = rng.uniform(1.0, 20.0)
        for a in own[:-1]:
            chain[a] = rng.uniform(0.5, 200.0)
            pull[a] = rng.uniform(0.9, 1.0)
    mnodes: list[tuple[int, ...]] = []
    msplit: list[int] = []
    for _ in range(rng.randint(0, 12)):
        # a match meets each owner at one node at most (a player plays it on one day)
        nodes = [rng.choice(own) for own in rng.sample(owners, min(len(owners), rng.randint(1, 6)))]
        mnodes.append(tuple(nodes))
        msplit.append(rng.randint(0, len(nodes)))
    h = np.array([rng.uniform(0.0, 5.0) for _ in mnodes])
    dense = np.diag(prior)
    for own in owners:
        for a, b in zip(own, own[1:], strict=False):
            w, u = chain[a], pull[a]
            dense[a, a] += w * u * u
            dense[b, b] += w
            dense[a, b] -= w * u
            dense[b, a] -= w * u
    for (nodes, cut), hm in zip(zip(mnodes, msplit, strict=True), h, strict=True):
        j = np.zeros(n)
        for i, v in enumerate(nodes):
            j[v] = 1.0 if i < cut else -1.0
        dense += hm * np.outer(j, j)
    return System(prior, chain, pull, owners, mnodes, msplit), h, dense, owners


@settings(max_examples=200, derandomize=True, database=None, deadline=None)
@given(st.randoms(use_true_random=False))
def test_the_conjugate_gradients_solve_the_curvature_as_a_dense_solve_does(rng: random.Random) -> None:
    system, h, dense, owners = _system(rng)
    g = np.array([rng.uniform(-3.0, 3.0) for _ in range(system.n)])
    v = np.array([rng.uniform(-1.0, 1.0) for _ in range(system.n)])
    assert np.allclose(system.times(v, h), dense @ v)
    step, _ = system.step(g, h, rtol=1e-12, atol=0.0)
    assert np.allclose(step, np.linalg.solve(dense, g), rtol=1e-7, atol=1e-9)
    # The preconditioner is each owner's own block of H, nothing across owners.
    blocks = np.zeros_like(dense)
    for own in owners:
        blocks[np.ix_(own, own)] = dense[np.ix_(own, own)]
    assert np.allclose(system.block_solve(system.factor(h), g), np.linalg.solve(blocks, g))


@settings(max_examples=100, derandomize=True, database=None, deadline=None)
@given(st.randoms(use_true_random=False))
def test_the_variances_are_the_diagonal_of_each_owners_block_inverse(rng: random.Random) -> None:
    system, h, dense, owners = _system(rng)
    soak = np.zeros(system.m)
    # First the others fixed (Coulom); the second round discounts each match's curvature by the
    # variance of its other terms: checked here with a dense block built from those discounts.
    first = np.zeros(system.n)
    for own in owners:
        first[own] = np.diag(np.linalg.inv(dense[np.ix_(own, own)]))
    total = np.array([sum(first[v] for v in nodes) for nodes in _nodes(system)])
    block = np.diag(system.prior + system.chain_diag)
    for a, b in zip(system.la, system.lb, strict=True):
        block[a, b] = block[b, a] = dense[a, b]
    for mi, v in zip(system.inc_m, system.inc_n, strict=True):
        block[v, v] += h[mi] / (1.0 + h[mi] * (total[mi] - first[v]))
    want = np.zeros(system.n)
    for own in owners:
        want[own] = np.diag(np.linalg.inv(block[np.ix_(own, own)]))
    assert np.allclose(system.variances(h, soak), want)


def _nodes(system: System) -> list[list[int]]:
    out: list[list[int]] = [[] for _ in range(system.m)]
    for mi, v in zip(system.inc_m.tolist(), system.inc_n.tolist(), strict=True):
        out[mi].append(v)
    return out


def test_a_fit_stops_at_the_mode_a_tighter_tolerance_finds() -> None:
    rng = random.Random(5)
    ids = [f"p{i}" for i in range(12)]
    matches = []
    for i in range(300):
        a, b, c, d = rng.sample(ids, 4)
        winner = "NS" if rng.random() < 0.5 else "EW"
        if i % 2:  # a score sheet of final scores only: the factor that is not quadratic
            eyes = (12, rng.randint(0, 11)) if winner == "NS" else (rng.randint(0, 11), 12)
            matches.append(Match((a, b), (c, d), winner, None, day=float(i // 10), eyes=eyes))
        else:
            pts = rng.randint(61, 100)
            deal = Deal(winner, points=(pts, 120 - pts) if winner == "NS" else (120 - pts, pts))
            matches.append(Match((a, b), (c, d), winner, (deal,) * 6, day=float(i // 10)))
    loose, tight = fit_whole(matches), fit_whole(matches, tol=1e-7)
    assert loose.sweeps <= 6 and loose.iterations > 0
    gap = max(abs(loose.players[p][0] - tight.players[p][0]) for p in tight.players) * 400
    assert gap < 0.01  # display points: the tolerance asked
