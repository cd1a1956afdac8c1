"""A substitute in a fixed pair: for one round, another player plays in place of one of the pair."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from clubs.models import Player

from ..models import Entry, MatchStatus, Round, Substitution
from .common import audit, require_manager
from .entries import entry_for_update, taken_players
from .watching import bar_event_players


@transaction.atomic
def substitute(*, actor, entry: Entry, round: Round, player_out: Player, player_in: Player) -> Substitution:
    """For one round, ``player_in`` replaces ``player_out`` in the pair (recorded)."""
    entry, tournament = entry_for_update(entry)
    require_manager(actor, tournament)
    if round.tournament_id != tournament.pk:
        raise ValidationError(_("That round belongs to another tournament."))
    if player_out.pk not in (entry.player_a_id, entry.player_b_id):
        raise ValidationError(_("%(name)s does not play in this pair.") % {"name": player_out.display_name})
    if player_in.pk in taken_players(tournament):
        raise ValidationError(
            _("%(name)s is already registered in this tournament.") % {"name": player_in.display_name}
        )
    if (
        round.matches.filter(status=MatchStatus.CONFIRMED).filter(home=entry).exists()
        or round.matches.filter(status=MatchStatus.CONFIRMED, away=entry).exists()
    ):
        raise ValidationError(_("This pair's match in that round already has a confirmed result."))
    sub = Substitution.objects.create(
        entry=entry, round=round, player_out=player_out, player_in=player_in, actor=actor
    )
    audit(
        actor=actor,
        action="entry.substitute",
        obj=entry,
        tournament=tournament,
        after={"round": round.number, "out": player_out.pk, "in": player_in.pk},
    )
    if tournament.is_duplicate:  # he now plays the boards too: he may no longer watch them
        bar_event_players(tournament)
    return sub
