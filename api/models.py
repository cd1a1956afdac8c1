"""What the API keeps of its own: the answers to writes sent with an ``Idempotency-Key``."""

from __future__ import annotations

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.utils import timezone


class IdempotentRequest(models.Model):
    """One write sent with an ``Idempotency-Key``: while it runs (``status_code`` empty) a second
    copy is refused, and once it has succeeded a retry gets the same answer instead of doing the
    write again: a client whose connection dropped after "pair the next round" retries and never
    pairs two rounds. Only successful answers are kept; a refused write may be sent again."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=200)
    fingerprint = models.CharField(max_length=64, help_text="SHA-256 of the method, the path and the body")
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    body = models.JSONField(null=True, blank=True, encoder=DjangoJSONEncoder)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="api_idempotent_user_key")]
        indexes = [models.Index(fields=["created_at"], name="api_idempotent_created")]

    def __str__(self) -> str:
        return f"{self.key} ({self.status_code or 'running'})"
