"""Swiss pairing for pairs-entries: score groups, top half against bottom half, no avoidable rematch."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from tournaments.core.ids import EntryId
from tournaments.core.matching import MatchingWitness

SEARCH_BUDGET = 20_000
"""Backtracking steps allowed per score group before we settle for Edmonds' matching (see _pair_bracket)."""

BYE_CANDIDATES_WHEN_STUCK = 32
"""How many bye candidates we compare when rematches cannot be avoided at all (tiny fields only)."""


@dataclass(frozen=True)
class SwissEntry:
    """An entry as the pairer sees it. Withdrawn entries are left out by the caller.

    ``seed`` orders entries within a score group: 1 is the strongest (by rating where known,
    else the organiser's order). ``opponents`` may name entries that have since withdrawn.
    """

    id: EntryId
    score: int | Fraction
    """Match points: whole, or an exact fraction after a half-point bye."""
    seed: int
    opponents: frozenset[EntryId] = field(default_factory=frozenset)
    had_bye: bool = False


@dataclass(frozen=True)
class SwissPairing:
    """A round's pairings in board order, (higher placed, lower placed), and the bye if any.

    ``rematches`` counts pairs that met before; it is 0 unless every possible pairing has one.
    """

    pairs: tuple[tuple[EntryId, EntryId], ...]
    bye: EntryId | None
    rematches: int


def placement_order(entries: Sequence[SwissEntry]) -> list[SwissEntry]:
    """Entries from first to last place for pairing: by score (descending), then by seed.

    Rule: FIDE C.04.1 (basic rules of Swiss systems) and the Dutch system C.04.3 A.2 order players
    by score, then by pairing number. We keep the seed rather than the current tiebreaks so that a
    pairing does not change when a tiebreak formula is configured differently.
    """
    return sorted(entries, key=lambda e: (-e.score, e.seed, e.id))


def pair_swiss_round(entries: Sequence[SwissEntry]) -> SwissPairing:
    """Pair one Swiss round.

    Rules, in order of priority (FIDE C.04.1 basic rules and the Dutch system C.04.3, simplified
    for entries without colours — in Bilka neither pair has an advantage of the first move):

    1. **No rematch while one can be avoided** (C.04.1 b; Dutch absolute criterion C1). This is
       global, not per group: we keep a perfect matching of the still unpaired entries on the
       "have not met" graph (``MatchingWitness``) and commit a pair only if the rest can still be
       completed without a rematch. If no rematch-free pairing exists at all, the number of
       rematches is the minimum possible (the deficiency of a maximum matching), and only the
       entries left over by that maximum matching replay each other.
    2. **The bye goes to the lowest-placed entry that has had none** (C.04.1 c: "a player who
       has already received a pairing-allocated bye shall not receive it again"; Dutch C2 and the
       lowest-scored choice). If giving it to every entry without a bye forces a rematch, the
       bye goes to the lowest-placed entry whose bye leaves a rematch-free round — our decision:
       a second bye is a smaller harm than a rematch. If all entries had a bye, the
       lowest-placed one gets it.
    3. **Score groups** (C.04.1 d, "players with equal scores are paired if possible"): groups
       are paired from the top. A group that is odd, or that cannot be paired completely without
       rematch (or without blocking the rest), sends its lowest-placed unpaired entries down as
       floaters to the next group (C.04.3: the maximum number of pairs in each bracket, the
       downfloaters chosen from the bottom).
    4. **Within a group: top half against bottom half** (Dutch system: S1 against S2, 1 v 5,
       2 v 6, ... in a group of eight), with the S2 partner shifted down, then up, when the natural
       one is a rematch; floaters from above meet the highest-placed residents first (Dutch
       heterogeneous bracket). We chose the Dutch fold over "adjacent by rank" (1 v 2, 3 v 4)
       so that the two strongest entries of a group do not meet in the early rounds.
    """
    by_id: dict[EntryId, SwissEntry] = {}
    for entry in entries:
        if entry.id in by_id:
            raise ValueError(f"entry {entry.id} is listed twice")
        if entry.id in entry.opponents:
            raise ValueError(f"entry {entry.id} is listed as its own opponent")
        by_id[entry.id] = entry
    order = placement_order(entries)
    n = len(order)
    index = {e.id: i for i, e in enumerate(order)}
    played: list[set[int]] = [{index[o] for o in e.opponents if o in index} for e in order]
    for i, opponents in enumerate(played):  # a history known to one side only still counts
        for j in opponents:
            played[j].add(i)

    witness = MatchingWitness(played)
    witness.maximise()
    bye = _choose_bye(order, played, witness) if n % 2 else None
    if bye is not None and witness.alive[bye]:
        witness = _witness_without(played, bye)
    pairs: list[tuple[int, int]] = []
    rematches = 0
    leftovers = witness.exposed()
    for i in range(0, len(leftovers) - 1, 2):  # only when rematches are unavoidable
        u, v = leftovers[i], leftovers[i + 1]
        witness.alive[u] = witness.alive[v] = False
        pairs.append((u, v))
        rematches += 1

    floaters: list[int] = []
    groups = _score_groups(order, witness.alive)
    for g, residents in enumerate(groups):
        last = g == len(groups) - 1
        floaters = _pair_bracket(floaters, residents, witness, pairs, last=last)
    if floaters:  # cannot happen: the witness guarantees the last bracket pairs completely
        raise AssertionError(f"unpaired entries left: {floaters}")

    pairs.sort(key=min)
    return SwissPairing(
        pairs=tuple((order[min(p)].id, order[max(p)].id) for p in pairs),
        bye=order[bye].id if bye is not None else None,
        rematches=rematches,
    )


def _score_groups(order: Sequence[SwissEntry], alive: Sequence[bool]) -> list[list[int]]:
    """Indices of the still unpaired entries, split into runs of equal score."""
    groups: list[list[int]] = []
    previous: int | Fraction | None = None
    for i, entry in enumerate(order):
        if not alive[i]:
            continue
        if entry.score != previous:
            groups.append([])
            previous = entry.score
        groups[-1].append(i)
    return groups


def _bye_candidates(order: Sequence[SwissEntry]) -> list[int]:
    """Bye candidates by priority: no bye yet from the bottom up, then the others from the bottom up."""
    bottom_up = list(range(len(order) - 1, -1, -1))
    return [i for i in bottom_up if not order[i].had_bye] + [i for i in bottom_up if order[i].had_bye]


def _witness_without(played: Sequence[set[int]], removed: int) -> MatchingWitness:
    """A fresh maximum-matching witness over everyone but ``removed``."""
    witness = MatchingWitness(played)
    witness.alive[removed] = False
    witness.maximise()
    return witness


def _choose_bye(order: Sequence[SwissEntry], played: Sequence[set[int]], witness: MatchingWitness) -> int:
    """The bye by the priorities of ``pair_swiss_round`` rule 2; removes it from ``witness`` when it can."""
    candidates = _bye_candidates(order)
    if len(witness.exposed()) == 1:
        for c in candidates:
            if witness.remove(c):
                return c
        raise AssertionError("a maximum matching leaves some vertex exposed")  # pragma: no cover
    # Rematches are unavoidable: pick the candidate whose bye leaves the fewest.
    best, best_left = candidates[0], len(order) + 1
    for c in candidates[:BYE_CANDIDATES_WHEN_STUCK]:
        left = len(_witness_without(played, c).exposed())
        if left < best_left:
            best, best_left = c, left
    return best


def _pair_bracket(
    floaters: list[int],
    residents: list[int],
    witness: MatchingWitness,
    pairs: list[tuple[int, int]],
    *,
    last: bool,
) -> list[int]:
    """Pair one bracket (floaters from above, then a score group); return who floats further down.

    The bracket's own best pairing is found by ``_search_bracket`` (most pairs, then the Dutch
    preference order); each of its pairs is then committed through the witness. A pair the witness
    refuses (it would force a rematch lower down) is forbidden and the rest of the bracket is
    searched again.
    """
    members = floaters + residents
    from_above = set(floaters)
    forbidden: set[tuple[int, int]] = set()
    while True:
        count_floaters = sum(1 for m in members if m in from_above)

        def ok(u: int, v: int) -> bool:
            return witness.compatible(u, v) and (min(u, v), max(u, v)) not in forbidden

        plan = _best_bracket_pairing(members, count_floaters, ok, perfect=last)
        refused = False
        for u, v in plan:
            if witness.remove_pair(u, v):
                pairs.append((u, v))
            else:
                forbidden.add((min(u, v), max(u, v)))
                refused = True
                break
        members = [m for m in members if witness.alive[m]]
        if not refused:
            return members


def _best_bracket_pairing(
    members: list[int], count_floaters: int, ok: Callable[[int, int], bool], *, perfect: bool
) -> list[tuple[int, int]]:
    """The pairing of a bracket with the most pairs, preferring the Dutch order (see ``_candidates``).

    Backtracking over the members in placement order finds it quickly in practice; a step budget
    bounds the worst case, after which Edmonds' maximum matching of the bracket gives a pairing
    with the same number of pairs, in a less preferred arrangement.
    """
    m = len(members)
    target = m // 2
    found = _search_bracket(members, count_floaters, ok, target)
    if found is not None:
        return found
    local = MatchingWitness([{j for j in range(m) if not ok(members[i], members[j])} for i in range(m)])
    local.maximise()
    size = sum(1 for i in range(m) if local.mate[i] != -1) // 2
    if size < target and not perfect:
        found = _search_bracket(members, count_floaters, ok, size)
        if found is not None:
            return found
    return [(members[i], members[local.mate[i]]) for i in range(m) if i < local.mate[i]]


def _candidates(position: int, m: int, count_floaters: int) -> list[int]:
    """Partners for the member at ``position``, most preferred first (all later positions).

    Floaters (positions below ``count_floaters``) prefer the highest residents. The residents
    below those the floaters are expected to take form the homogeneous part, split into S1 and
    S2: S1[i] prefers S2[i], then S2[i+1], ..., then S2 above i, then S1 members below it. Anyone
    else prefers the next one down. Every later position is listed, so the search is complete.
    """
    if position < count_floaters:
        return list(range(count_floaters, m)) + list(range(position + 1, count_floaters))
    start = min(2 * count_floaters, m)
    i = position - start
    half = (m - start) // 2
    if 0 <= i < half:
        s2 = list(range(start + half, m))
        shift = i % len(s2)
        return s2[shift:] + s2[:shift] + list(range(position + 1, start + half))
    return list(range(position + 1, m))


def _search_bracket(
    members: list[int], count_floaters: int, ok: Callable[[int, int], bool], target: int
) -> list[tuple[int, int]] | None:
    """Depth-first search for ``target`` pairs in preference order, within ``SEARCH_BUDGET`` steps.

    The first unassigned member (in placement order) takes its most preferred free partner;
    leaving it unpaired (a floater) is its last option, allowed only while the target can still
    be met. So the first solution found keeps the higher-placed entries paired and floats the
    lowest ones, as the Dutch system asks.
    """
    m = len(members)
    max_floats = m - 2 * target
    if max_floats < 0:
        return None
    partner = [-1] * m  # -1 free, -2 floats, else the partner's position
    floats = 0
    prefs: dict[int, list[int]] = {}
    stack: list[list[int]] = []  # frames [position, next option, chosen]
    steps = 0

    def advance(frame: list[int]) -> bool:
        nonlocal floats
        v, k, chosen = frame
        if chosen >= 0:
            partner[v] = partner[chosen] = -1
        elif chosen == -2:
            partner[v] = -1
            floats -= 1
        options = prefs.get(v)
        if options is None:
            options = prefs[v] = _candidates(v, m, count_floaters)
        while k < len(options):
            c = options[k]
            k += 1
            if partner[c] == -1 and ok(members[v], members[c]):
                partner[v], partner[c] = c, v
                frame[1], frame[2] = k, c
                return True
        if k == len(options) and floats < max_floats:
            partner[v] = -2
            floats += 1
            frame[1], frame[2] = k + 1, -2
            return True
        frame[1], frame[2] = k + 1, -1
        return False

    position = 0
    while True:
        while position < m and partner[position] != -1:
            position += 1
        if position == m:
            return [(members[v], members[partner[v]]) for v in range(m) if partner[v] > v]
        stack.append([position, 0, -1])
        while not advance(stack[-1]):
            stack.pop()
            steps += 1
            if not stack or steps > SEARCH_BUDGET:
                return None
        position = stack[-1][0] + 1
