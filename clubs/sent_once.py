"""The claim on a sent request's key, shared by the HTML forms' keys (``clubs/form_keys.py``) and the
API's ``Idempotency-Key`` (``api/idempotency.py``): the first send with a key creates its row and
runs; a copy finds the row and gets its kept answer, is refused when its fields differ, and waits
(up to ``wait_seconds``) while the first still runs. A row whose send never finished (its worker
killed) is taken over after ``stale_after``; a row deleted meanwhile (its send refused, which frees
the key) is claimed anew.

The model has the lookup's fields (with a unique constraint over them), ``fingerprint``,
``created_at`` and ``status_code`` (None until the answer is kept)."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, models, transaction
from django.utils import timezone

#: How often a copy looks again while it waits for the first send's answer.
POLL_SECONDS = 0.2
#: Claims tried before giving up on a key whose row keeps appearing and vanishing.
MAX_TRIES = 50


class Answered(Exception):  # noqa: N818 - not an error: the kept answer is sent again
    """A copy of a send already answered: ``row`` holds the answer."""

    def __init__(self, row: Any) -> None:
        self.row = row


class KeyClash(Exception):  # noqa: N818 - the callers turn it into their own refusal
    """The key is held by other fields (``reused``) or by a send still running (not ``reused``)."""

    def __init__(self, *, reused: bool) -> None:
        self.reused = reused


def claim(
    model: type[models.Model],
    *,
    lookup: dict[str, Any],
    fingerprint: str,
    stale_after: timedelta,
    wait_seconds: float = 0.0,
) -> Any:
    """The row this send now owns; raises ``Answered`` for a copy of an answered send and
    ``KeyClash`` for a clash (see the module)."""
    deadline = time.monotonic() + wait_seconds
    manager = model._default_manager
    for _try in range(MAX_TRIES):
        try:
            with transaction.atomic():
                return manager.create(**lookup, fingerprint=fingerprint)
        except IntegrityError:
            pass
        with transaction.atomic():
            row = manager.select_for_update().filter(**lookup).first()
            if row is None:
                continue  # the first send was refused meanwhile and freed its key: this one takes it
            if row.fingerprint != fingerprint:
                raise KeyClash(reused=True)
            if row.status_code is not None:
                raise Answered(row)
            if timezone.now() - row.created_at >= stale_after:
                row.created_at = timezone.now()  # its first send never finished: this one takes over
                row.save(update_fields=["created_at"])
                return row
        if time.monotonic() >= deadline:
            raise KeyClash(reused=False)
        time.sleep(POLL_SECONDS)
    raise KeyClash(reused=False)
