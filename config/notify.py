"""Send a payload to every open notification socket of one user, once the transaction commits."""

import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

logger = logging.getLogger(__name__)


def user_group(user_id: int) -> str:
    """The channel-layer group every open socket of one user joins (config.consumers)."""
    return f"user-{user_id}"


def notify_user(user_id: int, payload: dict[str, Any]) -> None:
    """Queue `payload` (JSON-serialisable) for user `user_id`'s sockets on commit.

    Called from services inside their transaction: a rolled-back change never announces
    itself. Delivery is at most once (the channel layer may drop a message to a full channel),
    so payloads are hints a page can act on, never the only copy of a fact. A broken channel
    layer is logged, never raised into the request that already committed.
    """
    transaction.on_commit(lambda: _send(user_id, payload), robust=True)


def _send(user_id: int, payload: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        logger.warning("No channel layer configured; notification to user %s dropped", user_id)
        return
    async_to_sync(layer.group_send)(user_group(user_id), {"type": "notify.message", "payload": payload})
