"""A phone asks for its user's notices by Web Push, or stops; and the service worker that shows them.

The page's script (``static/js/push.js``) posts the browser's subscription as JSON with the CSRF
token in its header; an answer is JSON, an error worded in the user's language. The service worker
is served from the site's root (``/sw.js``) so that its scope is the whole site.
"""

from __future__ import annotations

import functools

from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.core.exceptions import ValidationError
from django.http import HttpResponse, JsonResponse
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


@functools.cache
def _worker_script() -> bytes:
    with open(finders.find("sw.js"), "rb") as f:
        return f.read()


@require_GET
@never_cache
def service_worker(request):
    """``static/sw.js`` from the root, so that it may take every page of the site as its scope."""
    response = HttpResponse(_worker_script(), content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    return response
