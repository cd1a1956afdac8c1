"""Under ASGI a request's middleware and view run in one thread (config/http.py), not one hop each."""

from __future__ import annotations

import threading

import pytest
from asgiref import sync
from channels.testing import HttpCommunicator
from django.http import HttpResponse
from django.test import override_settings
from django.urls import path

seen: list[tuple[str, int]] = []


def noting_middleware(get_response):
    def middleware(request):
        seen.append(("middleware", threading.get_ident()))
        return get_response(request)

    return middleware


def view(request):
    seen.append(("view", threading.get_ident()))
    return HttpResponse("ok")


urlpatterns = [path("one-thread/", view)]


@pytest.mark.django_db(transaction=True)
async def test_the_middleware_chain_and_the_view_share_one_hop(settings, monkeypatch):
    from config.asgi import application

    hops: list[str] = []
    original = sync.SyncToAsync.__call__

    def counted(self, *args, **kwargs):
        hops.append(getattr(self.func, "__qualname__", repr(self.func)))
        return original(self, *args, **kwargs)

    monkeypatch.setattr(sync.SyncToAsync, "__call__", counted)
    seen.clear()
    middleware = [*settings.MIDDLEWARE, "tests.config.test_asgi_http.noting_middleware"]
    with override_settings(ROOT_URLCONF="tests.config.test_asgi_http", MIDDLEWARE=middleware):
        application.application_mapping["http"].load_middleware(is_async=True)  # as a fresh process builds it
        try:
            answer = await HttpCommunicator(application, "GET", "/one-thread/",
                                            headers=[(b"host", b"127.0.0.1")]).get_response()
        finally:
            monkeypatch.undo()
    application.application_mapping["http"].load_middleware(is_async=True)
    assert answer["status"] == 200 and answer["body"] == b"ok"
    assert [what for what, _ in seen] == ["middleware", "view"]
    assert len({thread for _, thread in seen}) == 1
    # the request-started signal's receivers, then the whole chain: no hop a middleware
    assert len(hops) <= 2, hops
