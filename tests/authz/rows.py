"""The authorisation matrix: for every URL pattern and method, what each person gets.

Each row names a target (a pattern's name, or `name@object` where one pattern is asked about two
objects, see `targets.py`), a method and one outcome per role, in the order of `world.ROLES`:
anonymous, a signed-in stranger, a club member, an organiser, the owner, a player seated at the
private table, a player of another table. An outcome is a status (200, 400, 401, 403, 404, 405,
409), "login" (a 302 to the sign-in page, with a `next` back here) or "redirect" (a 302 elsewhere:
done, or told why not on the page it returns to), or a tuple of statuses any of which will do.

Refusals are the site's own words: a private table or match is the 404 of one that does not exist,
a page of the organisers' is 403 to the rest and the sign-in page to a visitor, a write without
a key is the API's 401. `data` is a form (or JSON body) that would succeed for a role allowed to
do it, so a refused role meets the permission check and not just a form error.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tests.authz.world import ROLES, World

LOGIN, REDIRECT = "login", "redirect"
#: A browser's Web Push subscription as a form (a P-256 point and a 16-byte secret, base64url).
PHONE = {
    "endpoint": "https://push.example.net/send/phone-1",
    "p256dh": "BPcq8YVyUXUVdxqA7S28vQ9b5H3ALbMTR4kEL5mBWy6W1iGn6TsHq8sTtIB2w5Iki3vI8ZwzqXPK8NwOXe7rzFQ",
    "auth": "7aYSk4y3BdW5bWE8x5hIpQ",
}
#: /health/ says 503 while a service it checks (the Celery worker) is not there; never more.
HEALTH = (200, 503)
Outcome = int | str | tuple[int, ...]


@dataclass(frozen=True)
class Row:
    target: str
    method: str
    expect: dict[str, Outcome]
    data: Callable[[World], dict[str, Any]] | None = None
    #: Roles told no on the page they are sent back to (a "redirect"): their write too must change nothing.
    unchanged: tuple[str, ...] = ()
    #: A "login" outcome comes with `?next=` back to the page (allauth's code pages send no way back).
    way_back: bool = True

    @property
    def pattern(self) -> str:
        return self.target.split("@")[0]


def by(*outcomes: Outcome) -> dict[str, Outcome]:
    assert len(outcomes) == len(ROLES)
    return dict(zip(ROLES, outcomes, strict=True))


def every(outcome: Outcome) -> dict[str, Outcome]:
    return by(*[outcome] * len(ROLES))


def signed_in(outcome: Outcome, anonymous: Outcome = LOGIN) -> dict[str, Outcome]:
    return by(anonymous, *[outcome] * (len(ROLES) - 1))


def managers(ok: Outcome, refused: Outcome = 403) -> dict[str, Outcome]:
    """The club's owners and organisers; 403 to the other signed-in, the sign-in page to a visitor."""
    return by(LOGIN, refused, refused, ok, ok, refused, refused)


def owner(ok: Outcome, refused: Outcome = 403) -> dict[str, Outcome]:
    return by(LOGIN, refused, refused, refused, ok, refused, refused)


def seat(ok: Outcome, refused: Outcome = 404) -> dict[str, Outcome]:
    """Only a player seated at the private table; the rest get the 404 of a table that is not there."""
    return by(refused, refused, refused, refused, refused, ok, refused)


def gets_405(target: str) -> Row:
    return Row(target, "POST", every(405))


def _pair_names(w: World) -> dict[str, Any]:
    return {"text": "Новичок Один & Новичок Два"}


def _swap(w: World) -> dict[str, Any]:
    first, second = w.tournament.entries.order_by("pk").values_list("pk", flat=True)[:2]
    return {"first": first, "second": second, "accept": "1"}


TABLE_PAGES = ("table", "invite", "verify_table", "state_json", "replay")
TABLE_WRITES = ("sit", "bots", "client_seed")

ROWS: list[Row] = [
    # --- accounts (allauth): the sign-in pages, and what a signed-in person finds there
    Row("account_login", "GET", signed_in(REDIRECT, anonymous=200)),
    Row("account_login", "POST", signed_in(REDIRECT, anonymous=200)),
    Row("account_logout", "GET", signed_in(200, anonymous=REDIRECT)),
    Row("account_logout", "POST", every(REDIRECT)),
    Row("account_inactive", "GET", every(200)),
    gets_405("account_inactive"),
    Row("account_signup", "GET", signed_in(REDIRECT, anonymous=200)),
    Row("account_signup", "POST", signed_in(REDIRECT, anonymous=200)),
    Row("account_reauthenticate", "GET", signed_in(200)),
    Row("account_reauthenticate", "POST", signed_in(200)),
    Row("account_request_reauthentication_code", "GET", signed_in(REDIRECT)),
    Row("account_request_reauthentication_code", "POST", signed_in(REDIRECT)),
    Row("account_confirm_reauthentication_code", "GET", signed_in(REDIRECT)),
    Row("account_confirm_reauthentication_code", "POST", signed_in(REDIRECT)),
    Row("account_email", "GET", signed_in(200)),
    Row("account_email", "POST", signed_in(REDIRECT)),
    Row("account_email_verification_sent", "GET", every(200)),
    gets_405("account_email_verification_sent"),
    Row("account_change_password", "GET", signed_in(200)),
    Row("account_change_password", "POST", signed_in(200)),
    Row("account_set_password", "GET", signed_in(REDIRECT)),
    Row("account_set_password", "POST", signed_in(REDIRECT)),
    Row("account_reset_password", "GET", every(200)),
    Row("account_reset_password", "POST", every(200)),
    # no code was sent: allauth starts the sign-in again, with no way back
    Row("account_confirm_login_code", "GET", signed_in(REDIRECT), way_back=False),
    Row("account_confirm_login_code", "POST", signed_in(REDIRECT), way_back=False),
    Row("account_confirm_email", "GET", every(200)),
    Row("account_confirm_email", "POST", every(404)),
    Row("account_reset_password_from_key_done", "GET", every(200)),
    gets_405("account_reset_password_from_key_done"),
    Row("account_reset_password_from_key", "GET", every(200)),
    Row("account_reset_password_from_key", "POST", every(200)),
    Row("account_reset_password_done", "GET", every(200)),
    gets_405("account_reset_password_done"),
    Row("set_language", "GET", every(REDIRECT)),
    Row("set_language", "POST", every(REDIRECT)),
    Row("health", "GET", every(HEALTH)),
    gets_405("health"),
    # --- the public API: reads for anyone (a key reads as its owner), writes with a write key
    *[Row(f"api:{name}", "GET", every(200)) for name in (
        "schema", "docs", "club_list", "club_detail", "player_list", "player_detail", "rating_list",
        "tournament_list", "tournament_detail", "round_list", "standings", "match_detail", "archive_list",
        "archive_detail@public", "archive_record@public")],
    *[gets_405(f"api:{name}") for name in (
        "schema", "docs", "club_list", "club_detail", "player_list", "player_detail", "rating_list",
        "tournament_detail", "round_list", "standings", "match_detail", "archive_list",
        "archive_detail@public", "archive_record@public", "archive_detail@private",
        "archive_record@private")],
    Row("api:archive_detail@private", "GET", seat(200)),
    Row("api:archive_record@private", "GET", seat(200)),
    Row("api:match_result", "GET", every(405)),
    # a read key is 403; a member's write key is 403 for a match he does not play in
    Row("api:match_result", "POST", by(401, 403, 403, 200, 200, 403, 403),
        data=lambda w: {"home_eyes": 12, "away_eyes": 7}),
    Row("api:match_confirm", "GET", every(405)),
    # nothing was reported, so an organiser's confirm is refused by the match's state
    Row("api:match_confirm", "POST", by(401, 403, 403, 409, 409, 403, 403)),
    Row("api:entry_list", "GET", every(200)),
    # a read key is 403; a member's write key is refused by the service (only organisers register)
    Row("api:entry_list", "POST", by(401, 403, 403, 201, 201, 403, 403),
        data=lambda w: {"player_a": w.users["member"].player.pk, "player_b": w.unclaimed.pk}),
    Row("api:entry_approve", "GET", every(405)),
    # the pair is approved already: the organiser's approval leaves it so
    Row("api:entry_approve", "POST", by(401, 403, 403, 200, 200, 403, 403)),
    Row("api:entry_withdraw", "GET", every(405)),
    # the member plays in no pair of it: only the organisers (or its own players) withdraw it
    Row("api:entry_withdraw", "POST", by(401, 403, 403, 200, 200, 403, 403)),
    # the other club's pair: found, but no key names its club
    *[Row(f"api:entry_{step}@other-club", "POST", by(401, 403, 403, 403, 403, 403, 403))
      for step in ("approve", "withdraw")],
    # a player of an individual event is no pair: not there for a write key, whoever holds it
    *[Row(f"api:entry_{step}@player", "POST", by(401, 403, 404, 404, 404, 403, 403))
      for step in ("approve", "withdraw")],
    # an entry inside its event: a pair, or a player of the individual event
    *[Row(f"api:event_entry_{step}@{event}", "GET", every(405))
      for step in ("approve", "withdraw", "reinstate") for event in ("pairs", "solo")],
    *[Row(f"api:event_entry_{step}@{event}", "POST", by(401, 403, 403, 200, 200, 403, 403))
      for step in ("approve", "withdraw") for event in ("pairs", "solo")],
    # neither is withdrawn, and round 1 is paired: the organiser's reinstate is refused by the event
    *[Row(f"api:event_entry_reinstate@{event}", "POST", by(401, 403, 403, 409, 409, 403, 403))
      for event in ("pairs", "solo")],
    # running an event needs an organising key: only the organiser's; the owner's key enters results
    Row("api:tournament_list", "POST", by(401, 403, 403, 201, 403, 403, 403),
        data=lambda w: {"club": w.club.slug, "name": "Новый турнир"}),
    Row("api:tournament_detail", "PATCH", by(401, 403, 403, 200, 403, 403, 403),
        data=lambda w: {"venue": "Дом культуры"}),
    # round 1 is paired: the event is not deleted, nor started again, nor checked in
    Row("api:tournament_detail", "DELETE", by(401, 403, 403, 409, 403, 403, 403)),
    Row("api:event_start", "GET", every(405)),
    Row("api:event_start", "POST", by(401, 403, 403, 409, 403, 403, 403)),
    Row("api:entries_bulk", "GET", every(405)),
    Row("api:entries_bulk", "POST", by(401, 403, 403, 201, 403, 403, 403),
        data=lambda w: {"entries": [{"player_a": w.users["member"].player.pk, "player_b": w.unclaimed.pk}]}),
    *[Row(f"api:event_entry_check_in@{event}", "GET", every(405)) for event in ("pairs", "solo")],
    *[Row(f"api:event_entry_check_in@{event}", "POST", by(401, 403, 403, 409, 403, 403, 403))
      for event in ("pairs", "solo")],
    Row("api:match_result@other-club", "POST", by(401, 403, 403, 403, 403, 403, 403),
        data=lambda w: {"home_eyes": 12, "away_eyes": 7}),
    Row("api:match_confirm@other-club", "POST", by(401, 403, 403, 403, 403, 403, 403)),
    # running an event needs an organising key: only the organiser's. Round 1 has no results, so
    # the next round waits (409); a swap of a match's own two pairs changes nothing (409); nothing
    # is disputed, so there is nothing to settle (409); the rest go through
    *[Row(f"api:{name}", "GET", every(405)) for name in (
        "round_pair_next", "round_unpair", "round_swap", "match_table", "match_correct", "match_forfeit",
        "match_settle", "match_dispute")],
    *[Row(f"api:{name}", "POST", by(401, 403, 403, organiser, 403, 403, 403), data=data)
      for name, organiser, data in (
        ("round_pair_next", 409, None),
        ("round_unpair", 200, lambda w: {"accept_warnings": True}),
        ("round_swap", 409, lambda w: {"first": w.match.home_id, "second": w.match.away_id}),
        ("match_table", 200, lambda w: {"table": 9}),
        ("match_correct", 200, lambda w: {"home_eyes": 12, "away_eyes": 3, "reason": "typo"}),
        ("match_forfeit", 200, lambda w: {"loser": w.match.away_id}),
        ("match_settle", 409, lambda w: {}))],
    # nothing was reported, so the organiser's dispute is refused by the match's state; a member
    # of the club who does not play in it may not dispute it
    Row("api:match_dispute", "POST", by(401, 403, 403, 409, 409, 403, 403), data=lambda w: {"note": ""}),
    Row("api:not_found", "GET", every(404)),
    Row("api:not_found", "POST", every(404)),
    # --- the rules of the game and the site's help: public pages to read, nothing to send
    Row("gameplay:rules", "GET", every(200)),
    Row("gameplay:rules", "POST", every(405)),
    Row("gameplay:rules_kozyol", "GET", every(200)),
    Row("gameplay:rules_kozyol", "POST", every(405)),
    Row("gameplay:rules_bilka2", "GET", every(200)),
    Row("gameplay:rules_bilka2", "POST", every(405)),
    Row("gameplay:help", "GET", every(200)),
    Row("gameplay:help", "POST", every(405)),
    # --- live tables
    Row("gameplay:lobby", "GET", every(200)),
    Row("gameplay:lobby", "POST", every(200)),
    Row("gameplay:create", "GET", every(200)),
    Row("gameplay:create", "POST", every(200)),  # an empty form: the page again, with its errors
    Row("gameplay:play_now", "GET", every(405)),
    Row("gameplay:play_now", "POST", every(REDIRECT)),
    Row("gameplay:verify", "GET", every(200)),
    # nothing pasted: told so, with 400
    Row("gameplay:verify", "POST", every(400)),
    *[Row(f"gameplay:{name}@private", method, seat(200))
      for name in TABLE_PAGES for method in ("GET", "POST")],
    *[Row(f"gameplay:{name}@public", method, every(200))
      for name in TABLE_PAGES for method in ("GET", "POST")],
    *[Row(f"gameplay:{name}@{which}", "GET", every(405))
      for name in TABLE_WRITES for which in ("private", "public")],
    # the private table: refused as missing; the seat is told why not (the match is on) on the table
    *[Row(f"gameplay:{name}@private", "POST", seat(REDIRECT), unchanged=ROLES) for name in TABLE_WRITES],
    # the public table is full and in play: anyone may ask, and is told no on the table page
    *[Row(f"gameplay:{name}@public", "POST", every(REDIRECT), unchanged=ROLES) for name in TABLE_WRITES],
    # a private table waiting for players: its link lets anyone see it and sit down; without the
    # link it is not there, but to the one who sits at it; only he calls in the bots
    Row("gameplay:table@open", "GET", seat(200)),
    Row("gameplay:invite@open", "GET", every(200)),
    Row("gameplay:sit@open", "POST", every(REDIRECT), data=lambda w: {"token": w.open_table.invite_token}),
    Row("gameplay:sit@open-uninvited", "POST", seat(REDIRECT), unchanged=ROLES),
    Row("gameplay:bots@open", "POST", seat(REDIRECT)),
    # a record is downloaded once the match is over; while it is played, no one gets it
    *[Row(f"gameplay:record_json@{which}", method, every(404))
      for which in ("private", "public") for method in ("GET", "POST")],
    *[Row(f"archive:table_match@{which}", method, every(404))  # not archived while in play
      for which in ("private", "public") for method in ("GET", "POST")],
    # --- the archive
    Row("archive:list", "GET", every(200)),
    Row("archive:list", "POST", every(200)),
    *[Row(f"archive:{name}@private", method, seat(200))
      for name in ("match", "record", "position_svg", "position_png") for method in ("GET", "POST")],
    *[Row(f"archive:{name}@public", method, every(200))
      for name in ("match", "record", "position_svg", "position_png") for method in ("GET", "POST")],
    *[Row(f"archive:{name}@{which}", method, every(404))  # online records have no deal sheet
      for name in ("sheet_csv", "sheet_json") for which in ("private", "public")
      for method in ("GET", "POST")],
    # only a player of a casual game against bots shares it: the world's archived games have no bot,
    # so the players are told why not on the match page and nothing changes
    Row("archive:share@private", "GET", every(405)),
    Row("archive:share@private", "POST", by(LOGIN, 404, 404, 404, 404, REDIRECT, 404), unchanged=ROLES),
    Row("archive:share@public", "GET", every(405)),
    Row("archive:share@public", "POST", by(LOGIN, *[REDIRECT] * 6), unchanged=ROLES),
    Row("archive:player", "GET", every(200)),
    Row("archive:player", "POST", every(200)),
    # a player's fair-play review: the staff only (none of these roles)
    *[Row("archive:fairplay_player", method, by(LOGIN, 404, 404, 404, 404, 404, 404))
      for method in ("GET", "POST")],
    # puzzles: a public match's for anyone (an answer is taken and shown); a private match's for no one
    Row("archive:puzzles", "GET", every(200)),
    Row("archive:puzzles", "POST", every(405)),
    Row("archive:puzzle@public", "GET", every(200)),
    Row("archive:puzzle@public", "POST", every(REDIRECT), data=lambda w: {"card": w.public_puzzle.card}),
    Row("archive:puzzle@private", "GET", every(404)),
    Row("archive:puzzle@private", "POST", every(404), data=lambda w: {"card": w.private_puzzle.card}),
    Row("archive:upload", "GET", managers(200)),
    # no club chosen, nothing saved: the form says why, with 400
    Row("archive:upload", "POST", managers(400)),
    # --- clubs
    Row("clubs:home", "GET", every(200)),
    Row("clubs:home", "POST", every(200)),
    # the site as an app: its manifest and the page the service worker shows offline
    Row("clubs:manifest", "GET", every(200)),
    Row("clubs:manifest", "POST", every(405)),
    Row("clubs:offline", "GET", every(200)),
    Row("clubs:offline", "POST", every(405)),
    Row("clubs:club_list", "GET", every(200)),
    Row("clubs:club_list", "POST", every(200)),
    Row("clubs:club_create", "GET", signed_in(200)),
    Row("clubs:club_create", "POST", signed_in(200)),
    Row("clubs:club_detail", "GET", every(200)),
    Row("clubs:club_detail", "POST", every(200)),
    Row("clubs:club_edit", "GET", owner(200)),
    Row("clubs:club_edit", "POST", owner(REDIRECT), data=lambda w: {"name": "Захвачен", "city": "Нигде"}),
    Row("clubs:club_join", "GET", signed_in(405)),
    Row("clubs:club_join", "POST", signed_in(REDIRECT)),  # clubs are open: anyone signed in joins
    Row("clubs:club_leave", "GET", signed_in(200)),
    Row("clubs:club_leave", "POST", signed_in(REDIRECT)),
    Row("clubs:members", "GET", owner(200)),
    Row("clubs:members", "POST", owner(200)),
    Row("clubs:member_add", "GET", signed_in(405)),
    Row("clubs:member_add", "POST", owner(REDIRECT), data=lambda w: {"who": "stranger", "role": "owner"}),
    # owners invite: a QR code shown in person, and its page; withdrawing one
    Row("clubs:member_invite_in_person", "GET", signed_in(405)),
    Row("clubs:member_invite_in_person", "POST", owner(REDIRECT), data=lambda w: {"role": "member"}),
    Row("clubs:member_invitation", "GET", owner(200)),
    Row("clubs:member_invitation", "POST", owner(200)),
    Row("clubs:member_invitation_withdraw", "GET", signed_in(405)),
    Row("clubs:member_invitation_withdraw", "POST", owner(REDIRECT)),
    # an invitation by name is there only for the account it reached; the others are told it is not valid
    Row("clubs:join_invitation", "GET", by(LOGIN, 200, 404, 404, 404, 404, 404)),
    Row("clubs:join_invitation", "POST", signed_in(REDIRECT), data=lambda w: {"answer": "decline"},
        unchanged=("member", "organiser", "owner", "seated", "other_player")),
    Row("clubs:member_role", "GET", signed_in(405)),
    Row("clubs:member_role", "POST", owner(REDIRECT), data=lambda w: {"role": "owner"}),
    Row("clubs:member_remove", "GET", owner(200)),
    Row("clubs:member_remove", "POST", owner(REDIRECT)),
    Row("clubs:audit", "GET", managers(200)),
    Row("clubs:audit", "POST", managers(200)),
    Row("clubs:roster", "GET", managers(200)),
    Row("clubs:roster", "POST", managers(200)),
    Row("clubs:roster_add", "GET", signed_in(405)),
    Row("clubs:roster_add", "POST", managers(REDIRECT), data=lambda w: {"display_name": "Новенький"}),
    Row("clubs:roster_bulk", "GET", managers(200)),
    Row("clubs:roster_bulk", "POST", managers(200)),
    Row("clubs:roster_add_member", "GET", signed_in(405)),
    Row("clubs:roster_add_member", "POST", managers(REDIRECT)),
    Row("clubs:roster_merge", "GET", managers(200)),
    Row("clubs:roster_merge", "POST", managers(200)),
    Row("clubs:roster_toggle", "GET", managers(405)),
    Row("clubs:roster_toggle", "POST", managers(REDIRECT)),
    Row("clubs:roster_invite", "GET", signed_in(405)),
    Row("clubs:roster_invite", "POST", managers(REDIRECT)),
    Row("clubs:invitation", "GET", managers(200)),
    Row("clubs:invitation", "POST", managers(200)),
    Row("clubs:player_search", "GET", every(200)),
    Row("clubs:player_search", "POST", every(200)),
    Row("clubs:player_detail", "GET", every(200)),
    Row("clubs:player_detail", "POST", every(200)),
    # a player with an account edits himself on his profile; nobody else edits him
    Row("clubs:player_edit@member", "GET", by(LOGIN, 403, REDIRECT, 403, 403, 403, 403)),
    Row("clubs:player_edit@member", "POST", by(LOGIN, 403, REDIRECT, 403, 403, 403, 403),
        data=lambda w: {"display_name": "Переименован", "city": "Нигде"}),
    Row("clubs:player_edit@unclaimed", "GET", managers(200)),
    Row("clubs:player_edit@unclaimed", "POST", managers(200)),
    Row("clubs:claim", "GET", every(200)),
    Row("clubs:claim", "POST", signed_in(REDIRECT)),
    Row("clubs:my_profile", "GET", signed_in(200)),
    Row("clubs:my_profile", "POST", by(LOGIN, REDIRECT, 200, 200, 200, 200, 200)),
    Row("clubs:api_token_create", "GET", signed_in(405)),
    Row("clubs:api_token_create", "POST", signed_in(400)),
    Row("clubs:api_token_revoke", "GET", signed_in(405)),
    Row("clubs:api_token_revoke", "POST", owner(REDIRECT, refused=404)),  # another's key: not there
    # --- a club's webhooks (the secret shown once to whoever adds one) and a tournament's event stream
    Row("webhooks:hooks", "GET", managers(200)),
    Row("webhooks:hooks", "POST", managers(200), data=lambda w: {
        "url": "https://93.184.216.34/bilka", "events": ["round.paired", "result.confirmed"]}),
    Row("webhooks:hook_toggle", "GET", signed_in(405)),
    Row("webhooks:hook_toggle", "POST", managers(REDIRECT)),
    Row("webhooks:hook_delete", "GET", signed_in(405)),
    Row("webhooks:hook_delete", "POST", managers(REDIRECT)),
    Row("webhooks:stream", "GET", every(200)),
    gets_405("webhooks:stream"),
    # --- tournaments and ratings
    Row("tournaments:list", "GET", every(200)),
    Row("tournaments:list", "POST", every(200)),
    *[Row(f"ratings:{name}", "GET", every(200)) for name in ("board", "how", "club", "city", "chart")],
    *[gets_405(f"ratings:{name}") for name in ("board", "how", "club", "city", "chart")],
    # the model's refit: staff only (none of the roles here), the sign-in page to a visitor
    Row("ratings:refit", "POST", by(LOGIN, 403, 403, 403, 403, 403, 403)),
    Row("ratings:refit", "GET", every(405)),
    *[Row(f"tournaments:{name}", method, every(200)) for name in (
        "club_list", "home", "entries", "round", "print_pairings", "results", "standings", "crosstable",
        "print_crosstable", "export", "match", "now_playing") for method in ("GET", "POST")],
    # a duplicate event's boards: the list and a board's page to anyone (its results and hands only
    # once every table played it: tests/tournaments/duplicate), the hand records to the organisers;
    # a table's entry form to anyone, whose post without the pairs' PINs writes nothing
    *[Row(f"tournaments:{name}", method, every(200)) for name in ("boards", "board", "board_entry")
      for method in ("GET", "POST")],
    *[Row("tournaments:print_boards", method, managers(200)) for method in ("GET", "POST")],
    # a board's replay at a live table: the world's duplicate table played over the board, so there is
    # none for anyone (tests/tournaments/duplicate/test_online.py asks one played online)
    Row("tournaments:board_replay", "GET", every(404)),
    Row("tournaments:board_replay", "POST", every(405)),
    Row("tournaments:bracket", "GET", every(404)),  # a Swiss has no bracket
    Row("tournaments:bracket", "POST", every(404)),
    *[Row(f"tournaments:{name}", method, managers(200)) for name in (
        "create", "edit", "substitute", "print_sheets", "dashboard", "audit", "player_substitute",
        "print_report", "print_prizes")
      for method in ("GET", "POST")],
    *[Row(f"tournaments:{name}", "GET", signed_in(405)) for name in (
        "entries_bulk", "self_register", "entry_action", "pair_next", "round_edit", "swap", "table_number",
        "players_bulk", "player_register", "player_approve", "player_check_in", "player_ask_withdraw",
        "player_reinstate", "dashboard_action")],
    # an individual event's partnership is no pair: not there for anyone
    *[Row("tournaments:entry_action@partnership", method, signed_in(404)) for method in ("GET", "POST")],
    *[Row("tournaments:substitute@partnership", method, managers(404)) for method in ("GET", "POST")],
    # withdrawing a pair asks first: the organisers get the confirm page, the rest are refused
    Row("tournaments:entry_action@withdraw", "GET", managers(200)),
    Row("tournaments:entry_action@withdraw", "POST", managers(REDIRECT)),
    Row("tournaments:entries_bulk", "POST", managers(REDIRECT), data=_pair_names),
    Row("tournaments:players_bulk", "POST", managers(REDIRECT), data=lambda w: {"text": "Новичок Один"}),
    # self-registration is off: the page says so to anyone
    Row("tournaments:self_register", "POST", signed_in(REDIRECT), unchanged=ROLES),
    Row("tournaments:player_register", "POST", signed_in(403)),
    *[Row(f"tournaments:{name}", "POST", managers(REDIRECT)) for name in (
        "entry_action", "pair_next", "round_edit", "unpair", "player_approve", "player_check_in",
        "player_withdraw", "player_reinstate", "no_show", "forfeit", "withdrawal_answer")],
    Row("tournaments:swap", "POST", managers(REDIRECT), data=_swap),
    Row("tournaments:table_number", "POST", managers(REDIRECT),
        data=lambda w: {"match": w.match.pk, "table": 7}),
    *[Row(f"tournaments:{name}", "GET", managers(200)) for name in ("unpair", "player_withdraw", "no_show",
                                                                     "forfeit")],
    Row("tournaments:withdrawal_answer", "GET", managers(405)),
    # a requested bye: the entry's own players (none of these roles) and the organisers
    Row("tournaments:bye_ask", "GET", signed_in(405)),
    Row("tournaments:bye_ask", "POST", managers(REDIRECT), data=lambda w: {
        "entry": w.tournament.entries.filter(seed__gt=0).order_by("-pk").values_list("pk", flat=True)[0],
        "round": 2}),
    Row("tournaments:bye_withdraw", "GET", signed_in(405)),
    Row("tournaments:bye_withdraw", "POST", managers(REDIRECT)),
    # only the entry's own player asks to withdraw
    Row("tournaments:player_ask_withdraw", "POST", signed_in(403)),
    Row("tournaments:match_record", "GET", managers(200)),
    # the event's fair-play review: its page and the button that queues a run
    Row("tournaments:fairplay", "GET", managers(200)),
    Row("tournaments:fairplay", "POST", managers(REDIRECT)),
    Row("tournaments:match_record", "POST", managers(400)),
    Row("tournaments:dashboard_action", "POST", managers(404)),  # no such action: not there
    # the entry fee at the desk: its form and the entries export with the payments are the organisers'
    Row("tournaments:entries_export", "GET", managers(200)),
    Row("tournaments:entries_export", "POST", managers(200)),
    Row("tournaments:entry_payment", "GET", signed_in(405)),
    Row("tournaments:entry_payment", "POST", managers(REDIRECT), data=lambda w: {"paid": "unpaid"}),
    # the hall screen is as public as the tournament page; what the organiser sends it is his alone
    Row("tournaments:hall", "GET", every(200)),
    Row("tournaments:hall", "POST", every(200)),
    *[Row(f"tournaments:{name}", "GET", signed_in(405)) for name in (
        "hall_pin", "announce", "announcement_withdraw")],
    Row("tournaments:hall_pin", "POST", managers(REDIRECT), data=lambda w: {"view": "standings"}),
    Row("tournaments:announce", "POST", managers(REDIRECT), data=lambda w: {"text": "Второй тур в 14:00"}),
    Row("tournaments:announcement_withdraw", "POST", managers(REDIRECT)),
    # a table's device opens for anyone with the table's code; each pair reports and confirms with its PIN
    Row("tournaments:table_device", "GET", every(200)),
    Row("tournaments:table_device", "POST", every(REDIRECT), data=lambda w: {
        "match": w.match.pk, "action": "final", "final-home_eyes": "12", "final-away_eyes": "7",
        "pin": w.match.home_pin}),
    # the players' details the prize categories read: the organisers' alone, like the fees
    Row("tournaments:player_details", "GET", managers(200)),
    Row("tournaments:player_details", "POST", managers(REDIRECT)),
    Row("tournaments:table_cards", "GET", managers(200)),
    Row("tournaments:table_cards", "POST", managers(200)),
    Row("tournaments:my_matches", "GET", signed_in(200)),
    Row("tournaments:my_matches", "POST", signed_in(200)),
    Row("tournaments:my_notifications", "GET", signed_in(200)),
    Row("tournaments:my_notifications", "POST", signed_in(200)),
    # a phone asks for the user's notices by Web Push (any signed-in user, for himself)
    Row("tournaments:phone_subscribe", "GET", signed_in(405)),
    Row("tournaments:phone_subscribe", "POST", signed_in(201), data=lambda w: PHONE),
    Row("tournaments:phone_forget", "GET", signed_in(405)),
    Row("tournaments:phone_forget", "POST", signed_in(200), data=lambda w: {"endpoint": PHONE["endpoint"]}),
    Row("tournaments:service_worker", "GET", every(200)),
    Row("tournaments:service_worker", "POST", every(405)),
]


# --- websockets: who may open each socket, and what each table-socket action does for whom
OPEN = "open"
#: The table socket: "closed" (refused before the handshake: a private table is not there),
#: "forbidden" (a refusal frame: not your seat), and for a seat what the table does.
CLOSED, FORBIDDEN = "closed", "forbidden"


@dataclass(frozen=True)
class SocketRow:
    route: str  # the websocket route string, as config/routing.py has it
    target: str  # "private" or "public" for a table, else ""
    expect: dict[str, Outcome]


@dataclass(frozen=True)
class ActionRow:
    action: str  # a message type of TableConsumer.ACTIONS
    table: str  # "private" or "public"
    expect: dict[str, Outcome]


def private_seat(ok: Outcome) -> dict[str, Outcome]:
    return by(CLOSED, CLOSED, CLOSED, CLOSED, CLOSED, ok, CLOSED)


def public_seat(ok: Outcome, spectators: Outcome) -> dict[str, Outcome]:
    """At the public table "other_player" is the player to move; everyone else watches."""
    return by(*[spectators] * 6, ok)


SOCKET_ROWS: list[SocketRow] = [
    SocketRow("ws/table/<int:table_id>/", "private", by(4404, 4404, 4404, 4404, 4404, OPEN, 4404)),
    SocketRow("ws/table/<int:table_id>/", "public", every(OPEN)),
    SocketRow("ws/lobby/", "", every(OPEN)),
    SocketRow("ws/notifications/", "", signed_in(OPEN, anonymous=4401)),
    # it sends only "changed" and a version number; the pages it points to are public
    SocketRow("ws/tournament/<int:tournament_id>/", "", every(OPEN)),
]

ACTION_ROWS: list[ActionRow] = [
    ActionRow("ping", "private", private_seat("pong")),
    ActionRow("ping", "public", every("pong")),
    # a snapshot for anyone who may watch; its hand is the viewer's own or none (checked apart)
    ActionRow("sync", "private", private_seat("snapshot")),
    ActionRow("sync", "public", every("snapshot")),
    ActionRow("move", "private", private_seat("ack")),
    ActionRow("move", "public", public_seat("ack", spectators=FORBIDDEN)),
    ActionRow("resign", "private", private_seat("ended")),
    ActionRow("resign", "public", public_seat("ended", spectators=FORBIDDEN)),
]
