"""Listening to the tournaments: their audit rows and a tournament's status saved as finished.

The receivers run inside the change's own transaction (see ``services.events`` for why);
the deliveries they make are queued on commit.
"""

from __future__ import annotations

from django.db.models.signals import post_save

from clubs.models import AuditEntry
from tournaments.models import Tournament, TournamentStatus

from . import services


def _audit_saved(sender, instance: AuditEntry, created: bool, raw: bool = False, **kwargs) -> None:
    if created and not raw and instance.tournament_id is not None:
        services.record_audited(instance)


def _tournament_saved(sender, instance: Tournament, created: bool, raw: bool = False,
                      update_fields=None, **kwargs) -> None:
    """Only the status saved by itself, as the end of the last round saves it (``maybe_finish``)."""
    if raw or created or update_fields is None or "status" not in update_fields:
        return
    if instance.status == TournamentStatus.FINISHED:
        services.record_finished(instance)


def connect() -> None:
    post_save.connect(_audit_saved, sender=AuditEntry, dispatch_uid="bilka-webhooks-audit")
    post_save.connect(_tournament_saved, sender=Tournament, dispatch_uid="bilka-webhooks-finished")
