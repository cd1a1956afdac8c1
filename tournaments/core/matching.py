"""A maximum-cardinality matching kept as a witness, to ask "can the rest still be paired?".

The Swiss pairer commits pairs one at a time. Before each one it asks whether the entries still
unpaired can all be paired without a rematch. Recomputing a matching for each question would be
far too slow at 1,000 entries, so we keep one perfect matching of the unpaired entries (the
*witness*) and repair it after each commit: removing two entries leaves at most their two
former partners unmatched, and Berge's theorem says the rest is still perfectly matchable iff
an augmenting path joins those two. Edmonds' blossom search from one of them finds such a path
or proves there is none (J. Edmonds, "Paths, trees, and flowers", 1965). On the dense
"have not met" graphs of a Swiss event the two partners are almost always compatible outright,
so a commit usually costs O(1) and a search O(n).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

_NONE = -1


class MatchingWitness:
    """A matching over vertices 0..n-1 on the graph "alive and never met"; vertices can be removed."""

    def __init__(self, played: Sequence[set[int]]) -> None:
        self.n = len(played)
        self.played = played
        self.alive = [True] * self.n
        self.mate = [_NONE] * self.n

    def compatible(self, u: int, v: int) -> bool:
        """True when u and v are distinct, both unpaired, and have not met."""
        return u != v and self.alive[u] and self.alive[v] and v not in self.played[u]

    def exposed(self) -> list[int]:
        """Alive vertices the witness leaves unmatched, in index order."""
        return [v for v in range(self.n) if self.alive[v] and self.mate[v] == _NONE]

    def maximise(self) -> None:
        """Grow the witness to a maximum matching: greedy first, then Edmonds from each exposed vertex.

        One search per exposed root suffices: a root with no augmenting path never gets one later
        (a standard property of Edmonds' algorithm), so each root is tried once.
        """
        alive = [v for v in range(self.n) if self.alive[v]]
        for i, u in enumerate(alive):
            if self.mate[u] != _NONE:
                continue
            for v in alive[i + 1 :]:
                if self.mate[v] == _NONE and v not in self.played[u]:
                    self.mate[u], self.mate[v] = v, u
                    break
        for root in self.exposed():
            if self.mate[root] == _NONE:
                self._augment(root)

    def remove(self, v: int) -> bool:
        """Remove one vertex (a bye) if a maximum matching leaving exactly it out exists.

        Assumes the witness leaves exactly one alive vertex exposed. Returns False and changes
        nothing when taking ``v`` out would cost a pair.
        """
        free = self.exposed()
        if len(free) != 1:
            raise RuntimeError("remove() needs a witness with exactly one exposed vertex")
        if free[0] == v:
            self.alive[v] = False
            return True
        partner = self.mate[v]
        self.alive[v] = False
        self.mate[v] = self.mate[partner] = _NONE
        if self._augment(partner):
            return True
        self.alive[v] = True
        self.mate[v], self.mate[partner] = partner, v
        return False

    def remove_pair(self, u: int, v: int) -> bool:
        """Commit the pair (u, v) if the other alive vertices keep a perfect matching.

        Assumes the witness is perfect on the alive vertices. Returns False and changes nothing
        when the pair would force a rematch elsewhere.
        """
        if self.mate[u] == v:
            self.alive[u] = self.alive[v] = False
            return True
        a, b = self.mate[u], self.mate[v]
        self.alive[u] = self.alive[v] = False
        self.mate[u] = self.mate[v] = self.mate[a] = self.mate[b] = _NONE
        if self.compatible(a, b):
            self.mate[a], self.mate[b] = b, a
            return True
        if self._augment(a):
            self.mate[u], self.mate[v] = v, u  # bookkeeping only: both are dead now
            return True
        self.alive[u] = self.alive[v] = True
        self.mate[u], self.mate[a] = a, u
        self.mate[v], self.mate[b] = b, v
        return False

    def _augment(self, root: int) -> bool:
        """Edmonds' search for an augmenting path from an exposed root; flips it if found."""
        n, mate, alive, played = self.n, self.mate, self.alive, self.played
        parent = [_NONE] * n
        base = list(range(n))
        outer = [False] * n
        outer[root] = True
        queue = deque([root])
        candidates = [v for v in range(n) if alive[v]]

        def lca(a: int, b: int) -> int:
            seen = [False] * n
            while True:
                a = base[a]
                seen[a] = True
                if mate[a] == _NONE:
                    break
                a = parent[mate[a]]
            while True:
                b = base[b]
                if seen[b]:
                    return b
                b = parent[mate[b]]

        def mark_path(v: int, b: int, child: int, blossom: list[bool]) -> None:
            while base[v] != b:
                blossom[base[v]] = blossom[base[mate[v]]] = True
                parent[v] = child
                child = mate[v]
                v = parent[mate[v]]

        while queue:
            v = queue.popleft()
            for to in candidates:
                if to == v or to in played[v] or base[v] == base[to] or mate[v] == to:
                    continue
                if to == root or (mate[to] != _NONE and parent[mate[to]] != _NONE):
                    current = lca(v, to)
                    blossom = [False] * n
                    mark_path(v, current, to, blossom)
                    mark_path(to, current, v, blossom)
                    for i in candidates:
                        if blossom[base[i]]:
                            base[i] = current
                            if not outer[i]:
                                outer[i] = True
                                queue.append(i)
                elif parent[to] == _NONE:
                    parent[to] = v
                    if mate[to] == _NONE:
                        while to != _NONE:
                            previous = parent[to]
                            next_to = mate[previous]
                            mate[to], mate[previous] = previous, to
                            to = next_to
                        return True
                    outer[mate[to]] = True
                    queue.append(mate[to])
        return False
