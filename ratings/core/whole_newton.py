"""The linear algebra of whole-history ratings (``ratings.core.whole``): one Newton step on every
strength at once, solved by conjugate gradients, and each strength's variance.

The posterior's curvature is ``H = Jᵀ diag(h) J + P``: ``J`` says which strengths (player-days,
pair terms) a match's ``d`` adds (+1, NS) and subtracts (−1, EW), ``h`` is each match's curvature,
``P`` the priors: each owner's first day (or pair term), and the Ornstein-Uhlenbeck steps between
his days, which make ``P`` tridiagonal within an owner. A Newton step solves ``H s = g``.

Coulom (2008, section 3.2) solves it one owner at a time, the others fixed (block Gauss-Seidel
sweeps, each owner's block tridiagonal); this house did so until 2026-12-08, and at a million
matches the sweeps to converge (about 40) were the cost. Here the whole system is solved by
conjugate gradients (Hestenes and Stiefel 1952; Shewchuk, "An Introduction to the Conjugate
Gradient Method Without the Agonizing Pain", 1994, section B3) preconditioned with those same
blocks, each owner's own tridiagonal part of ``H`` (block Jacobi): the preconditioner is what one
sweep solved, and CG combines the sweeps' directions instead of taking them in turn. It takes
40–70 iterations a fit, and three or four Newton steps (the factors that are not quadratic are
relinearised between them).

The blocks are solved all at once with numpy (the Thomas algorithm): owners are laid out longest
chain first and day by day ("position-major"), so the k-th days of every owner who has k of them
are one contiguous slice, and a step of the recursion is a vector operation over them.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

Vec = npt.NDArray[np.float64]
Idx = npt.NDArray[np.int64]


def _sums(index: Idx, weights: Vec, minlength: int) -> Vec:
    """``weights`` summed by ``index`` (``np.bincount``, whose stubs say it counts integers)."""
    return np.bincount(index, weights=weights, minlength=minlength).astype(np.float64, copy=False)


class System:
    """The shape of ``H``: who is in which match, each owner's chain of days, and their priors."""

    def __init__(
        self,
        prior: list[float],
        chain: list[float],
        pull: list[float],
        owner_nodes: list[list[int]],
        mnodes: list[tuple[int, ...]],
        msplit: list[int],
    ) -> None:
        """``prior[n]``: 1/variance of node n's own prior (0 but on an owner's first node);
        ``chain[n]``, ``pull[n]``: the step from node n to its owner's next, ``x' = pull x +
        noise`` of variance 1/chain; ``mnodes[m]``: match m's nodes, NS's first (``msplit[m]`` of them)."""
        self.n = n = len(prior)
        self.m = len(mnodes)
        sizes = [len(ns) for ns in mnodes]
        self.inc_m: Idx = np.repeat(np.arange(self.m, dtype=np.int64), sizes)
        self.inc_n: Idx = np.fromiter((v for ns in mnodes for v in ns), dtype=np.int64, count=sum(sizes))
        signs = (
            1.0 if j < cut else -1.0 for ns, cut in zip(mnodes, msplit, strict=True) for j in range(len(ns))
        )
        self.inc_s: Vec = np.fromiter(signs, dtype=np.float64, count=sum(sizes))
        self.prior: Vec = np.asarray(prior, dtype=np.float64)
        links = [(own[k], own[k + 1]) for own in owner_nodes for k in range(len(own) - 1)]
        self.la: Idx = np.fromiter((a for a, _ in links), dtype=np.int64, count=len(links))
        self.lb: Idx = np.fromiter((b for _, b in links), dtype=np.int64, count=len(links))
        chain_a = np.asarray(chain, dtype=np.float64)
        pull_a = np.asarray(pull, dtype=np.float64)
        self.wl: Vec = chain_a[self.la]
        self.ul: Vec = pull_a[self.la]
        # The chains' own curvature on the diagonal: w u² for the node a step leaves, w for the next.
        self.chain_diag: Vec = _sums(self.la, weights=self.wl * self.ul**2, minlength=n) + _sums(
            self.lb, weights=self.wl, minlength=n
        )
        # Position-major layout: slot offsets[k] + rank holds the k-th node of the rank-th longest owner.
        order = sorted(range(len(owner_nodes)), key=lambda i: -len(owner_nodes[i]))
        longest = len(owner_nodes[order[0]]) if order else 0
        counts = np.zeros(longest, dtype=np.int64)
        lengths = np.fromiter((len(owner_nodes[i]) for i in order), dtype=np.int64, count=len(order))
        for k in range(longest):
            counts[k] = int(np.searchsorted(-lengths, -k, side="left"))  # owners with more than k nodes
        self.counts = counts.tolist()
        self.offsets = offsets = [0, *np.cumsum(counts).tolist()]
        # Each link of the recursions: the slots of day k - 1 whose owners have a day k, and those.
        self.links = [
            (slice(offsets[k - 1], offsets[k - 1] + c), slice(offsets[k], offsets[k] + c))
            for k, c in enumerate(self.counts[1:], start=1)
        ]
        perm = np.empty(n, dtype=np.int64)
        for rank, i in enumerate(order):
            own = owner_nodes[i]
            perm[[self.offsets[k] + rank for k in range(len(own))]] = own
        self.perm: Idx = perm
        # Below the diagonal in the layout: between slot (k, rank) and (k + 1, rank), −w u of the first.
        self.off: Vec = -(chain_a * pull_a)[perm]

    def d_of(self, x: Vec) -> Vec:
        """Each match's ``d`` (NS's strengths less EW's) at strengths ``x``."""
        return _sums(self.inc_m, weights=self.inc_s * x[self.inc_n], minlength=self.m)

    def spread(self, per_match: Vec) -> Vec:
        """``Jᵀ v``: each node's signed sum of ``per_match`` over its matches."""
        return _sums(self.inc_n, weights=self.inc_s * per_match[self.inc_m], minlength=self.n)

    def prior_gradient(self, x: Vec) -> Vec:
        """The gradient of the priors' cost (``P x``)."""
        e = self.wl * (x[self.lb] - self.ul * x[self.la])
        return (
            self.prior * x
            + _sums(self.la, weights=-self.ul * e, minlength=self.n)
            + _sums(self.lb, weights=e, minlength=self.n)
        )

    def times(self, v: Vec, h: Vec) -> Vec:
        """``H v`` for match curvatures ``h``."""
        return self.spread(h * self.d_of(v)) + self.prior_gradient(v)

    def diagonal(self, h: Vec, per_incidence: Vec | None = None) -> Vec:
        """The diagonal of ``H``; ``per_incidence``: each (match, node) pair's own curvature, in
        place of its match's."""
        own = h[self.inc_m] if per_incidence is None else per_incidence
        return _sums(self.inc_n, weights=own, minlength=self.n) + self.prior + self.chain_diag

    def factor(self, h: Vec) -> tuple[Vec, Vec]:
        """The Thomas algorithm's pivots and ratios for each owner's block of ``H``, in the layout."""
        a = self.diagonal(h)[self.perm]
        piv = a.copy()
        ratio = np.zeros(self.n)
        off = self.off
        for prev, cur in self.links:
            ratio[prev] = off[prev] / piv[prev]
            piv[cur] = a[cur] - off[prev] * ratio[prev]
        return piv, ratio

    def block_solve(self, fac: tuple[Vec, Vec], g: Vec) -> Vec:
        """Each owner's block of ``H`` solved for ``g`` (the preconditioner)."""
        piv, ratio = fac
        if not self.counts:
            return np.zeros(self.n)
        off, first = self.off, self.offsets[1]
        z = g[self.perm]
        z[:first] /= piv[:first]
        for prev, cur in self.links:
            z[cur] = (z[cur] - off[prev] * z[prev]) / piv[cur]
        for prev, cur in reversed(self.links):
            z[prev] -= ratio[prev] * z[cur]
        out = np.empty(self.n)
        out[self.perm] = z
        return out

    def step(self, g: Vec, h: Vec, rtol: float, atol: float, limit: int = 1000) -> tuple[Vec, int]:
        """The Newton step ``H⁻¹ g`` by preconditioned conjugate gradients, until the preconditioned
        residual's norm is below ``rtol`` times its first or below ``atol``; returns it and the
        iterations taken."""
        fac = self.factor(h)
        s = np.zeros(self.n)
        res = g.copy()
        z = self.block_solve(fac, res)
        p = z.copy()
        rz = float(res @ z)
        enough = max(atol, rtol * math.sqrt(max(rz, 0.0)))
        it = 0
        while it < limit and math.sqrt(max(rz, 0.0)) > enough:
            it += 1
            q = self.times(p, h)
            alpha = rz / float(p @ q)
            s += alpha * p
            res -= alpha * q
            z = self.block_solve(fac, res)
            rz_new = float(res @ z)
            p = z + (rz_new / rz) * p
            rz = rz_new
        return s, it

    def variances(self, h: Vec, soak: Vec) -> Vec:
        """Each node's variance: the diagonal of its owner's block inverse, twice: first with the
        others fixed (Coulom), then with each match's curvature ``h`` discounted to ``h / (1 + h v)``
        by the variance ``v`` of the match's other terms (and its pair terms integrated out, ``soak``)."""
        per: Vec | None = None
        off2 = self.off**2
        for rnd in range(2):
            a = self.diagonal(h, per)[self.perm]
            fwd, bwd = a.copy(), a.copy()
            for prev, cur in self.links:
                fwd[cur] = a[cur] - off2[prev] / fwd[prev]
            for prev, cur in reversed(self.links):
                bwd[prev] = a[prev] - off2[prev] / bwd[cur]
            var = np.empty(self.n)
            var[self.perm] = 1.0 / np.maximum(fwd + bwd - a, 1e-12)
            if rnd == 0:
                total = _sums(self.inc_m, weights=var[self.inc_n], minlength=self.m) + soak
                hm = h[self.inc_m]
                per = hm / (1.0 + hm * (total[self.inc_m] - var[self.inc_n]))
        return var
