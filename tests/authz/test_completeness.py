"""The matrix knows every route: a URL pattern or method the resolver has and no row names fails
here, as does a row naming a pattern that is gone; likewise every websocket route and every
message type the table socket acts on (its own dispatch table, `TableConsumer.ACTIONS`). Every
object id in a path is found inside the parent the path names, or names its kind (`KIND_IDS`), and
every id found inside a parent is borrowed from another event and another club (`borrowed.py`)."""

from __future__ import annotations

from collections import Counter

from tests.authz.borrowed import ID_KINDS, SOURCES, borrowed_rows
from tests.authz.routes import (
    KIND_IDS,
    SKIPPED_PREFIXES,
    table_socket_actions,
    url_routes,
    websocket_routes,
)
from tests.authz.rows import ACTION_ROWS, ROWS, SOCKET_ROWS
from tests.authz.targets import TARGETS


def test_every_url_pattern_and_method_has_a_row():
    routes = url_routes()
    known = {(r.name, m) for r in routes for m in r.methods}
    rowed = {(row.pattern, row.method) for row in ROWS}
    missing = sorted(known - rowed)
    assert not missing, "no row for: " + ", ".join(f"{m} {n}" for n, m in missing)
    gone = sorted(rowed - known)
    assert not gone, "rows for what the site no longer has: " + ", ".join(f"{m} {n}" for n, m in gone)


def test_the_walk_finds_the_site_and_leaves_out_only_the_admin():
    routes = url_routes()
    names = {r.name for r in routes}
    # one of each kind: a page, an API read and write, an allauth page, a regex route
    kinds = {"gameplay:table", "api:archive_list", "api:match_result", "account_login", "tournaments:export"}
    assert kinds <= names
    assert not [r for r in routes if r.route.startswith(SKIPPED_PREFIXES)]
    assert len(names) == len(routes), "two patterns share a name: the rows could not tell them apart"


def test_no_row_is_there_twice_and_every_target_is_used():
    twice = [key for key, n in Counter((row.target, row.method) for row in ROWS).items() if n > 1]
    assert not twice, f"rows repeated: {twice}"
    unused = sorted(set(TARGETS) - {row.target for row in ROWS})
    assert not unused, f"targets no row asks about: {unused}"
    # a pattern asked about for two objects is asked about for each, with every method
    for row in ROWS:
        if "@" in row.target:
            assert row.target in TARGETS, f"{row.target} names no object"


def test_every_websocket_route_and_table_action_has_a_row():
    assert sorted(set(websocket_routes()) - {row.route for row in SOCKET_ROWS}) == []
    assert sorted({row.route for row in SOCKET_ROWS} - set(websocket_routes())) == []
    actions = set(table_socket_actions())
    for table in ("private", "public"):
        rowed = {row.action for row in ACTION_ROWS if row.table == table}
        assert sorted(actions - rowed) == [], f"table-socket actions with no row at the {table} table"
        assert sorted(rowed - actions) == [], f"rows for actions the table socket does not take ({table})"


def test_every_id_is_found_inside_its_parent_or_names_its_kind():
    routes = [r for r in url_routes() if r.ids]
    loose = sorted(r.name for r in routes if r.parent is None and r.name not in KIND_IDS)
    assert not loose, f"ids looked up with no parent in the path, not named in KIND_IDS: {loose}"
    named = {r.name for r in routes if r.parent is None}
    assert sorted(set(KIND_IDS) - named) == [], "KIND_IDS names routes that are gone or have a parent"
    for route in routes:
        if route.parent is not None:
            assert set(ID_KINDS.get(route.name, {})) == set(route.ids), (
                f"{route.name}: say in borrowed.ID_KINDS what each of {route.ids} names"
            )
    assert sorted(set(ID_KINDS) - {r.name for r in routes if r.parent}) == [], "ID_KINDS names routes gone"


def test_every_id_inside_a_parent_is_borrowed_from_another_event_and_another_club():
    rows = borrowed_rows()
    asked = {(row.pattern, row.method, row.source, row.ids) for row in rows}
    for route in url_routes():
        if not route.ids or route.parent is None:
            continue
        for method in route.methods:
            for source in SOURCES[route.parent_kind]:
                assert (route.name, method, source, route.ids) in asked, (route.name, method, source)
                if len(route.ids) > 1:  # each id alone, the others the parent's own
                    for one in route.ids:
                        assert (route.name, method, source, (one,)) in asked, (route.name, method, one)
    assert {row.source for row in rows} == {"event", "club"}
