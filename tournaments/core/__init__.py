"""Pure tournament logic: pairing, brackets, standings and eye scoring over plain data.

Nothing here imports Django, the database or the network (see ARCHITECTURE.md, "Pure scoring
and pairing"): the database layer loads rows into these dataclasses, calls a function and
saves what it returns. Each function cites the rule it implements in its docstring.
"""
