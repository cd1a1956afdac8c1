"""The table of page cases: every page a user can open, as whom, and with what a bad POST sends.

One `Case` is one request (a GET, or a POST followed to the page it lands on, so refusals and
outcome messages are read too). Every URL pattern of the site needs at least one case here or a
line in `SKIPPED`; a new page without either fails `test_every_page_has_a_case`. Cases run in this
order on one site, so those that change things come after those that read them.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.urls import NoReverseMatch, reverse

from archive.models import ArchivedMatch
from clubs.models import ApiToken
from tests.archive.puzzle_factory import make_puzzle
from tournaments.selectors import devices
from webhooks.models import Delivery, TournamentEvent, Webhook

from .scene import Scene

#: Patterns no reader sees as a page: the admin (Django's own words), machine answers, websockets,
#: the language switch itself (it only redirects), and allauth flows this site does not turn on.
SKIPPED = {
    "admin:*": "the admin site is Django's own, for staff",
    "gameplay:state_json": "JSON for the table script",
    "gameplay:record_json": "JSON game record",
    "archive:record": "JSON game record file",
    "archive:position_svg": "a picture of a position (its words are the replay's, read there)",
    "archive:position_png": "a picture of a position (its words are the replay's, read there)",
    "archive:sheet_csv": "CSV score sheet file",
    "archive:sheet_json": "JSON score sheet file",
    "tournaments:export": "CSV/JSON files",
    "tournaments:entries_export": "the organisers' CSV file of entries and fees",
    "ratings:chart": "an SVG picture of numbers and dates (its alt text is on the player's page)",
    "ratings:refit": "a staff POST that sends back to the explanation page (its words are that page's)",
    "health": "a machine check",
    "tournaments:phone_subscribe": "JSON for the phone-notices script (its refusals: test_phones.py)",
    "tournaments:phone_forget": "JSON for the phone-notices script",
    "tournaments:service_worker": "the service worker's script",
    "clubs:manifest": "the web app manifest, JSON (its names in every language: tests/clubs/test_app.py)",
    "webhooks:stream": "a tournament's events for programs (text/event-stream of JSON)",
    "api:*": (
        "the API's JSON answers and schema; the docs page shows the schema's English descriptions and"
        " Swagger UI's English, its own words are read in tests/api/test_api_docs_page.py"
    ),
    "set_language": "redirects only",
    "account_reauthenticate": "no reauthentication flow is used",
    "account_request_reauthentication_code": "login by code is off",
    "account_confirm_reauthentication_code": "login by code is off",
    "account_confirm_login_code": "login by code is off",
    "account_inactive": "accounts are never deactivated by the site",
    "account_set_password": "every account has a password",
}

#: Pages other work adds to the site at the same time: their cases run once the page exists
#: (a case naming a page that neither exists nor is listed here is a mistake and fails).
LATER = {
    "clubs:audit",
    "tournaments:audit",
    "tournaments:list",
    "tournaments:player_ask_withdraw",
    "tournaments:withdrawal_answer",
    "tournaments:forfeit",
    "tournaments:unpair",
    "tournaments:swap",
    "tournaments:table_number",
    "tournaments:player_substitute",
}


def oleh_player(s: Scene) -> int:
    return s.users["oleh"].player.pk


@dataclass(frozen=True)
class Case:
    """One request: the URL pattern's name, who asks (a demo username or None), where, and a POST."""

    name: str
    who: str | None
    path: Callable[[Scene], str]
    post: Callable[[Scene], dict[str, Any]] | None = None
    label: str = ""
    extra: dict = field(default_factory=dict)

    def __str__(self) -> str:
        return f"{self.name}{' (' + self.label + ')' if self.label else ''} as {self.who or 'a visitor'}"


def reverse_any(name: str, *arg_lists: list) -> str:
    """The first of ``arg_lists`` that ``name`` takes (a page whose address gains a part later)."""
    for args in arg_lists:
        try:
            return reverse(name, args=args)
        except NoReverseMatch:
            continue
    raise NoReverseMatch(f"{name} takes none of {arg_lists}")


def url(name: str, *args: Callable[[Scene], Any]) -> Callable[[Scene], str]:
    return lambda s: reverse(name, args=[a(s) for a in args])


def slug(attr: str) -> Callable[[Scene], str]:
    return lambda s: getattr(s, attr).slug


def board_replay_path(s: Scene) -> str:
    """The replay of board 1 at the duplicate event's table 1, its set played at a live table: a
    finished table of boards is put in the table's place (the scene's results were typed in)."""
    import random

    from gameplay.engine import MatchState, Rules, write_record
    from gameplay.engine.boards import BoardSet
    from gameplay.engine.state import Phase
    from gameplay.models import Table, TableStatus
    from tournaments.formats.duplicate import event_seed, set_boards
    from tournaments.models import Match, Tournament

    event, match = Tournament.objects.get(pk=s.duplicate.pk), s.dup_match  # its seed drawn since
    boards = BoardSet.from_seed(event_seed(event), set_boards(event, match.slot), event=event.slug)
    state = MatchState(Rules.from_json(event.rules), boards=boards)
    rng = random.Random(1)  # noqa: S311 - test moves
    while state.phase != Phase.OVER:
        state.apply(rng.choice(state.legal_actions()))
    table = Table.objects.create(rules=event.rules, status=TableStatus.FINISHED, record=write_record(state),
                                 boards=boards.to_json(), shuffle_seed="", casual=False)
    Match.objects.filter(pk=match.pk).update(live_table=table.pk, reported_side="table")
    return reverse("tournaments:board_replay", args=[event.slug, 1, match.pk]) + "?deal=1"


def match_url(attr: str) -> Callable[[Scene], str]:
    return lambda s: getattr(s, attr).get_absolute_url()


def device_url(attr: str) -> Callable[[Scene], str]:
    """The table device of the table ``attr``'s match is played at."""

    def at(s: Scene) -> str:
        m = getattr(s, attr)
        code = devices.device_code(tournament_id=m.tournament_id, table=m.table)
        return reverse("tournaments:table_device", args=[m.tournament.slug, m.table, code])

    return at


def device_wrong_pin(s: Scene) -> dict:
    """A report on the open match's table device with a PIN of neither side."""
    m = devices.device_match(tournament=s.open_match.tournament, table=s.open_match.table)
    wrong = next(p for p in ("0000", "1111", "2222") if p not in (m.home_pin, m.away_pin))
    return {"match": m.pk, "action": "final", "final-home_eyes": "12", "final-away_eyes": "7", "pin": wrong}


def club(s: Scene) -> str:
    return s.club.slug


def first_round(attr: str) -> Callable[[Scene], int]:
    return lambda s: 1


def final_score(home, away) -> Callable[[Scene], dict]:
    return lambda s: {"action": "final", "final-home_eyes": home, "final-away_eyes": away}


def deal_sheet(s: Scene) -> dict:
    """A deal sheet no game can give: 70 + 40 points, and a deal written after the match was won."""
    return {"action": "deals", "deal-1-home": "70", "deal-1-away": "40", "deal-1-jack": "1"}


def user_id(username: str) -> Callable[[Scene], int]:
    return lambda s: s.users[username].pk


def player_id(username: str) -> Callable[[Scene], int]:
    return lambda s: s.users[username].player.pk


def shared_puzzle_row(s: Scene) -> Any:
    """A puzzle of the game against bots that its player shared (made once, from a bot match)."""
    return make_puzzle(ArchivedMatch.objects.get(table_id=s.finished_table.pk))


def shared_puzzle(s: Scene) -> int:
    return shared_puzzle_row(s).pk


def missed_card(s: Scene) -> str:
    puzzle = shared_puzzle_row(s)
    return next(c for c in puzzle.view["legal"] if c != puzzle.card)


def roster_entry(s: Scene) -> int:
    return s.club.roster.filter(player__user__isnull=True).order_by("pk").first().pk


def unclaimed_player(s: Scene) -> int:
    return s.invitation.player_id


def hook_id(s: Scene) -> int:
    return Webhook.objects.filter(club=s.club).order_by("pk").first().pk


def hooks_with_a_log(s: Scene) -> str:
    """The webhooks page once deliveries failed and the hook was turned off for it: the log's words."""
    hook = Webhook.objects.filter(club=s.club).order_by("pk").first()
    event = TournamentEvent.objects.filter(tournament=s.swiss).order_by("pk").first() or (
        TournamentEvent.objects.create(tournament=s.swiss, type="round.paired", data={"round": 1}))
    for error, code in (("status", 500), ("timeout", None), ("refused_address", None)):
        Delivery.objects.create(
            hook=hook, event=event, status="failed", attempts=6, status_code=code, error=error
        )
        event = TournamentEvent.objects.create(tournament=s.swiss, type="result.confirmed", data={})
    Delivery.objects.create(hook=hook, event=event, status="delivered", attempts=1, status_code=204)
    Webhook.objects.filter(pk=hook.pk).update(active=False, disabled_for_failures=True, failures=20)
    return reverse("webhooks:hooks", args=[s.club.slug])


def entry_of(attr: str) -> Callable[[Scene], int]:
    return lambda s: getattr(s, attr).entries.order_by("pk").first().pk


def no_show_url(s: Scene) -> str:
    entry = s.mix_match_entry
    return reverse_any(
        "tournaments:no_show", [s.mix.slug, s.mix_match.pk, entry], [s.mix.slug, s.mix_match.pk]
    )


def mix_entry_of(username: str) -> Callable[[Scene], int]:
    return lambda s: s.mix.individual_entries.get(player__user=s.users[username]).pk


def mix_entry(s: Scene) -> int:
    return s.mix.individual_entries.order_by("pk").first().pk


CASES: list[Case] = [
    # --- public pages
    Case("clubs:home", None, url("clubs:home")),
    Case("clubs:home", "asel", url("clubs:home")),
    Case("clubs:offline", None, url("clubs:offline")),
    Case("clubs:club_list", None, url("clubs:club_list")),
    Case("clubs:club_detail", None, url("clubs:club_detail", club)),
    Case("clubs:player_search", None, lambda s: reverse("clubs:player_search") + "?q=Ерлан"),
    Case("clubs:player_detail", None, url("clubs:player_detail", player_id("asel"))),
    Case("tournaments:club_list", None, url("tournaments:club_list", club)),
    Case("ratings:board", None, url("ratings:board")),
    Case("ratings:board", "asel", url("ratings:board"), label="signed in"),
    Case("ratings:board", None, lambda s: reverse("ratings:board") + "?game=kozyol", label="Kozyol's rating"),
    Case("ratings:board", None, lambda s: reverse("ratings:board") + "?game=bilka2", label="Bilka for two's"),
    Case("ratings:club", None, url("ratings:club", club)),
    Case("ratings:city", None, lambda s: reverse("ratings:city", args=["uspenka"])),
    Case("ratings:how", None, url("ratings:how")),
    Case("tournaments:home", None, url("tournaments:home", slug("swiss"))),
    Case("tournaments:home", None, url("tournaments:home", slug("cup")), label="knockout"),
    Case("tournaments:home", None, url("tournaments:home", slug("mix")), label="individual"),
    Case("tournaments:home", "asel", url("tournaments:home", slug("fresh")), label="open for entries"),
    Case("tournaments:entries", None, url("tournaments:entries", slug("swiss"))),
    Case("tournaments:entries", None, url("tournaments:entries", slug("mix")), label="individual"),
    Case("tournaments:round", None, url("tournaments:round", slug("swiss"), first_round("swiss"))),
    Case(
        "tournaments:round",
        None,
        url("tournaments:round", slug("mix"), first_round("mix")),
        label="individual",
    ),
    Case(
        "tournaments:print_pairings", None, url("tournaments:print_pairings", slug("swiss"), first_round(""))
    ),
    Case(
        "tournaments:print_sheets",
        "organiser",
        url("tournaments:print_sheets", slug("swiss"), first_round("")),
    ),
    Case(
        "tournaments:print_sheets",
        "organiser",
        url("tournaments:print_sheets", slug("mix"), first_round("")),
        label="individual",
    ),
    Case("tournaments:results", None, url("tournaments:results", slug("swiss"))),
    Case("tournaments:standings", None, url("tournaments:standings", slug("swiss"))),
    Case("tournaments:standings", None, url("tournaments:standings", slug("cup")), label="knockout"),
    Case("tournaments:standings", None, url("tournaments:standings", slug("mix")), label="individual"),
    Case("tournaments:crosstable", None, url("tournaments:crosstable", slug("league"))),
    Case("tournaments:print_crosstable", None, url("tournaments:print_crosstable", slug("swiss"))),
    Case(
        "tournaments:print_crosstable",
        None,
        url("tournaments:print_crosstable", slug("league")),
        label="all-play-all",
    ),
    Case("tournaments:print_report", "organiser", url("tournaments:print_report", slug("swiss"))),
    Case(
        "tournaments:print_report",
        "organiser",
        url("tournaments:print_report", slug("cup")),
        label="knockout",
    ),
    Case(
        "tournaments:print_report",
        "organiser",
        url("tournaments:print_report", slug("mix")),
        label="individual",
    ),
    Case(
        "tournaments:print_sheets",
        "organiser",
        url("tournaments:print_sheets", slug("series"), first_round("series")),
        label="best-of series",
    ),
    Case("tournaments:bracket", None, url("tournaments:bracket", slug("cup"))),
    Case("tournaments:match", None, match_url("confirmed_match")),
    Case("tournaments:match", None, match_url("reported_match"), label="waiting for a PIN"),
    Case("tournaments:match", None, match_url("mix_match"), label="individual"),
    Case("tournaments:now_playing", None, url("tournaments:now_playing", slug("swiss"))),
    Case("gameplay:rules", None, url("gameplay:rules")),
    Case("gameplay:rules_kozyol", None, url("gameplay:rules_kozyol")),
    Case("gameplay:rules_bilka2", None, url("gameplay:rules_bilka2")),
    Case("gameplay:help", None, url("gameplay:help")),
    Case("gameplay:lobby", None, url("gameplay:lobby")),
    Case("gameplay:create", None, url("gameplay:create")),
    Case("gameplay:create", None, lambda s: reverse("gameplay:create") + "?game=kozyol",
         label="Kozyol's house rules"),
    Case("gameplay:create", None, lambda s: reverse("gameplay:create") + "?game=bilka-2",
         label="Bilka for two's house rules"),
    Case("gameplay:table", None, lambda s: s.table.get_absolute_url(), label="bots playing, watched"),
    Case("gameplay:table", "asel", lambda s: s.table.get_absolute_url(), label="bots playing, seated"),
    Case("gameplay:table", None, lambda s: s.finished_table.get_absolute_url(), label="finished"),
    Case("gameplay:table", "asel", lambda s: s.open_table.get_absolute_url(), label="open, bot levels"),
    Case("gameplay:table", "oleh", lambda s: s.kozyol_table.get_absolute_url(), label="Kozyol khvalyony"),
    Case("gameplay:table", "oleh", lambda s: s.bilka2_table.get_absolute_url(), label="Bilka for two"),
    Case("gameplay:replay", None, url("gameplay:replay", lambda s: s.finished_table.pk)),
    Case("gameplay:verify_table", None, url("gameplay:verify_table", lambda s: s.finished_table.pk)),
    Case("gameplay:verify_table", None, url("gameplay:verify_table", lambda s: s.table.pk), label="playing"),
    Case("gameplay:verify", None, url("gameplay:verify")),
    Case("archive:list", None, url("archive:list")),
    Case("archive:list", "organiser", lambda s: reverse("archive:list") + f"?club={s.club.pk}&q=zz",
         label="filtered, nothing found"),
    Case("archive:match", "oleh",
         lambda s: ArchivedMatch.objects.get(table_id=s.finished_table.pk).get_absolute_url(),
         label="online, against bots: its player may share it"),
    Case("archive:share", "oleh",
         lambda s: reverse("archive:share",
                           args=[ArchivedMatch.objects.get(table_id=s.finished_table.pk).pk]),
         post=lambda s: {"public": "1"}, label="shared with everyone"),
    Case("archive:match", "organiser",
         lambda s: ArchivedMatch.objects.get(tournament_match=s.confirmed_match.pk).get_absolute_url(),
         label="tournament"),
    Case("archive:table_match", None, url("archive:table_match", lambda s: s.finished_table.pk)),
    Case("archive:player", None,
         url("archive:player", lambda s: s.users["oleh"].player.pk)),
    Case("archive:player", "staff", url("archive:player", lambda s: s.users["oleh"].player.pk),
         label="with the staff's fair-play link"),
    Case("archive:fairplay_player", "staff", url("archive:fairplay_player", oleh_player)),
    Case("archive:fairplay_player", "staff", url("archive:fairplay_player", oleh_player),
         post=lambda s: {}, label="run again"),
    Case("archive:puzzles", None, url("archive:puzzles"), label="none yet"),
    Case("archive:puzzle", None, url("archive:puzzle", shared_puzzle), label="the position"),
    Case("archive:puzzle", "oleh", url("archive:puzzle", shared_puzzle),
         post=lambda s: {"card": "ZZ"}, label="a forged card"),
    Case("archive:puzzle", "oleh", url("archive:puzzle", shared_puzzle),
         post=lambda s: {"card": shared_puzzle_row(s).card}, label="solved: the solution"),
    Case("archive:puzzle", None, url("archive:puzzle", shared_puzzle),
         post=lambda s: {"card": missed_card(s)}, label="missed, as a visitor"),
    Case("archive:puzzles", "oleh", url("archive:puzzles"), label="with a streak"),
    # --- accounts
    Case("account_login", None, url("account_login")),
    Case(
        "account_login",
        None,
        url("account_login"),
        post=lambda s: {"login": "asel", "password": "wrong"},
        label="wrong password",
    ),
    Case("account_signup", None, url("account_signup")),
    Case(
        "account_signup",
        None,
        url("account_signup"),
        post=lambda s: {"email": "x", "username": "asel", "password1": "1", "password2": "2"},
        label="bad",
    ),
    Case("account_reset_password", None, url("account_reset_password")),
    Case("account_reset_password_done", None, url("account_reset_password_done")),
    Case(
        "account_reset_password_from_key",
        None,
        lambda s: reverse("account_reset_password_from_key", kwargs={"uidb36": "2", "key": "bad-key"}),
    ),
    Case("account_reset_password_from_key_done", None, url("account_reset_password_from_key_done")),
    Case("account_email_verification_sent", None, url("account_email_verification_sent")),
    Case("account_confirm_email", None, lambda s: reverse("account_confirm_email", args=["bad-key"])),
    Case("account_logout", "asel", url("account_logout")),
    Case("account_change_password", "asel", url("account_change_password")),
    Case("account_email", "asel", url("account_email")),
    # --- a player's pages
    Case("clubs:my_profile", "asel", url("clubs:my_profile")),
    Case(
        "clubs:api_token_create", "asel", url("clubs:api_token_create"),
        post=lambda s: {"name": "Ноутбук судьи", "scope": "read"}, label="a new key shown once",
    ),
    Case(
        "clubs:api_token_create", "asel", url("clubs:api_token_create"),
        post=lambda s: {"name": "", "scope": "write"}, label="no name, no club",
    ),
    Case(
        "clubs:api_token_revoke", "asel",
        lambda s: reverse("clubs:api_token_revoke", args=[ApiToken.objects.filter(user__username="asel")
                                                          .values_list("pk", flat=True).first() or 0]),
        post=lambda s: {},
    ),
    Case("clubs:player_edit", "asel", url("clubs:player_edit", player_id("asel"))),
    Case("clubs:claim", "ivan", lambda s: reverse("clubs:claim", args=[s.invitation.token])),
    Case("tournaments:my_matches", "asel", url("tournaments:my_matches")),
    Case("tournaments:my_notifications", "asel", url("tournaments:my_notifications")),
    Case("tournaments:match", "asel", match_url("reported_match"), label="own report"),
    Case(
        "tournaments:match",
        None,
        match_url("reported_match"),
        post=lambda s: {"action": "confirm", "pin": "0000"},
        label="wrong PIN",
    ),
    Case("tournaments:match", None, match_url("open_match"), label="report by PIN"),
    Case("tournaments:table_device", None, device_url("open_match")),
    Case("tournaments:table_device", None, device_url("reported_match"), label="to confirm"),
    Case(
        "tournaments:table_device", None, device_url("open_match"), post=device_wrong_pin, label="wrong PIN"
    ),
    Case("tournaments:match", "organiser", match_url("open_match"), post=final_score(13, 7), label="13 eyes"),
    Case(
        "tournaments:match", "organiser", match_url("open_match"), post=final_score(-1, 12), label="-1 eyes"
    ),
    Case(
        "tournaments:match", "organiser", match_url("open_match"), post=final_score("abc", 12), label="text"
    ),
    Case(
        "tournaments:match", "organiser", match_url("open_match"), post=final_score(7, 9), label="no winner"
    ),
    Case("tournaments:match", "organiser", match_url("open_match"), post=deal_sheet, label="bad deal sheet"),
    Case(
        "tournaments:match",
        "organiser",
        match_url("open_match"),
        post=lambda s: {**deal_sheet(s), "action": "preview"},
        label="bad deal sheet preview",
    ),
    Case(
        "tournaments:match",
        "organiser",
        match_url("open_match"),
        post=lambda s: {"action": "deals", "deal-1-home": "x", "deal-2-home": "60", "deal-2-away": "60"},
        label="half-written deal sheet",
    ),
    # --- the organiser's pages
    Case("tournaments:table_cards", "organiser", url("tournaments:table_cards", slug("swiss"))),
    Case("tournaments:player_details", "organiser", url("tournaments:player_details", slug("cup"))),
    Case("tournaments:print_prizes", "organiser", url("tournaments:print_prizes", slug("cup"))),
    Case("tournaments:home", None, url("tournaments:home", slug("duplicate")), label="duplicate"),
    Case("tournaments:standings", None, url("tournaments:standings", slug("duplicate")), label="duplicate"),
    Case("tournaments:boards", "organiser", url("tournaments:boards", slug("duplicate"))),
    Case("tournaments:home", None, url("tournaments:home", slug("ind_duplicate")),
         label="individual duplicate"),
    Case("tournaments:standings", None, url("tournaments:standings", slug("ind_duplicate")),
         label="individual duplicate"),
    Case("tournaments:board", None, url("tournaments:board", slug("ind_duplicate"), lambda s: 1),
         label="individual duplicate"),
    Case("tournaments:board", None, url("tournaments:board", slug("duplicate"), lambda s: 1)),
    Case("tournaments:board", None, url("tournaments:board", slug("duplicate"), lambda s: 3),
         label="not played yet"),
    Case("tournaments:print_boards", "organiser", url("tournaments:print_boards", slug("duplicate"))),
    Case("tournaments:board_entry", None, url("tournaments:board_entry", slug("duplicate"),
                                                lambda s: s.dup_match.pk),
         post=lambda s: {"ns_1": "7", "home_pin": "x", "away_pin": "y"}, label="wrong PINs"),
    Case("tournaments:board_entry", "organiser", url("tournaments:board_entry", slug("duplicate"),
                                                       lambda s: s.dup_match.pk),
         post=lambda s: {"ns_1": "121"}, label="points out of range"),
    Case("tournaments:board_replay", None, board_replay_path, label="played online"),
    Case("tournaments:create", "organiser", url("tournaments:create", club)),
    Case(
        "tournaments:create",
        "organiser",
        url("tournaments:create", club),
        post=lambda s: {"name": "", "format": "swiss"},
        label="empty form",
    ),
    Case("tournaments:edit", "organiser", url("tournaments:edit", slug("swiss"))),
    Case("tournaments:edit", "organiser", url("tournaments:edit", slug("fresh")), label="not started"),
    Case("tournaments:entries", "organiser", url("tournaments:entries", slug("fresh")), label="organiser"),
    Case(
        "tournaments:entries", "organiser", url("tournaments:entries", slug("swiss")), label="requested byes"
    ),
    Case("tournaments:entries", "asel", url("tournaments:entries", slug("mix")), label="a player's byes"),
    Case(
        "tournaments:bye_ask",
        "organiser",
        url("tournaments:bye_ask", slug("swiss")),
        post=lambda s: {"entry": s.bye.entry_id, "round": ""},
        label="no round chosen",
    ),
    Case(
        "tournaments:bye_ask",
        "organiser",
        url("tournaments:bye_ask", slug("swiss")),
        post=lambda s: {"entry": s.bye.entry_id, "round": "1"},
        label="round already paired",
    ),
    Case(
        "tournaments:bye_withdraw",
        "organiser",
        url("tournaments:bye_withdraw", slug("swiss"), lambda s: s.bye.pk),
        post=lambda s: {},
    ),
    Case(
        "tournaments:entries",
        "organiser",
        url("tournaments:entries", slug("mix")),
        label="organiser, individual",
    ),
    Case("tournaments:dashboard", "organiser", url("tournaments:dashboard", slug("swiss"))),
    Case("tournaments:dashboard", "organiser", url("tournaments:dashboard", slug("mix")), label="individual"),
    Case("tournaments:hall", None, url("tournaments:hall", slug("swiss"))),
    Case("tournaments:hall", None, url("tournaments:hall", slug("mix")), label="individual"),
    Case(
        "tournaments:announce",
        "organiser",
        url("tournaments:announce", slug("swiss")),
        post=lambda s: {"text": "я" * 281},
        label="too long",
    ),
    Case(
        "tournaments:announce",
        "organiser",
        url("tournaments:announce", slug("swiss")),
        post=lambda s: {"text": "Второй тур начнётся в 14:00"},
    ),
    Case("tournaments:hall", None, url("tournaments:hall", slug("swiss")), label="with an announcement"),
    Case(
        "tournaments:announcement_withdraw",
        "organiser",
        url("tournaments:announcement_withdraw", slug("swiss"), lambda s: s.swiss.announcements.first().pk),
        post=lambda s: {},
    ),
    Case(
        "tournaments:hall_pin",
        "organiser",
        url("tournaments:hall_pin", slug("swiss")),
        post=lambda s: {"view": "bingo"},
        label="unknown view",
    ),
    Case(
        "tournaments:hall_pin",
        "organiser",
        url("tournaments:hall_pin", slug("swiss")),
        post=lambda s: {"view": "standings"},
    ),
    Case(
        "tournaments:round",
        "organiser",
        url("tournaments:round", slug("swiss"), lambda s: 3),
        label="organiser",
    ),
    Case(
        "tournaments:round",
        "organiser",
        url("tournaments:round", slug("mix"), lambda s: 3),
        label="organiser, individual",
    ),
    Case("tournaments:match", "organiser", match_url("confirmed_match"), label="organiser"),
    Case(
        "tournaments:dashboard_action",
        "organiser",
        url("tournaments:dashboard_action", slug("swiss")),
        post=lambda s: {"action": "pair_next"},
        label="round not over",
    ),
    Case(
        "tournaments:dashboard_action",
        "organiser",
        url("tournaments:dashboard_action", slug("swiss")),
        post=lambda s: {
            "action": "correct",
            "match": s.confirmed_match.pk,
            "home_eyes": "13",
            "away_eyes": "2",
        },
        label="13 eyes",
    ),
    Case(
        "tournaments:dashboard_action",
        "organiser",
        url("tournaments:dashboard_action", slug("swiss")),
        post=lambda s: {
            "action": "correct",
            "match": s.confirmed_match.pk,
            "home_eyes": "x",
            "away_eyes": "2",
        },
        label="text",
    ),
    Case(
        "tournaments:dashboard_action",
        "organiser",
        url("tournaments:dashboard_action", slug("swiss")),
        post=lambda s: {"action": "settings", "check_in_closes_at": "tomorrow"},
        label="bad settings",
    ),
    Case(
        "tournaments:pair_next",
        "organiser",
        url("tournaments:pair_next", slug("swiss")),
        post=lambda s: {},
        label="round not over",
    ),
    Case(
        "tournaments:round_edit",
        "organiser",
        url("tournaments:round_edit", slug("swiss"), lambda s: 3),
        post=lambda s: {"deadline": "soon", "play_mode": "online"},
        label="bad deadline",
    ),
    Case(
        "tournaments:entries_bulk",
        "organiser",
        url("tournaments:entries_bulk", slug("fresh")),
        post=lambda s: {
            "text": "Ерлан Қасымов & Айгерім Бекова\nГалина Шевченко & Мирослава Коваленко\nОдин"
        },
    ),
    Case(
        "tournaments:players_bulk",
        "organiser",
        url("tournaments:players_bulk", slug("mix")),
        post=lambda s: {"text": "Марат Исаев\nМарат Исаев"},
        label="already entered",
    ),
    Case(
        "tournaments:self_register",
        "asel",
        url("tournaments:self_register", slug("fresh")),
        post=lambda s: {"partner": ""},
        label="no partner",
    ),
    Case(
        "tournaments:player_register",
        "asel",
        url("tournaments:player_register", slug("mix")),
        post=lambda s: {},
        label="event under way",
    ),
    Case(
        "tournaments:substitute", "organiser", url("tournaments:substitute", slug("swiss"), entry_of("swiss"))
    ),
    Case(
        "tournaments:entry_action",
        "organiser",
        url("tournaments:entry_action", slug("swiss"), entry_of("swiss"), lambda s: "reinstate"),
        post=lambda s: {},
        label="refused",
    ),
    Case(
        "tournaments:entry_payment",
        "organiser",
        url("tournaments:entry_payment", slug("swiss"), entry_of("swiss")),
        post=lambda s: {"paid": "card"},
        label="refused",
    ),
    Case(
        "tournaments:player_approve",
        "organiser",
        url("tournaments:player_approve", slug("mix"), mix_entry),
        post=lambda s: {},
    ),
    Case(
        "tournaments:player_check_in",
        "organiser",
        url("tournaments:player_check_in", slug("mix"), mix_entry),
        post=lambda s: {},
    ),
    Case(
        "tournaments:player_reinstate",
        "organiser",
        url("tournaments:player_reinstate", slug("mix"), mix_entry),
        post=lambda s: {},
        label="refused",
    ),
    # --- the club manager's pages
    Case("clubs:club_create", "demo", url("clubs:club_create")),
    Case("clubs:club_create", "demo", url("clubs:club_create"), post=lambda s: {"name": ""}, label="empty"),
    Case("clubs:club_edit", "demo", url("clubs:club_edit", club)),
    Case("clubs:members", "demo", url("clubs:members", club)),
    Case("clubs:member_add", "demo", url("clubs:member_add", club), post=lambda s: {"username": "nobody"}),
    Case(
        "clubs:member_add",
        "demo",
        url("clubs:member_add", club),
        post=lambda s: {"who": "nobody@example.com", "role": "member"},
        label="sent",
    ),
    Case(
        "clubs:member_invite_in_person",
        "demo",
        url("clubs:member_invite_in_person", club),
        post=lambda s: {"role": "organiser"},
    ),
    Case("clubs:member_invitation", "demo", url("clubs:member_invitation", club, lambda s: s.in_person.pk)),
    Case("clubs:join_invitation", "ivan", lambda s: s.member_invitation.get_absolute_url()),
    Case("clubs:my_profile", "ivan", url("clubs:my_profile"), label="an invitation waits"),
    Case("tournaments:my_notifications", "dana", url("tournaments:my_notifications"), label="answers wait"),
    Case("tournaments:entries", "dana", url("tournaments:entries", slug("fresh")), label="asked to partner"),
    Case("tournaments:entries", "timur", url("tournaments:entries", slug("fresh")), label="partner awaited"),
    Case(
        "clubs:member_invitation_withdraw",
        "demo",
        url("clubs:member_invitation_withdraw", club, lambda s: s.member_invitation.pk),
        post=lambda s: {},
    ),
    Case("clubs:join_invitation", "ivan", lambda s: s.member_invitation.get_absolute_url(), label="gone"),
    Case(
        "clubs:member_role",
        "demo",
        url("clubs:member_role", club, user_id("asel")),
        post=lambda s: {"role": "king"},
        label="no such role",
    ),
    Case("clubs:roster", "organiser", url("clubs:roster", club)),
    Case("clubs:roster_add", "organiser", url("clubs:roster_add", club), post=lambda s: {"display_name": ""}),
    Case("clubs:roster_bulk", "organiser", url("clubs:roster_bulk", club)),
    Case(
        "clubs:roster_bulk",
        "organiser",
        url("clubs:roster_bulk", club),
        post=lambda s: {"text": "Ерлан Қасымов, Успенка\nНовый Игрок, Успенка\nНовый Игрок, Успенка"},
        label="duplicates",
    ),
    Case(
        "clubs:roster_add_member",
        "demo",
        url("clubs:roster_add_member", club, player_id("asel")),
        post=lambda s: {},
        label="already on the roster",
    ),
    Case("clubs:roster_merge", "organiser", url("clubs:roster_merge", club)),
    Case(
        "clubs:roster_merge",
        "organiser",
        url("clubs:roster_merge", club),
        post=lambda s: {"source": player_id("asel")(s), "target": player_id("oleh")(s)},
        label="two accounts",
    ),
    Case(
        "clubs:roster_invite",
        "organiser",
        url("clubs:roster_invite", club, unclaimed_player),
        post=lambda s: {},
    ),
    Case("clubs:invitation", "organiser", url("clubs:invitation", club, lambda s: s.invitation.pk)),
    Case(
        "clubs:roster_toggle", "organiser", url("clubs:roster_toggle", club, roster_entry), post=lambda s: {}
    ),
    # --- live tables: changes
    Case("gameplay:invite", None, lambda s: reverse("gameplay:invite", args=[s.table.pk, "bad-token"])),
    Case(
        "gameplay:sit",
        None,
        url("gameplay:sit", lambda s: s.table.pk),
        post=lambda s: {},
        label="table started",
    ),
    Case(
        "gameplay:bots",
        "asel",
        url("gameplay:bots", lambda s: s.table.pk),
        post=lambda s: {},
        label="table started",
    ),
    Case("gameplay:create", None, url("gameplay:create"), post=lambda s: {"seating": "куда-то"}, label="bad"),
    Case("gameplay:play_now", None, url("gameplay:play_now"), post=lambda s: {"bot_level": "strong"},
         label="strong bots"),
    Case("gameplay:play_now", None, url("gameplay:play_now"), post=lambda s: {"bot_level": "гроссмейстер"},
         label="unknown level"),
    Case(
        "gameplay:client_seed",
        "asel",
        url("gameplay:client_seed", lambda s: s.table.pk),
        post=lambda s: {"client_seed": "семя"},
        label="table started",
    ),
    Case("gameplay:verify", None, url("gameplay:verify"), post=lambda s: {"record": "{"}, label="broken"),
    Case(
        "gameplay:verify",
        None,
        url("gameplay:verify"),
        post=lambda s: {"record": json.dumps(s.finished_table.record)},
        label="a finished table's record",
    ),
    Case("gameplay:play_now", None, url("gameplay:play_now"), post=lambda s: {}),
    # --- records in: the archive's upload, a tournament match's record
    Case("archive:upload", "organiser", url("archive:upload")),
    Case(
        "archive:upload",
        "organiser",
        url("archive:upload"),
        post=lambda s: {"club": s.club.pk, "played": "2026-11-20", "public": "on",
                        "pasted": json.dumps([{"format": "bilka-record/1", "deals": []}, "x",
                                              s.finished_table.record])},
        label="refused and saved",
    ),
    Case("archive:upload", "asel", url("archive:upload"), label="not an organiser"),
    Case("tournaments:match_record", "organiser", url("tournaments:match_record", slug("swiss"),
                                                      lambda s: s.open_match.pk)),
    Case(
        "tournaments:match_record",
        "organiser",
        url("tournaments:match_record", slug("swiss"), lambda s: s.open_match.pk),
        post=lambda s: {"step": "upload", "record": json.dumps(s.finished_table.record)},
        label="a casual table's record",
    ),
    Case(
        "tournaments:match_record",
        "organiser",
        url("tournaments:match_record", slug("swiss"), lambda s: s.open_match.pk),
        post=lambda s: {"step": "confirm", "pending": "forged"},
        label="forged",
    ),
    # --- a club's webhooks: the page, a refused address, a new hook's secret, its log, off and on, gone
    Case("webhooks:hooks", "organiser", url("webhooks:hooks", club)),
    Case(
        "webhooks:hooks", "organiser", url("webhooks:hooks", club),
        post=lambda s: {"url": "http://10.0.0.7/bilka", "events": ["round.paired"]}, label="not https",
    ),
    Case(
        "webhooks:hooks", "organiser", url("webhooks:hooks", club),
        post=lambda s: {"url": "https://[::1]/bilka", "events": []}, label="a private address, no events",
    ),
    Case(
        "webhooks:hooks", "organiser", url("webhooks:hooks", club),
        post=lambda s: {"url": "https://93.184.216.34/bilka",
                        "events": ["round.paired", "standings.changed"]},
        label="the secret shown once",
    ),
    Case("webhooks:hooks", "organiser", hooks_with_a_log, label="turned off after failures"),
    Case("webhooks:hook_toggle", "organiser", url("webhooks:hook_toggle", club, hook_id), post=lambda s: {}),
    Case("webhooks:hook_delete", "organiser", url("webhooks:hook_delete", club, hook_id), post=lambda s: {}),
    # --- pages added alongside (LATER): audit logs, the tournaments list, asking first, pairing edits
    Case("clubs:audit", "demo", url("clubs:audit", club)),
    Case("tournaments:audit", "organiser", url("tournaments:audit", slug("swiss"))),
    Case("tournaments:fairplay", "organiser", url("tournaments:fairplay", slug("swiss"))),
    Case("tournaments:fairplay", "organiser", url("tournaments:fairplay", slug("swiss")), post=lambda s: {},
         label="queued"),
    Case("tournaments:list", None, url("tournaments:list")),
    Case(
        "tournaments:forfeit",
        "organiser",
        lambda s: reverse("tournaments:forfeit", args=[s.swiss.slug, s.open_match.pk, s.open_match.home_id]),
    ),
    Case("tournaments:unpair", "organiser", url("tournaments:unpair", slug("swiss"), lambda s: 3)),
    Case(
        "tournaments:swap",
        "organiser",
        url("tournaments:swap", slug("swiss"), lambda s: 3),
        post=lambda s: {"first": "", "second": "x"},
        label="nothing chosen",
    ),
    Case(
        "tournaments:table_number",
        "organiser",
        url("tournaments:table_number", slug("swiss"), lambda s: 3),
        post=lambda s: {"match": s.open_match.pk, "table": "-4"},
        label="bad number",
    ),
    Case(
        "tournaments:player_substitute",
        "organiser",
        url("tournaments:player_substitute", slug("mix"), mix_entry),
    ),
    Case(
        "tournaments:player_ask_withdraw",
        "asel",
        url("tournaments:player_ask_withdraw", slug("mix"), mix_entry_of("asel")),
        post=lambda s: {},
    ),
    Case(
        "tournaments:withdrawal_answer",
        "organiser",
        lambda s: reverse("tournaments:withdrawal_answer", args=[s.mix.slug, 0, "grant"]),
        post=lambda s: {},
        label="no such request",
    ),
    # --- leaving and joining last: they change who may see what
    Case("clubs:club_join", "ivan", url("clubs:club_join", club), post=lambda s: {}),
    Case(
        "clubs:club_leave", "demo", url("clubs:club_leave", club), post=lambda s: {}, label="the last owner"
    ),
    Case("clubs:member_remove", "demo", url("clubs:member_remove", club, user_id("oleh")), post=lambda s: {}),
    Case(
        "tournaments:no_show",
        "organiser",
        no_show_url,
        post=lambda s: {"entry": mix_entry(s)},
    ),
    Case(
        "tournaments:player_withdraw",
        "organiser",
        url("tournaments:player_withdraw", slug("mix"), mix_entry),
        post=lambda s: {},
    ),
]
