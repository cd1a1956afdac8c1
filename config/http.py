"""Django's ASGI handler with the whole middleware chain and the view in one thread.

Every middleware of the site is synchronous (Django's own through ``MiddlewareMixin``), so under
Django's ASGI handler each of their hooks went to a thread of its own and back (``sync_to_async``),
eight hops a request, with an ``async_to_sync`` in the middle around ``clubs.middleware``: a tenth
of a cached page's time (bench/web_load.py). Here the chain is built synchronous, as under WSGI, and
handed to one thread-sensitive worker per request, which is what Django does for a synchronous view
anyway. The site has no asynchronous view; one would run through ``async_to_sync`` as under WSGI.
Websockets (Channels) do not pass through here.
"""

from __future__ import annotations

import django
from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIHandler


class OneThreadASGIHandler(ASGIHandler):
    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)
        self._middleware_chain = sync_to_async(self._middleware_chain, thread_sensitive=True)


def get_asgi_application() -> OneThreadASGIHandler:
    django.setup(set_prefix=False)
    return OneThreadASGIHandler()
