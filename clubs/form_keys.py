"""A page's form sent twice is done once: each form carries a key, and a copy with the same key gets
the first answer.

A phone that lost the network after "Save the result" cannot know whether the result arrived; the
page keeps the report (``static/js/offline_forms.js``) and sends it again when the network returns,
perhaps twice. Each form the server renders carries a fresh key (``{% form_key %}``; the page's
script gives every send a new one of its own, and a kept report keeps its key). The first send with
a key runs the view; its answer, when it is a redirect, is kept for ``HOURS`` with the messages it
left for the next page, and a copy with the same key, sender and address gets that redirect and
those messages without running the view again. The same key with other fields is refused; a copy
arriving while the first still runs waits for it a few seconds, then is refused. An answer that is
no redirect (the page again with the form's errors, a refusal) changed nothing: the key is freed,
so the corrected form may be sent with it. This is the HTML forms' ``Idempotency-Key`` (the API's
``api/idempotency.py``), for the sender's account or, without one, the browser session.
"""

from __future__ import annotations

import hashlib
import json
import re
import uuid
from datetime import timedelta
from functools import wraps

from django.contrib import messages
from django.http import HttpResponseRedirect
from django.utils import timezone
from django.utils.translation import gettext as _

from . import sent_once
from .models import SentForm

FIELD = "form_key"
#: A key the server made (32 hex digits) or the page's script (a UUID with its dashes).
KEY = re.compile(r"^[A-Za-z0-9-]{16,64}$")
HOURS = 24
#: A copy arriving while the first is still running waits this long for its answer.
WAIT_SECONDS = 5.0
#: A first send that never finished (its worker killed) frees its key after this.
STALE_AFTER = timedelta(minutes=5)
REPLAYED_HEADER = "Form-Replayed"


def new_key() -> str:
    return uuid.uuid4().hex


class _Refused(Exception):
    def __init__(self, text: str) -> None:
        self.text = text


def _owner(request) -> str:
    if request.user.is_authenticated:
        return f"u:{request.user.pk}"
    if not request.session.session_key:
        request.session.save()
    return f"s:{request.session.session_key}"


def _fingerprint(request) -> str:
    """The posted fields but the key, the CSRF token (a kept report may go with a newer one) and a
    PIN (never stored, not even in a digest of four digits' worth: a send refused for a wrong PIN
    frees its key, so a kept answer is always one the right PIN earned)."""
    fields = sorted(
        (name, value)
        for name in request.POST
        if name not in (FIELD, "csrfmiddlewaretoken", "pin")
        for value in request.POST.getlist(name)
    )
    return hashlib.sha256(json.dumps(fields, ensure_ascii=False).encode()).hexdigest()


def _claim(request, key: str) -> SentForm:
    """The row this send now owns; raises ``Answered`` for a copy of an answered one, ``_Refused``
    for a clash."""
    SentForm.objects.filter(created_at__lt=timezone.now() - timedelta(hours=HOURS)).delete()
    try:
        return sent_once.claim(
            SentForm,
            lookup={"owner": _owner(request), "path": request.path[:300], "key": key},
            fingerprint=_fingerprint(request),
            stale_after=STALE_AFTER,
            wait_seconds=WAIT_SECONDS,
        )
    except sent_once.KeyClash as clash:
        if clash.reused:
            raise _Refused(
                _("This form was already sent with other values. Open the page again and send it anew.")
            ) from None
        raise _Refused(
            _("This form is still being sent from another tab or a moment ago. Open the page again in a "
              "moment to see whether it arrived.")
        ) from None


def _settle(row: SentForm, request, response) -> None:
    """Keep a redirect and its messages for the copies; free the key after any other answer."""
    location = response.get("Location", "") if 300 <= response.status_code < 400 else ""
    if not location or len(location) > 500:
        row.delete()
        return
    queued = getattr(messages.get_messages(request), "_queued_messages", [])  # added by this send
    row.status_code = response.status_code
    row.location = location
    row.notices = [[m.level, str(m.message), m.extra_tags or ""] for m in queued]
    row.save(update_fields=["status_code", "location", "notices"])


def _replayed(request, row: SentForm) -> HttpResponseRedirect:
    for level, text, tags in row.notices:
        messages.add_message(request, level, text, extra_tags=tags)
    answer = HttpResponseRedirect(row.location)
    answer.status_code = row.status_code
    answer[REPLAYED_HEADER] = "true"
    return answer


def once_per_key(view):
    """For a page's view whose POST forms carry ``{% form_key %}``: a copy of an answered send gets
    its answer (see the module). A POST without a key runs as before."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        key = request.POST.get(FIELD) if request.method == "POST" else None
        if key is None:
            return view(request, *args, **kwargs)
        if not KEY.match(key):
            messages.error(request, _("This form's key is damaged. Open the page again and send it anew."))
            return HttpResponseRedirect(request.get_full_path())
        try:
            row = _claim(request, key)
        except sent_once.Answered as replay:
            return _replayed(request, replay.row)
        except _Refused as refused:
            messages.error(request, refused.text)
            return HttpResponseRedirect(request.get_full_path())
        try:
            response = view(request, *args, **kwargs)
        except BaseException:
            row.delete()
            raise
        _settle(row, request, response)
        return response

    return wrapper
