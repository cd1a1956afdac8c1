"""Pure tournament logic: pairing, brackets, standings and eye scoring over plain data.

Nothing here imports Django, the database or the network (see ARCHITECTURE.md, "Pure scoring
and pairing"): the database layer loads rows into these dataclasses, calls a function and
saves what it returns. Each function cites the rule it implements in its docstring.

- ``roundrobin``: Berger tables, single and double round robin (FIDE C.05 Annex 1).
- ``swiss``: one Swiss round — score groups, Dutch fold, no avoidable rematch, byes (FIDE C.04).
- ``matching``: the maximum-matching witness that makes "no avoidable rematch" global and fast.
- ``knockout``: seeded single-elimination brackets, third place, best-of-N series.
- ``standings``: match points and the configurable tiebreaks (FIDE C.07).
- ``eyes``: final-score checks and deal-by-deal score sheets (RULES.md, "Scoring a deal").
- ``individual``: individual events — movements and Swiss rounds with new partners, their standings.
- ``double_elim``: double elimination, losers' bracket with crossover drops, grand final and reset.
- ``groups``: snake groups playing round robins, then a cross-over seeded playoff.
"""
