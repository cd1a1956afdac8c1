"""A phone asks for its user's notices by Web Push, or stops; and the service worker that shows them.

The page's script (``static/js/push.js``) posts the browser's subscription as JSON with the CSRF
token in its header; an answer is JSON, an error worded in the user's language. The service worker
is served from the site's root (``/sw.js``) so that its scope is the whole site.
"""

from __future__ import annotations

import functools
import hashlib
import json

from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.core.exceptions import ValidationError
from django.http import HttpResponse, JsonResponse
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from config.untrusted_json import JSONRefused, read_json

from .. import services

#: A browser's subscription is an address of a few hundred characters and two short keys.
SUBSCRIPTION_BYTES = 4096


def _subscription(request) -> dict[str, str]:
    """The browser's subscription: JSON as ``PushSubscription.toJSON()`` gives it (the page's
    script), or the same three fields as a form."""
    if request.content_type == "application/json":
        try:
            data = read_json(request.body or b"{}", max_bytes=SUBSCRIPTION_BYTES, max_depth=3)
        except JSONRefused as refused:
            raise ValidationError(refused.message()) from None
        if not isinstance(data, dict):
            raise ValidationError(_("This browser gave no address for notices; try another browser."))
        keys = data.get("keys") if isinstance(data.get("keys"), dict) else {}
        found = {"endpoint": data.get("endpoint"), "p256dh": keys.get("p256dh"), "auth": keys.get("auth")}
    else:
        found = {name: request.POST.get(name) for name in ("endpoint", "p256dh", "auth")}
    # a value that is no string, or holds a NUL no address or key has, counts as not given
    return {
        name: value if isinstance(value, str) and "\x00" not in value else "" for name, value in found.items()
    }


def _refused(error: ValidationError) -> JsonResponse:
    return JsonResponse({"error": " ".join(error.messages)}, status=400)


@login_required
@require_POST
def subscribe(request):
    """Keep this phone's subscription: from now on the user's notices reach it."""
    try:
        services.subscribe_phone(user=request.user, **_subscription(request))
    except ValidationError as error:
        return _refused(error)
    return JsonResponse({"ok": True, "text": _("Notices will come to this phone.")}, status=201)


@login_required
@require_POST
def forget(request):
    """This phone wants no more notices."""
    try:
        endpoint = _subscription(request)["endpoint"]
    except ValidationError as error:
        return _refused(error)
    services.forget_phone(user=request.user, endpoint=endpoint)
    return JsonResponse({"ok": True, "text": _("Notices no longer come to this phone.")})


#: What the worker keeps when it is installed, so that the site opens offline: the page it shows
#: for a page it has no copy of, and the site's style, scripts and icons (by their deployed names).
SHELL_FILES = (
    "css/bilka.css", "js/menu.js", "js/confirm.js", "js/scroll_hint.js", "js/offline_forms.js",
    "favicon.svg",
    "icons/icon-192.png", "icons/icon-512.png", "icons/apple-touch-icon-180.png",
    # the rules page draws its cards with the table's style: kept, it reads offline as it does online
    "gameplay/table.css", "gameplay/guide.css",
)


@functools.cache
def _worker_script() -> bytes:
    """sw.js after a first line naming its shell and its version: a deploy that changes the worker or
    any of the shell's files changes the script, so browsers install it anew and drop the old copies."""
    with open(finders.find("sw.js"), "rb") as f:
        body = f.read()
    shell = [reverse("clubs:offline"), *(static(name) for name in SHELL_FILES)]
    version = hashlib.sha256(body + json.dumps(shell).encode()).hexdigest()[:12]
    named = json.dumps({"version": version, "offline": shell[0], "files": shell})
    head = f"self.BILKA_SHELL = {named};\n"
    return head.encode() + body


@require_GET
@never_cache
def service_worker(request):
    """``static/sw.js`` from the root, so that it may take every page of the site as its scope."""
    response = HttpResponse(_worker_script(), content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    return response
