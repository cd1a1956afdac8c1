"""What the site answers: every URL pattern the resolver knows (admin aside), the methods each one's
view declares, the object ids in its path and the parent they are found in, and every websocket
route and table-socket action the consumers accept."""

from __future__ import annotations

from dataclasses import dataclass

from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.converters import IntConverter

#: Outside the matrix: Django's admin (staff only, its own permission system).
SKIPPED_PREFIXES = ("admin/",)
#: Every pattern is asked these; an API view (Django REST framework's) adds every other method it
#: implements, so a handler added there needs a row.
BASE_METHODS = ("GET", "POST")
EXTRA_METHODS = ("PUT", "PATCH", "DELETE")


#: Path arguments that name the parent an object id is looked up in: a tournament ("t/<slug>/",
#: "api/v1/tournaments/<slug>/") or a club ("clubs/<slug>/").
PARENTS = ("slug", "club_slug")
#: Whole-number path arguments that are a place inside the parent, not an object's id: every
#: event has a round 1 and a table 1, so there is nothing of another event's to borrow (a table's
#: device code is worked out from its event and number: another event's code opens nothing here).
PLACES = ("number", "table")
#: The routes whose object id has no parent in the path: the id names its kind, which is looked up
#: site-wide by design, and who may see or change it is that object's own rule. A new route with an
#: id and no parent fails `test_completeness` until it is named here (or given a parent).
KIND_IDS = {
    "api:player_detail": "a player: one person across every club; the API shows what his page shows",
    "api:entry_approve": "a pair of a pair event (never a player's id, selectors.pair_entry_by_id); "
    "the key must name its club",
    "api:entry_withdraw": "as api:entry_approve",
    "api:match_detail": "a match, public as its page",
    "api:match_result": "a match; the key must name its club, the service checks the person",
    "api:match_confirm": "as api:match_result",
    "api:match_table": "a match; the organising key must name its club, the service checks the person",
    "api:match_correct": "as api:match_table",
    "api:match_forfeit": "as api:match_table",
    "api:match_settle": "as api:match_table",
    "api:match_dispute": "as api:match_result",
    "api:archive_detail": "an archived match, through the archive's one visibility rule",
    "api:archive_record": "as api:archive_detail",
    "gameplay:table": "a live table; a private one is there only for its seats (and its link)",
    "gameplay:invite": "a live table with its own link's token, checked against that table",
    "gameplay:sit": "as gameplay:table",
    "gameplay:bots": "as gameplay:table",
    "gameplay:client_seed": "as gameplay:table",
    "gameplay:verify_table": "as gameplay:table, and a tournament table's record only once public",
    "gameplay:state_json": "as gameplay:table",
    "gameplay:record_json": "as gameplay:verify_table",
    "gameplay:replay": "as gameplay:verify_table",
    "archive:match": "an archived match, through the archive's one visibility rule",
    "archive:share": "as archive:match, and then only its own players, of a game against bots",
    "archive:position_svg": "as archive:match",
    "archive:position_png": "as archive:match",
    "archive:player": "a player's archive: only the matches the viewer may see",
    "archive:fairplay_player": "a player's fair-play review: the site's staff only, a 404 to anyone else",
    "archive:table_match": "a live table's archived match, through the visibility rule",
    "archive:record": "as archive:match",
    "archive:puzzle": "a puzzle: shown, to anyone, only while its match is public (the visibility rule)",
    "archive:sheet_csv": "as archive:match",
    "archive:sheet_json": "as archive:match",
    "clubs:player_detail": "a player's public page",
    "clubs:player_edit": "a player without an account, edited by his own clubs' roster managers",
    "clubs:api_token_revoke": "a key of the signed-in person's own (another's is 404)",
    "ratings:chart": "a player's public rating chart",
}


@dataclass(frozen=True)
class Route:
    name: str  # "namespace:name", or the route string for a pattern without a name
    route: str
    methods: tuple[str, ...]
    #: Whole-number path arguments naming an object (``PLACES`` aside).
    ids: tuple[str, ...] = ()
    #: The path argument naming the parent those ids are found in (``PARENTS``), if any.
    parent: str | None = None

    @property
    def parent_kind(self) -> str | None:
        """ "tournament" or "club": what the parent argument names."""
        if self.parent is None:
            return None
        return "tournament" if self.route.startswith(("t/", "api/v1/tournaments/")) else "club"


def _methods(pattern: URLPattern) -> tuple[str, ...]:
    view_class = getattr(pattern.callback, "cls", None)
    extra = tuple(m for m in EXTRA_METHODS if view_class is not None and hasattr(view_class, m.lower()))
    return BASE_METHODS + extra


def _arguments(pattern) -> dict:
    """The path arguments a pattern's own part takes, each with its converter (None for a regex)."""
    converters = getattr(pattern.pattern, "converters", None)
    if converters is not None:
        return dict(converters)
    return dict.fromkeys(pattern.pattern.regex.groupindex)


def _walk(resolver: URLResolver, prefix: str, namespace: str, arguments: dict):
    for pattern in resolver.url_patterns:
        route = prefix + str(pattern.pattern)
        if route.startswith(SKIPPED_PREFIXES):
            continue
        taken = {**arguments, **_arguments(pattern)}
        if isinstance(pattern, URLResolver):
            inner = namespace
            if pattern.namespace:
                inner = f"{namespace}:{pattern.namespace}" if namespace else pattern.namespace
            yield from _walk(pattern, route, inner, taken)
        else:
            name = f"{namespace}:{pattern.name}" if namespace and pattern.name else (pattern.name or route)
            ids = tuple(k for k, c in taken.items() if isinstance(c, IntConverter) and k not in PLACES)
            parent = next((k for k in PARENTS if k in taken), None)
            yield Route(name=name, route=route, methods=_methods(pattern), ids=ids, parent=parent)


def url_routes() -> list[Route]:
    """Every URL pattern of the site but the admin's, as the resolver walks them."""
    return list(_walk(get_resolver(), "", "", {}))


def websocket_routes() -> list[str]:
    from config.routing import websocket_urlpatterns

    return [str(p.pattern) for p in websocket_urlpatterns]


def table_socket_actions() -> list[str]:
    """The message types `/ws/table/<id>/` acts on: the consumer's own dispatch table."""
    from gameplay.tables.consumers import TableConsumer

    return sorted(TableConsumer.ACTIONS)
