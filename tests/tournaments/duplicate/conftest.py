"""A duplicate event with its pairs, as the duplicate tests start from."""

import datetime

import pytest

from tournaments import services
from tournaments.models import Match


def duplicate_event(club, organiser, pairs: int, *, movement="howell", boards=2, scale="points", rules=None):
    """A duplicate event of ``pairs`` pairs, not started (``rules``: the table's, default the game's)."""
    from tests.tournaments.conftest import register_pairs

    event = services.create_tournament(
        actor=organiser, club=club, name=f"Дубль {pairs} {movement}", starts_on=datetime.date(2026, 12, 6),
        format="duplicate", movement=movement, boards_per_round=boards, board_scale=scale, rules=rules or {},
    )  # fmt: skip
    register_pairs(event, organiser, pairs)
    return event


def tables(rnd):
    return list(Match.objects.filter(round=rnd, bye=False).order_by("table"))


@pytest.fixture
def four(club, organiser):
    """Four pairs, Howell-like, two boards a round: round 1 paired."""
    event = duplicate_event(club, organiser, 4)
    services.pair_next_round(actor=organiser, tournament=event)
    event.refresh_from_db()
    return event
