"""The hall on the day: the organiser's announcements to the room and the view pinned on the wall screen.

An announcement reaches everyone at once: the wall screen and the tournament page show it (their
socket hears the change, ``broadcast``), and every registered player with an account gets it as a
notice in his own language, once (the notice's key is the announcement's).
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs import text as club_text

from ..models import (
    ACTIVE_STATUSES,
    ANNOUNCEMENT_LENGTH,
    Announcement,
    HallView,
    Tournament,
)
from .common import audit, lock_tournament, require_manager
from .notices import notify


def registered_users(tournament: Tournament) -> list:
    """The accounts of the players in the event (approved or checked in, not withdrawn), each once."""
    from clubs.models import Player

    statuses = ACTIVE_STATUSES
    if tournament.is_individual:
        rows = tournament.individual_entries.filter(status__in=statuses)
        ids = set(rows.values_list("player_id", flat=True))
    else:
        ids = set()
        for a, b in tournament.entries.filter(status__in=statuses).values_list("player_a_id", "player_b_id"):
            ids |= {a, b}
    players = Player.objects.filter(pk__in=ids, user__isnull=False).select_related("user").order_by("pk")
    return [p.user for p in players]


@transaction.atomic
def post_announcement(*, actor, tournament: Tournament, text: str) -> Announcement:
    """The organiser's message to the hall; every registered player with an account is told once."""
    tournament = lock_tournament(tournament)
    require_manager(actor, tournament)
    words = club_text.line(text or "")
    if not words:
        raise ValidationError(_("Please write the announcement."))
    if len(words) > ANNOUNCEMENT_LENGTH:
        raise ValidationError(
            _("An announcement is at most %(most)d characters; this one has %(n)d.")
            % {"most": ANNOUNCEMENT_LENGTH, "n": len(words)}
        )
    note = Announcement.objects.create(tournament=tournament, text=words, author=actor)
    audit(actor=actor, action="announcement.post", obj=tournament, tournament=tournament,
          after={"announcement": note.pk, "text": words})
    url = reverse("tournaments:home", kwargs={"slug": tournament.slug})
    name = tournament.name
    for user in registered_users(tournament):
        notify(
            user,
            kind="tournament.announcement",
            text=lambda: _("From the organiser of %(tournament)s: %(text)s")
            % {"tournament": name, "text": words},
            url=url,
            key=f"announcement-{note.pk}",
        )
    return note


@transaction.atomic
def withdraw_announcement(*, actor, announcement: Announcement) -> Announcement:
    """Take a message off the wall and the tournament page (a notice already sent stays sent)."""
    tournament = lock_tournament(announcement.tournament)
    require_manager(actor, tournament)
    note = Announcement.objects.select_for_update().get(pk=announcement.pk)
    if note.withdrawn_at is None:
        note.withdrawn_at = timezone.now()
        note.save(update_fields=["withdrawn_at"])
        audit(actor=actor, action="announcement.withdraw", obj=tournament, tournament=tournament,
              before={"announcement": note.pk, "text": note.text})
    return note


@transaction.atomic
def pin_hall_view(*, actor, tournament: Tournament, view: str) -> Tournament:
    """Keep the wall screen on one view (``HallView``), or let it cycle again (``view`` empty)."""
    tournament = lock_tournament(tournament)
    require_manager(actor, tournament)
    if view and view not in HallView.values:
        raise ValidationError(_("Unknown view of the hall screen."))
    before = tournament.hall_view
    if before != view:
        tournament.hall_view = view
        tournament.save(update_fields=["hall_view"])
        audit(actor=actor, action="tournament.hall_view", obj=tournament, tournament=tournament,
              before={"hall_view": before}, after={"hall_view": view})
    return tournament
