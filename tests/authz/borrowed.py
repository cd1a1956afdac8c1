"""Ids borrowed from another parent. Every route whose path finds an object inside a tournament or a
club (`routes.Route.parent`) is asked, by each of the matrix's people and with each method, with the
id of an object of the same kind taken from elsewhere:

- "event": the club's other event, of the other kind (a pair event's address with the individual
  event's match, partnership or ask; an individual event's address with a pair's id);
- "club": the other club's event of the same kind (or, under a club's address, the other club).

Such a request must be answered exactly as one whose id is nowhere on the site: the same status for
everyone (nothing tells the object is there), nothing written, and none of the borrowed object's
names shown. A route with two ids is asked with both borrowed and with each alone.

The rows are made from the URL conf and the home targets (`targets.TARGETS`): a new route with an
id under a parent needs only what its ids name in `ID_KINDS` (`test_completeness` says so).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from django.contrib.auth import get_user_model
from django.urls import reverse

from clubs.models import Club, ClubPlayer, MemberInvitation, Player, PlayerInvitation
from tests.authz.routes import Route, url_routes
from tests.authz.targets import TARGETS
from tests.authz.targets import hook as hook_of
from tests.authz.world import World
from tournaments.models import (
    Announcement,
    ByeRequest,
    Entry,
    IndividualEntry,
    Match,
    Tournament,
    WithdrawalRequest,
)
from webhooks.models import Webhook

#: What each object id of a route with a parent names.
ID_KINDS: dict[str, dict[str, str]] = {
    "tournaments:substitute": {"pk": "entry"},
    "tournaments:entry_action": {"pk": "entry"},
    "tournaments:entry_payment": {"pk": "entry"},
    "tournaments:match": {"pk": "match"},
    "tournaments:match_record": {"pk": "match"},
    "tournaments:board_entry": {"pk": "match"},
    "tournaments:board_replay": {"pk": "match"},
    "tournaments:forfeit": {"pk": "match", "loser": "side"},
    "tournaments:withdrawal_answer": {"pk": "ask"},
    "tournaments:bye_withdraw": {"pk": "bye"},
    "tournaments:announcement_withdraw": {"pk": "announcement"},
    **{
        f"tournaments:{name}": {"pk": "player"}
        for name in (
            "player_substitute",
            "player_approve",
            "player_check_in",
            "player_withdraw",
            "player_ask_withdraw",
            "player_reinstate",
        )
    },
    "tournaments:no_show": {"pk": "match", "entry": "player"},
    **{
        f"api:event_entry_{step}": {"pk": "own_entry"}
        for step in ("approve", "withdraw", "reinstate", "check_in")
    },
    "clubs:member_role": {"user_id": "member"},
    "clubs:member_remove": {"user_id": "member"},
    "clubs:roster_add_member": {"player_id": "member_player"},
    "clubs:roster_toggle": {"entry_id": "roster_entry"},
    "clubs:roster_invite": {"player_id": "roster_player"},
    "clubs:invitation": {"pk": "invitation"},
    "clubs:member_invitation": {"pk": "member_invitation"},
    "clubs:member_invitation_withdraw": {"pk": "member_invitation"},
    "webhooks:hook_toggle": {"pk": "webhook"},
    "webhooks:hook_delete": {"pk": "webhook"},
}
#: Where ids are borrowed from, by what the parent is.
SOURCES = {"tournament": ("event", "club"), "club": ("club",)}
#: An id no row of any table has.
NOWHERE = 987_654_321


@dataclass(frozen=True)
class BorrowedRow:
    target: str  # a home target of `TARGETS`
    method: str
    source: str  # "event" or "club"
    ids: tuple[str, ...]  # the path arguments borrowed

    @property
    def pattern(self) -> str:
        return self.target.split("@")[0]

    def __str__(self) -> str:
        return f"{self.method} {self.target} {'+'.join(self.ids)} from another {self.source}"


@cache
def routes_by_name() -> dict[str, Route]:
    return {route.name: route for route in url_routes()}


def borrowed_rows() -> list[BorrowedRow]:
    rows = []
    for target in TARGETS:
        route = routes_by_name().get(target.split("@")[0])
        if route is None or not route.ids or route.parent is None:
            continue
        subsets = [route.ids, *([(one,) for one in route.ids] if len(route.ids) > 1 else [])]
        rows += [
            BorrowedRow(target, method, source, ids)
            for method in route.methods
            for source in SOURCES[route.parent_kind]
            for ids in subsets
        ]
    return rows


def _lender(world: World, route: Route, home: dict[str, Any], source: str) -> Tournament | Club:
    """The event (or club) the borrowed object comes from."""
    if route.parent_kind == "club":
        return world.other.club
    event = Tournament.objects.get(slug=home["slug"])
    if source == "event":
        return world.solo if event.pk == world.tournament.pk else world.tournament
    return world.other.solo if event.is_individual else world.other.pairs


def _first(rows):
    return rows.order_by("pk").first()


def _from_club(world: World, kind: str):
    other = world.other
    return {
        "member": lambda: other.owner,
        "member_player": lambda: Player.objects.get(user=other.owner),
        "roster_entry": lambda: ClubPlayer.objects.get(club=other.club, player=other.unclaimed),
        "roster_player": lambda: other.unclaimed,
        "invitation": lambda: other.invitation,
        "member_invitation": lambda: other.member_invitation,
        "webhook": lambda: hook_of(world, other.club),
    }[kind]()


def _from_event(event: Tournament, kind: str):
    match = _first(event.matches.filter(bye=False))
    return {
        "entry": lambda: _first(event.entries),  # a pair, or a partnership of an individual event
        "player": lambda: _first(event.individual_entries) or _first(event.entries),
        "own_entry": lambda: _first(event.individual_entries if event.is_individual else event.entries),
        "match": lambda: match,
        "side": lambda: match.home if match is not None else None,
        "ask": lambda: _first(event.withdrawal_requests),
        "bye": lambda: _first(event.bye_requests_made),
        "announcement": lambda: _first(event.announcements),
    }[kind]()


def borrowed_object(world: World, row: BorrowedRow, name: str):
    """The object of another parent whose id `row` puts in the path argument `name`."""
    route = routes_by_name()[row.pattern]
    lender = _lender(world, route, home_kwargs(world, row), row.source)
    kind = ID_KINDS[row.pattern][name]
    if isinstance(lender, Club):
        return _from_club(world, kind)
    found = _from_event(lender, kind)
    if found is None and lender.pk == world.other.solo.pk:
        # the other club's individual event still takes entries: no table nor ask of its own yet,
        # so those are its club's running event's
        found = _from_event(world.other.pairs, kind)
    assert found is not None, f"nothing of kind {kind} to borrow for {row}"
    return found


def home_kwargs(world: World, row: BorrowedRow) -> dict[str, Any]:
    made = TARGETS[row.target](world)
    assert isinstance(made, dict)
    return made


def urls(world: World, row: BorrowedRow) -> tuple[str, str, list]:
    """The address with the borrowed ids, the same with ids that are nowhere, and the borrowed objects."""
    kwargs = home_kwargs(world, row)
    lent = {name: borrowed_object(world, row, name) for name in row.ids}
    borrowed = reverse(row.pattern, kwargs={**kwargs, **{k: obj.pk for k, obj in lent.items()}})
    nowhere = reverse(row.pattern, kwargs={**kwargs, **dict.fromkeys(row.ids, NOWHERE)})
    return borrowed, nowhere, list(lent.values())


def names_of(obj) -> list[str]:
    """What a page would show of a borrowed object: its people's names."""
    if isinstance(obj, Entry):
        return [obj.player_a.display_name, obj.player_b.display_name]
    if isinstance(obj, IndividualEntry):
        return [obj.player.display_name]
    if isinstance(obj, Match):
        return names_of(obj.home) + (names_of(obj.away) if obj.away_id else [])
    if isinstance(obj, WithdrawalRequest | ByeRequest):
        return names_of(obj.who)
    if isinstance(obj, Player):
        return [obj.display_name]
    if isinstance(obj, ClubPlayer | PlayerInvitation):
        return [obj.player.display_name]
    if isinstance(obj, MemberInvitation):
        return [obj.addressed_to]
    if isinstance(obj, Webhook):
        return [obj.url]
    if isinstance(obj, get_user_model()):
        return [obj.get_username()]
    if isinstance(obj, Announcement):
        return [obj.text]
    raise TypeError(f"no names for {obj!r}")
