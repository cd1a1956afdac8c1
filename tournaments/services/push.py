"""Notices on the players' phones by Web Push: a phone's subscription kept, and each stored notice sent to it.

A phone asks for notices from its user's notices page (``static/js/push.js``); the browser's push
service gives it an address (``endpoint``) and the keys a push is encrypted to. Each stored notice
is then sent from a worker (``tasks.push_notice``, queued on commit by ``notices.notify``), signed
with the site's VAPID key (``config.webpush``) and encrypted (aes128gcm) so that the push service
reads nothing. A push service that answers 404 or 410 has forgotten the phone: the row goes.
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
from urllib.parse import urlsplit

import requests
from django.core.exceptions import ValidationError
from django.db import transaction
from django.templatetags.static import static
from django.utils import translation
from django.utils.translation import gettext as _
from pywebpush import WebPushException, webpush

from config.webpush import vapid_keys

from ..models import Notification, PushSubscription

log = logging.getLogger(__name__)

#: How long a push service keeps a notice for a phone that is off (seconds): a round's table is
#: no news a day later.
PUSH_TTL = 6 * 60 * 60
PUSH_TIMEOUT = 10  # seconds a push service has to answer
GONE = (404, 410)  # the push service no longer knows the subscription


def _key_bytes(value: str) -> bytes:
    value = str(value or "").strip()
    try:
        return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        return b""


@transaction.atomic
def subscribe_phone(*, user, endpoint: str, p256dh: str, auth: str) -> PushSubscription:
    """Keep a phone's subscription for ``user`` (the same phone signing in as someone else moves to
    him). Refused with a clear reason when the browser sent something that is not a subscription."""
    if not user.is_authenticated:
        raise ValidationError(_("Sign in to get notices on this phone."))
    endpoint = str(endpoint or "").strip()
    parts = urlsplit(endpoint)
    if parts.scheme != "https" or not parts.netloc or len(endpoint) > 1000:
        raise ValidationError(_("This browser gave no address for notices; try another browser."))
    key, secret = _key_bytes(p256dh), _key_bytes(auth)
    if len(key) != 65 or key[0] != 4 or len(secret) != 16:
        raise ValidationError(_("This browser gave keys for notices we cannot use; try another browser."))
    phone, _created = PushSubscription.objects.update_or_create(
        endpoint=endpoint,
        defaults={"user": user, "p256dh": p256dh.strip(), "auth": auth.strip(), "last_error": ""},
    )
    return phone


@transaction.atomic
def forget_phone(*, user, endpoint: str) -> int:
    """The phone no longer wants notices (only its own user can say so). Returns how many rows went."""
    deleted, _rows = PushSubscription.objects.filter(user=user, endpoint=str(endpoint or "").strip()).delete()
    return deleted


def push_payload(note: Notification) -> str:
    """What the service worker shows (``static/sw.js``): title (the site's name, in the reader's
    language, when the notice has none), text, the page to open and the site's icon."""
    with translation.override(getattr(note.user, "language", "") or translation.get_language()):
        title = note.title or _("Bilka")
    return json.dumps(
        {
            "title": title,
            "body": note.text,
            "url": note.url,
            "tag": f"notice-{note.pk}",
            "icon": static("favicon.svg"),
        }
    )


def _push_one(phone: PushSubscription, data: str, topic: str, keys) -> bool:
    """Send to one phone; True when the push service took it. Its refusal is kept on the row, and
    a phone it no longer knows is deleted."""
    info = {"endpoint": phone.endpoint, "keys": {"p256dh": phone.p256dh, "auth": phone.auth}}
    try:
        webpush(
            info,
            data=data,
            vapid_private_key=keys.vapid,
            vapid_claims={"sub": keys.subject},
            ttl=PUSH_TTL,
            timeout=PUSH_TIMEOUT,
            headers={"Topic": topic, "Urgency": "high"},
        )
    except WebPushException as error:
        status = getattr(error.response, "status_code", None)
        if status in GONE:
            PushSubscription.objects.filter(pk=phone.pk).delete()
        else:
            PushSubscription.objects.filter(pk=phone.pk).update(last_error=f"{status or ''} {error}"[:300])
        return False
    except requests.RequestException as error:
        PushSubscription.objects.filter(pk=phone.pk).update(last_error=str(error)[:300])
        return False
    if phone.last_error:
        PushSubscription.objects.filter(pk=phone.pk).update(last_error="")
    return True


def push_notice(*, notification_id: int) -> int:
    """Send a stored notice to each of its user's phones; returns how many push services took it.

    The ``Topic`` header names the notice: should a retried task send it again before the phone
    woke, the push service keeps only one of the two."""
    keys = vapid_keys()
    note = Notification.objects.select_related("user").filter(pk=notification_id).first()
    if keys is None or note is None:
        return 0
    data = push_payload(note)
    topic = f"notice-{note.pk}"
    return sum(
        _push_one(phone, data, topic, keys) for phone in PushSubscription.objects.filter(user_id=note.user_id)
    )
