"""The players' details an organiser writes down for his event's prize categories: the year of
birth, woman or man, the city or village. Private to the event's organisers (``models.details``);
its audit row names whose details changed and which, never the values."""

from __future__ import annotations

import datetime

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from clubs.text_fields import check_name

from ..models import Gender, PlayerDetails, Tournament
from ..selectors.prizes import event_players
from .common import audit, lock_tournament, require_manager

FIELDS = ("birth_year", "gender", "city")


def _checked(player_name: str, birth_year: int | None, gender: str, city: str) -> dict:
    if birth_year is not None and not 1900 <= birth_year <= datetime.date.today().year:
        raise ValidationError(
            _("%(player)s: a year of birth is between 1900 and this year.") % {"player": player_name}
        )
    if gender and gender not in Gender.values:
        raise ValidationError(_("Unknown gender."))
    try:
        city = check_name(city or "", limit=PlayerDetails._meta.get_field("city").max_length) if city else ""
    except ValidationError as error:
        raise ValidationError([f"{player_name}: {m}" for m in error.messages]) from None
    return {"birth_year": birth_year, "gender": gender or "", "city": city}


@transaction.atomic
def save_player_details(*, actor, tournament: Tournament, details: dict) -> int:
    """Write the details of the event's players (``details``: player id -> (year, gender, city));
    players not in the event are refused. Returns how many players' details changed."""
    tournament = lock_tournament(tournament)
    require_manager(actor, tournament)
    players = {p.pk: p for p in event_players(tournament=tournament)}
    unknown = set(details) - set(players)
    if unknown:
        raise ValidationError(_("Only the players of this event have details here."))
    stored = {d.player_id: d for d in PlayerDetails.objects.filter(tournament=tournament)}
    changed: dict[str, list[str]] = {}
    for pk, (birth_year, gender, city) in details.items():
        values = _checked(players[pk].display_name, birth_year, gender, city)
        row = stored.get(pk) or PlayerDetails(tournament=tournament, player_id=pk)
        fields = [f for f in FIELDS if getattr(row, f) != values[f]]
        if not fields or (row.pk is None and not any(values.values())):
            continue
        for f in fields:
            setattr(row, f, values[f])
        row.save()
        changed[str(pk)] = fields
    if changed:
        audit(
            actor=actor,
            action="tournament.player_details",
            obj=tournament,
            tournament=tournament,
            after={"players": changed},
        )
    return len(changed)
