"""Pure tournament logic: pairing, brackets, movements, standings and eye scoring over plain data.

Nothing here imports Django, the database or the network (see ARCHITECTURE.md, "Pure scoring
and pairing"): the database layer loads rows into these dataclasses, calls a function and
saves what it returns. Each function cites the rule it implements in its docstring.

- ``roundrobin``: Berger tables, single and double round robin (FIDE C.05 Annex 1).
- ``swiss``: one Swiss round — score groups, Dutch fold, no avoidable rematch, byes (FIDE C.04).
- ``matching``: the maximum-matching witness that makes "no avoidable rematch" global and fast.
- ``knockout``: seeded single-elimination brackets, third place, best-of-N series.
- ``double_elim``: double elimination, losers' bracket with crossover drops, grand final and reset.
- ``groups``: snake groups playing round robins, then a cross-over seeded playoff.
- ``seating``: individual events, one round: tables of four with new partners, byes in turn.
- ``movement``: individual events, the full movement (every two players partner once).
- ``standings``: match points for pairs and players alike, one row shape.
- ``tiebreaks``: one class per tiebreak (FIDE C.07) and the ranking they make.
- ``eyes``: final-score checks and deal-by-deal score sheets (RULES.md, "Scoring a deal").
"""
