"""The site as an app on a phone's home screen: its web app manifest and the page the service worker
(``static/sw.js``) shows for a page it has no copy of while the phone is offline."""

from __future__ import annotations

import json

from django.http import HttpResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET
from django.views.decorators.vary import vary_on_cookie

#: The header's green (``--green`` in bilka.css) and the page's background (``--bg``).
THEME_COLOUR = "#1f6f4a"
BACKGROUND_COLOUR = "#f7f8f6"


@require_GET
@vary_on_cookie
def manifest(request):
    """``/manifest.webmanifest``: what Android needs to offer "Install", in the reader's language."""
    icon = "image/png"
    data = {
        "id": "/",
        "name": _("Bilka — clubs, tournaments and live tables"),
        "short_name": _("Bilka"),
        "description": _("Bilka — clubs, tournaments and live tables for the card game Bilka."),
        "lang": get_language(),
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": [
            {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": icon, "purpose": "any"},
            {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": icon, "purpose": "any"},
            {"src": static("icons/icon-maskable-512.png"), "sizes": "512x512", "type": icon,
             "purpose": "maskable"},
        ],
    }
    return HttpResponse(json.dumps(data, ensure_ascii=False), content_type="application/manifest+json")


@require_GET
def offline(request):
    """Shown by the service worker in place of a page it has kept no copy of while the phone is
    offline (it keeps this one when it is installed, in the reader's language then)."""
    return render(request, "clubs/offline.html")
