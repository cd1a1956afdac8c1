"""Django's ASGI handler with the whole middleware chain and the view in one thread.

Every middleware of the site is synchronous (Django's own through ``MiddlewareMixin``), so under
Django's ASGI handler each of their hooks went to a thread of its own and back (``sync_to_async``),
eight hops a request, with an ``async_to_sync`` in the middle around ``clubs.middleware``: a tenth
of a cached page's time (bench/web/load.py). Here the chain is built synchronous, as under WSGI, and
handed to one thread-sensitive worker per request, which is what Django does for a synchronous view
anyway. The site has no asynchronous view; one would run through ``async_to_sync`` as under WSGI.
Websockets (Channels) do not pass through here.

In front of it all, visitors' copies of the public pages (``config.visitors``): a visitor's GET
that a kept copy answers never reaches Django; Django's answers the views marked shareable are kept.
Around both, the answer is compressed for a client that accepts gzip (``config.compression``).
"""

from __future__ import annotations

import django
from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIHandler

from config.compression import Compressing, accepts_gzip
from config.visitors import VisitorCopies


class OneThreadASGIHandler(ASGIHandler):
    def __init__(self) -> None:
        super().__init__()
        self.visitor_copies = VisitorCopies()

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "http" and accepts_gzip(scope):
            send = Compressing(send)  # the finished bytes, the copies' as well as Django's
        refreshing = None
        if scope["type"] == "http" and settings.VISITOR_COPIES:
            answer, refreshing = await self.visitor_copies.answer(scope)
            if answer is not None:
                status, headers, body = answer
                await send({"type": "http.response.start", "status": status, "headers": headers})
                await send({"type": "http.response.body", "body": body})
                return
        try:
            await super().__call__(scope, receive, send)
        finally:  # kept or not, cut off or not: the next request may work it out
            if refreshing is not None:
                self.visitor_copies.done(refreshing)

    async def run_get_response(self, request):
        response = await super().run_get_response(request)
        self.visitor_copies.keep(request.scope, response)
        return response

    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)
        self._middleware_chain = sync_to_async(self._middleware_chain, thread_sensitive=True)


def get_asgi_application() -> OneThreadASGIHandler:
    django.setup(set_prefix=False)
    return OneThreadASGIHandler()
