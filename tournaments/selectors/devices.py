"""The table device: a phone or tablet left on a hall's table, opened by the table's code.

A table's code is worked out from the site's secret (an HMAC of the tournament and the table's
number), so no row keeps it and nobody guesses it from the address of another table; it stays the
same for the whole event, and the device always shows the table's current match.
"""

from __future__ import annotations

import base64

from django.utils.crypto import constant_time_compare, salted_hmac

from ..models import Match, MatchStatus, Tournament
from .events import MATCH_RELATED, active_count

CODE_LENGTH = 10
"""Base32 letters of a table's code: 50 bits, more than anyone tries through the site."""
_SALT = "tournaments.table-device"


def device_code(*, tournament_id: int, table: int) -> str:
    """The code of table ``table`` of the tournament (lower-case base32)."""
    digest = salted_hmac(_SALT, f"{tournament_id}:{table}").digest()
    return base64.b32encode(digest).decode()[:CODE_LENGTH].lower()


def device_code_ok(*, tournament_id: int, table: int, code: str) -> bool:
    return constant_time_compare(device_code(tournament_id=tournament_id, table=table), (code or "").lower())


def device_match(*, tournament: Tournament, table: int) -> Match | None:
    """The match the device at ``table`` shows: the table's match of the latest paired round; in a
    best-of series the first game there not confirmed yet (the last one once all are). None when the
    latest round seats nobody at this table (a bye is no table)."""
    latest = tournament.rounds.order_by("-number").first()
    if latest is None:
        return None
    games = list(
        Match.objects.select_related(*MATCH_RELATED)
        .prefetch_related("deals")
        .filter(round=latest, table=table, bye=False)
        .order_by("game", "slot", "pk")
    )
    if not games:
        return None
    return next((m for m in games if m.status != MatchStatus.CONFIRMED), games[-1])


def device_tables(*, tournament: Tournament) -> list[int]:
    """The tables to print a card for: every table any round seated a match at, or before the
    first round as many as the entries fill (two pairs, or four players, a table)."""
    tables = sorted(
        set(Match.objects.filter(tournament=tournament, bye=False).values_list("table", flat=True)) - {0}
    )
    if tables:
        return tables
    per_table = 4 if tournament.is_individual else 2
    return list(range(1, active_count(tournament=tournament) // per_table + 1))
