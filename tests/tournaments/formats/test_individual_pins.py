"""An individual event's table: its N/S partners and its E/W partners each have their own PIN, and
the partnership that reported cannot confirm with its own."""

import datetime

import pytest
from django.core.exceptions import ValidationError

from tournaments import services
from tournaments.models import MatchStatus

from ..conftest import player_with_account

pytestmark = pytest.mark.django_db


def test_the_other_partnership_confirms_with_its_own_pin(club, organiser):
    t = services.create_tournament(
        actor=organiser, club=club, name="Микс", starts_on=datetime.date(2026, 11, 7), format="ind_swiss"
    )
    for name in ("asel", "oleh", "ivan", "nurlan"):
        services.register_player(actor=organiser, tournament=t, player=player_with_account(club, name))
    table = services.pair_next_round(actor=organiser, tournament=t).matches.get(bye=False)
    assert table.home_pin and table.away_pin
    north = table.home.player_a.user
    services.enter_result(actor=north, match=table, home_eyes=12, away_eyes=6)
    table.refresh_from_db()
    assert table.reported_side == "home"
    if table.home_pin == table.away_pin:
        table.away_pin = "0000" if table.home_pin != "0000" else "1111"
        table.save(update_fields=["away_pin"])
    phone = services.PinSender(session="venue-phone", address="192.0.2.10")
    with pytest.raises(ValidationError, match="PIN of the pair that reported"):
        services.confirm_result(actor=None, match=table, pin=table.home_pin, sender=phone)
    services.confirm_result(actor=None, match=table, pin=table.away_pin, sender=phone)
    table.refresh_from_db()
    assert table.status == MatchStatus.CONFIRMED and table.confirmed_how == "pin"
