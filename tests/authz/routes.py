"""What the site answers: every URL pattern the resolver knows (admin aside), the methods each one's
view declares, and every websocket route and table-socket action the consumers accept."""

from __future__ import annotations

from dataclasses import dataclass

from django.urls import URLPattern, URLResolver, get_resolver

#: Outside the matrix: Django's admin (staff only, its own permission system).
SKIPPED_PREFIXES = ("admin/",)
#: Every pattern is asked these; an API view (Django REST framework's) adds every other method it
#: implements, so a handler added there needs a row.
BASE_METHODS = ("GET", "POST")
EXTRA_METHODS = ("PUT", "PATCH", "DELETE")


@dataclass(frozen=True)
class Route:
    name: str  # "namespace:name", or the route string for a pattern without a name
    route: str
    methods: tuple[str, ...]


def _methods(pattern: URLPattern) -> tuple[str, ...]:
    view_class = getattr(pattern.callback, "cls", None)
    extra = tuple(m for m in EXTRA_METHODS if view_class is not None and hasattr(view_class, m.lower()))
    return BASE_METHODS + extra


def _walk(resolver: URLResolver, prefix: str, namespace: str):
    for pattern in resolver.url_patterns:
        route = prefix + str(pattern.pattern)
        if route.startswith(SKIPPED_PREFIXES):
            continue
        if isinstance(pattern, URLResolver):
            inner = namespace
            if pattern.namespace:
                inner = f"{namespace}:{pattern.namespace}" if namespace else pattern.namespace
            yield from _walk(pattern, route, inner)
        else:
            name = f"{namespace}:{pattern.name}" if namespace and pattern.name else (pattern.name or route)
            yield Route(name=name, route=route, methods=_methods(pattern))


def url_routes() -> list[Route]:
    """Every URL pattern of the site but the admin's, as the resolver walks them."""
    return list(_walk(get_resolver(), "", ""))


def websocket_routes() -> list[str]:
    from config.routing import websocket_urlpatterns

    return [str(p.pattern) for p in websocket_urlpatterns]


def table_socket_actions() -> list[str]:
    """The message types `/ws/table/<id>/` acts on: the consumer's own dispatch table."""
    from gameplay.tables.consumers import TableConsumer

    return sorted(TableConsumer.ACTIONS)
