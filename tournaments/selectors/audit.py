"""A tournament's audit log: its rows, and the kinds and rounds its filter offers."""

from __future__ import annotations

from clubs import selectors as club_selectors

from ..models import Tournament


def audit_log(*, tournament: Tournament, kind: str = "", round_number: int | None = None):
    return club_selectors.audit_log(tournament_id=tournament.pk, kind=kind, round_number=round_number)


def audit_filters(*, tournament: Tournament) -> tuple[list[str], list[int]]:
    return club_selectors.audit_filters(tournament_id=tournament.pk)
