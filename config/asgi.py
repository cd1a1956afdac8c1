"""ASGI entry point: HTTP through Django, websockets through Channels with session auth and origin checks."""

import gc
import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")

from config.http import get_asgi_application  # noqa: E402  (Django's, with the middleware in one thread)

django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import OriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402

from config.routing import websocket_urlpatterns  # noqa: E402
from config.socket_db import AuthMiddlewareStack  # noqa: E402  (the user looked up in the shared pool)
from gameplay.flood import ConnectGate  # noqa: E402

# A socket drives a player's seat with his session cookie, which any page can make the browser send:
# only the site's own pages (scheme, host and port alike, settings.BILKA_WS_ORIGINS) may open one;
# no Origin header at all is refused too.
application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # the flood gate inside the origin check: a viewer out of allowance costs no session or user look-up
        "websocket": OriginValidator(
            ConnectGate(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
            list(settings.BILKA_WS_ORIGINS),
        ),
    }
)

# The collector's full passes walk every live object: with 2,000 sockets one pass stalled all of
# them for 0.2-0.9 s (bench/ws_load.py, BENCH_GC_LOG). Objects alive after startup (Django, the URL
# conf, the apps) are frozen out of its view, and young collections run every GC_THRESHOLD0
# container allocations instead of 700, so full passes come rarely. Reference counting still
# frees almost everything at once; the collector is only for cycles. BILKA_GC_THRESHOLD0=0 keeps
# Python's defaults.
_gc_threshold0 = int(os.environ.get("BILKA_GC_THRESHOLD0", "50000"))
if _gc_threshold0:
    gc.collect()
    gc.freeze()
    gc.set_threshold(_gc_threshold0, *gc.get_threshold()[1:])
