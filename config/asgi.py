"""ASGI entry point: HTTP through Django, websockets through Channels with session auth and origin checks."""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")

from config.http import get_asgi_application  # noqa: E402  (Django's, with the middleware in one thread)

django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import OriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402

from config import collector  # noqa: E402
from config.routing import websocket_urlpatterns  # noqa: E402
from config.socket_db import AuthMiddlewareStack  # noqa: E402  (the user looked up in the shared pool)
from gameplay.tables.flood import ConnectGate  # noqa: E402

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

# the collector's full passes would stall every socket: see config/collector.py
collector.settle()
