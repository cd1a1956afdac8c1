"""Where each row's request goes: the URL kwargs of a pattern, filled from the world.

A target is named after its pattern, or `pattern@object` where one pattern is asked about for two
objects (a private and a public table, say). A target returns the kwargs to reverse the pattern
with, or a ready path for the patterns that cannot be reversed into a useful address.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.authz.world import World
from tournaments.selectors import devices
from webhooks.models import Webhook

Target = Callable[[World], "dict[str, Any] | str"]


def _club(w: World) -> dict[str, Any]:
    return {"slug": w.club.slug}


def _event(w: World) -> dict[str, Any]:
    return {"slug": w.tournament.slug}


def _solo(w: World) -> dict[str, Any]:
    return {"slug": w.solo.slug}


def _private_table(w: World) -> dict[str, Any]:
    return {"pk": w.private_table.pk}


def _public_table(w: World) -> dict[str, Any]:
    return {"pk": w.public_table.pk}


def hook(w: World, club=None):
    """A webhook of the club's (made on first use: the world is built without one)."""
    club = club or w.club
    hook = Webhook.objects.filter(club=club).order_by("pk").first()
    if hook is None:
        hook = Webhook.objects.create(
            club=club, url=f"https://93.184.216.34/{club.slug}", secret="whsec_authz", events=["round.paired"]
        )
    return hook


def _member_player(w: World) -> int:
    return w.users["member"].player.pk


def _other_match(w: World):
    return w.other.pairs.matches.filter(bye=False).order_by("pk").first()


TABLE_ROUTES = ("gameplay:table", "gameplay:sit", "gameplay:bots", "gameplay:client_seed",
                "gameplay:verify_table", "gameplay:state_json", "gameplay:record_json", "gameplay:replay",
                "archive:table_match")
ARCHIVE_ROUTES = ("match", "record", "sheet_csv", "sheet_json", "share", "position_svg", "position_png")

TARGETS: dict[str, Target] = {
    "account_confirm_email": lambda w: {"key": "no-such-key"},
    "account_reset_password_from_key": lambda w: {"uidb36": "1", "key": "no-such-key"},
    "api:not_found": lambda w: "/api/no-such-thing/",
    "api:club_detail": _club,
    "api:player_detail": lambda w: {"pk": _member_player(w)},
    "api:tournament_detail": _event,
    "api:round_list": _event,
    "api:standings": _event,
    "api:entry_list": _event,
    "api:entry_approve": lambda w: {"pk": w.entry.pk},
    "api:entry_withdraw": lambda w: {"pk": w.entry.pk},
    # the first addresses asked with what is not a pair of a pair event: the other club's pair, a
    # player of an individual event
    "api:entry_approve@other-club": lambda w: {"pk": w.other.pairs.entries.order_by("pk").first().pk},
    "api:entry_withdraw@other-club": lambda w: {"pk": w.other.pairs.entries.order_by("pk").first().pk},
    "api:entry_approve@player": lambda w: {"pk": w.solo_entry.pk},
    "api:entry_withdraw@player": lambda w: {"pk": w.solo_entry.pk},
    **{f"api:event_entry_{step}@pairs": (lambda w: {"slug": w.tournament.slug, "pk": w.entry.pk})
       for step in ("approve", "withdraw", "reinstate", "check_in")},
    **{f"api:event_entry_{step}@solo": (lambda w: {"slug": w.solo.slug, "pk": w.solo_entry.pk})
       for step in ("approve", "withdraw", "reinstate", "check_in")},
    "api:event_start": _event,
    "api:entries_bulk": _event,
    "api:match_detail": lambda w: {"pk": w.match.pk},
    "api:match_result": lambda w: {"pk": w.match.pk},
    "api:match_confirm": lambda w: {"pk": w.match.pk},
    "api:round_pair_next": _event,
    "api:round_unpair": lambda w: {"slug": w.tournament.slug, "number": 1},
    "api:round_swap": lambda w: {"slug": w.tournament.slug, "number": 1},
    **{f"api:match_{step}": (lambda w: {"pk": w.match.pk})
       for step in ("table", "correct", "forfeit", "dispute", "settle")},
    "api:match_result@other-club": lambda w: {"pk": _other_match(w).pk},
    "api:match_confirm@other-club": lambda w: {"pk": _other_match(w).pk},
    "api:archive_detail@private": lambda w: {"pk": w.private_archived.pk},
    "api:archive_detail@public": lambda w: {"pk": w.public_archived.pk},
    "api:archive_record@private": lambda w: {"pk": w.private_archived.pk},
    "api:archive_record@public": lambda w: {"pk": w.public_archived.pk},
    **{f"{name}@private": _private_table for name in TABLE_ROUTES},
    **{f"{name}@public": _public_table for name in TABLE_ROUTES},
    "gameplay:invite@private": lambda w: {"pk": w.private_table.pk, "token": w.private_table.invite_token},
    "gameplay:table@open": lambda w: {"pk": w.open_table.pk},
    "gameplay:invite@open": lambda w: {"pk": w.open_table.pk, "token": w.open_table.invite_token},
    "gameplay:sit@open": lambda w: {"pk": w.open_table.pk},
    "gameplay:sit@open-uninvited": lambda w: {"pk": w.open_table.pk},
    "gameplay:bots@open": lambda w: {"pk": w.open_table.pk},
    "gameplay:invite@public": lambda w: {"pk": w.public_table.pk, "token": w.public_table.invite_token},
    **{f"archive:{name}@private": (lambda w: {"pk": w.private_archived.pk}) for name in ARCHIVE_ROUTES},
    **{f"archive:{name}@public": (lambda w: {"pk": w.public_archived.pk}) for name in ARCHIVE_ROUTES},
    "archive:player": lambda w: {"pk": w.users["seated"].player.pk},
    "archive:fairplay_player": lambda w: {"pk": w.users["seated"].player.pk},
    "archive:puzzle@public": lambda w: {"pk": w.public_puzzle.pk},
    "archive:puzzle@private": lambda w: {"pk": w.private_puzzle.pk},
    **{f"clubs:{name}": _club for name in (
        "club_detail", "club_edit", "club_join", "club_leave", "members", "member_add", "audit", "roster",
        "roster_add", "roster_bulk", "roster_merge")},
    "clubs:member_role": lambda w: {"slug": w.club.slug, "user_id": w.users["member"].pk},
    "clubs:member_remove": lambda w: {"slug": w.club.slug, "user_id": w.users["member"].pk},
    "clubs:roster_add_member": lambda w: {"slug": w.club.slug, "player_id": _member_player(w)},
    "clubs:roster_toggle": lambda w: {"slug": w.club.slug, "entry_id": w.roster_entry.pk},
    "clubs:roster_invite": lambda w: {"slug": w.club.slug, "player_id": w.unclaimed.pk},
    "clubs:invitation": lambda w: {"slug": w.club.slug, "pk": w.invitation.pk},
    "clubs:member_invite_in_person": _club,
    "clubs:member_invitation": lambda w: {"slug": w.club.slug, "pk": w.in_person.pk},
    "clubs:member_invitation_withdraw": lambda w: {"slug": w.club.slug, "pk": w.in_person.pk},
    "clubs:join_invitation": lambda w: {"token": w.named.token},
    "clubs:player_detail": lambda w: {"pk": _member_player(w)},
    "clubs:player_edit@member": lambda w: {"pk": _member_player(w)},
    "clubs:player_edit@unclaimed": lambda w: {"pk": w.unclaimed.pk},
    "clubs:claim": lambda w: {"token": w.invitation.token},
    "clubs:api_token_revoke": lambda w: {"pk": w.owner_token.pk},
    "webhooks:hooks": _club,
    "webhooks:hook_toggle": lambda w: {"slug": w.club.slug, "pk": hook(w).pk},
    "webhooks:hook_delete": lambda w: {"slug": w.club.slug, "pk": hook(w).pk},
    "webhooks:stream": _event,
    "ratings:club": _club,
    "ratings:city": lambda w: {"city": w.club.city},
    "ratings:chart": lambda w: {"pk": _member_player(w)},
    "tournaments:club_list": lambda w: {"club_slug": w.club.slug},
    "tournaments:create": lambda w: {"club_slug": w.club.slug},
    **{f"tournaments:{name}": _event for name in (
        "home", "edit", "entries", "entries_bulk", "self_register", "pair_next", "results", "standings",
        "crosstable", "bracket", "dashboard", "audit", "fairplay", "dashboard_action", "now_playing", "hall",
        "hall_pin", "announce", "table_cards", "print_crosstable", "print_report", "player_details",
        "print_prizes")},
    "tournaments:table_device": lambda w: {
        "slug": w.tournament.slug, "table": w.match.table,
        "code": devices.device_code(tournament_id=w.tournament.pk, table=w.match.table)},
    "tournaments:announcement_withdraw": lambda w: {"slug": w.tournament.slug, "pk": w.announcement.pk},
    "tournaments:substitute": lambda w: {"slug": w.tournament.slug, "pk": w.entry.pk},
    "tournaments:entry_payment": lambda w: {"slug": w.tournament.slug, "pk": w.entry.pk},
    "tournaments:entries_export": _event,
    "tournaments:entry_action": lambda w: {"slug": w.tournament.slug, "pk": w.entry.pk, "action": "check-in"},
    # in an individual event the Entry rows are its tables' partnerships, which no pair's page takes
    "tournaments:entry_action@partnership": lambda w: {
        "slug": w.solo.slug, "pk": w.solo_match.home_id, "action": "ask-withdraw"},
    "tournaments:substitute@partnership": lambda w: {"slug": w.solo.slug, "pk": w.solo_match.home_id},
    "tournaments:entry_action@withdraw": lambda w: {
        "slug": w.tournament.slug, "pk": w.entry.pk, "action": "withdraw"},
    **{f"tournaments:{name}": (lambda w: {"slug": w.tournament.slug, "number": 1}) for name in (
        "round", "round_edit", "unpair", "swap", "table_number", "print_pairings", "print_sheets")},
    "tournaments:export": lambda w: {"slug": w.tournament.slug, "what": "results", "fmt": "csv"},
    "tournaments:match": lambda w: {"slug": w.tournament.slug, "pk": w.match.pk},
    "tournaments:match_record": lambda w: {"slug": w.tournament.slug, "pk": w.match.pk},
    "tournaments:forfeit": lambda w: {"slug": w.tournament.slug, "pk": w.match.pk, "loser": w.match.home_id},
    "tournaments:bye_ask": lambda w: {"slug": w.tournament.slug},
    "tournaments:bye_withdraw": lambda w: {"slug": w.tournament.slug, "pk": w.bye.pk},
    "tournaments:withdrawal_answer": lambda w: {
        "slug": w.tournament.slug, "pk": w.ask.pk, "answer": "decline"},
    "tournaments:players_bulk": _solo,
    "tournaments:player_register": _solo,
    **{f"tournaments:{name}": (lambda w: {"slug": w.solo.slug, "pk": w.solo_entry.pk}) for name in (
        "player_substitute", "player_approve", "player_check_in", "player_withdraw", "player_ask_withdraw",
        "player_reinstate")},
    "tournaments:boards": lambda w: {"slug": w.dup.slug},
    "tournaments:print_boards": lambda w: {"slug": w.dup.slug},
    "tournaments:board": lambda w: {"slug": w.dup.slug, "number": 1},
    "tournaments:board_replay": lambda w: {"slug": w.dup.slug, "number": 1, "pk": w.dup_match.pk},
    "tournaments:board_entry": lambda w: {"slug": w.dup.slug, "pk": w.dup_match.pk},
    "tournaments:no_show": lambda w: {"slug": w.solo.slug, "pk": w.solo_match.pk, "entry": w.solo_entry.pk},
}
