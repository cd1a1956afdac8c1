"""Pages of the live tables: lobby, open a table, play now, the table, its record and replay.

Each page that shows a game embeds the viewer's own snapshot (`selectors.snapshot`), the same
filtered view the socket sends, so a page can never show more than the socket would.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from archive import selectors as archive
from archive.records import MAX_RECORD_BYTES, parsed, submitted_bytes
from archive.replays import render_replay
from gameplay import selectors, services
from gameplay.engine.cards import SEATS
from gameplay.engine.games import BILKA, game_of, rules_from_json
from gameplay.engine.kozyol import KozyolRules
from gameplay.engine.table_games import BOT_LEVELS, permanent_trumps, table_seats
from gameplay.forms import TableForm, chosen_game
from gameplay.models import BotLevel, Table, TableStatus
from gameplay.texts import lobby_texts, table_texts
from gameplay.words import SUIT_SYMBOL, rank_words, suit_name


def _session_key(request: HttpRequest, create: bool = False) -> str:
    """The browser's session key; `create` makes one that the browser keeps (an anonymous seat).

    An empty session is never sent as a cookie, so the session gets a marker first."""
    if create and not request.session.session_key:
        request.session["bilka_guest"] = True
        request.session.save()
    return request.session.session_key or ""


def _user(request: HttpRequest) -> Any:
    return request.user if request.user.is_authenticated else None


def _viewer_seat(request: HttpRequest, table: Table) -> int | None:
    return services.seat_for(table, user=_user(request), session_key=_session_key(request))


def _visible_table(request: HttpRequest, pk: int, token: str | None = None) -> tuple[Table, int | None]:
    """The table and the viewer's seat, or the one 404 that a missing table gets too.

    A private table is shown to its seated players; while it waits for players, also to whoever
    holds its invitation link (`token`), so that he can sit down."""
    table = Table.objects.filter(pk=pk).first()
    if table is None:
        raise Http404()
    seat = _viewer_seat(request, table)
    invited = token is not None and token == table.invite_token and table.status == TableStatus.OPEN
    user_id = request.user.pk if request.user.is_authenticated else None
    if not (selectors.visible_to(table, seat, user_id) or invited):
        raise Http404()
    return table, seat


def _record_table(request: HttpRequest, pk: int) -> tuple[Table, int | None]:
    """The table whose record, replay or shuffle check the viewer asks for, or the one 404.

    A casual table's record follows the table. A tournament pairing's table is watched live by
    anyone, but its record and replay are its match's, public once its round is over: until then
    only its players (and its club's organisers) get them (`archive.selectors`)."""
    table, seat = _visible_table(request, pk)
    if table.casual:
        return table, seat
    archived, visible = archive.table_match(request.user, table.pk)
    if archived is not None:
        if not visible:
            raise Http404()
    elif seat is None:
        raise Http404()
    return table, seat


def lobby(request: HttpRequest) -> HttpResponse:
    return render(request, "gameplay/lobby.html", {"tables": selectors.lobby_tables(), "i18n": lobby_texts()})


def create(request: HttpRequest) -> HttpResponse:
    """Open a table; `?game=kozyol` (`?game=bilka2`) shows the form with Kozyol's (Bilka for two's)
    house rules, Bilka's without."""
    form = TableForm(request.POST or None, initial={"game": chosen_game(request.GET.get("game"))})
    if request.method == "POST" and form.is_valid():
        try:
            table = services.create_table(
                rules=form.rules(),
                seating=form.cleaned_data["seating"],
                spectators_see_hands_delayed=form.cleaned_data["spectators_see_hands_delayed"],
                redeal_seconds=form.cleaned_data.get("redeal_seconds"),
                user=_user(request),
                session_key=_session_key(request, create=True),
                bots=form.cleaned_data["bots"],
                bot_level=form.cleaned_data["bot_level"] or BotLevel.BEGINNER,
                public=not form.cleaned_data["private"],
                rated=form.cleaned_data.get("rated", False),
            )
        except (services.TableError, services.RulesError) as exc:
            form.add_error(None, str(getattr(exc, "message", exc)))
        else:
            return redirect(table)
    return render(request, "gameplay/create.html", {"form": form})


@require_POST
def play_now(request: HttpRequest) -> HttpResponse:
    """"Play now vs bots", in the game and at the level the lobby's form chose (Bilka and the
    beginner without them; a game that is not one of the lobby's is Bilka)."""
    game = chosen_game(request.POST.get("game"))
    rules = {"game": game} if game != BILKA else None
    try:
        table = services.play_now(user=_user(request), session_key=_session_key(request, create=True),
                                  rules=rules, bot_level=request.POST.get("bot_level") or BotLevel.BEGINNER)
    except services.TableError as exc:
        messages.error(request, exc.message)
        return redirect("gameplay:lobby")
    return redirect(table)


def table(request: HttpRequest, pk: int, token: str | None = None) -> HttpResponse:
    table, seat = _visible_table(request, pk, token)
    # Every visitor has a session before the page opens its socket: the seat never hangs on a
    # cookie set by a response the browser might drop when "Sit down" is pressed, and a spectator's
    # socket is counted as his own by the frame limits (gameplay/tables/flood.py), not by the
    # address he shares with a whole hall and perhaps with somebody flooding.
    _session_key(request, create=True)
    snapshot = selectors.snapshot(table, seat)
    invite_url = request.build_absolute_uri(
        f"/tables/{table.pk}/join/{table.invite_token}/") if table.status == TableStatus.OPEN else None
    return render(request, "gameplay/table.html", {
        "table": table,
        "shuffle": snapshot["table"]["shuffle"],
        "my_client_seed": next((s["seed"] for s in _seed_rows(snapshot) if s["letter"] == SEATS[seat]), "")
        if seat is not None else "",
        "seed_rows": _seed_rows(snapshot),
        "seat": SEATS[seat] if seat is not None else None,
        "snapshot": snapshot,
        "invite_url": invite_url,
        "invited": token is not None and token == table.invite_token,
        "invite_token": token if token is not None and token == table.invite_token else "",
        "can_sit": table.status == TableStatus.OPEN and seat is None,
        "empty_seats": [SEATS[n] for n in table_seats(game_of(table.rules))
                        if SEATS[n] not in {s["seat"] for s in snapshot["table"]["seats"]}],
        "replay_open": table.status == TableStatus.PLAYING
        and (seat is not None or table.spectators_see_hands_delayed),
        "i18n": table_texts(),
        "game": game_of(table.rules),
        "game_bot_levels": BOT_LEVELS.get(game_of(table.rules), ()),
        "permanent_trumps": _permanent_trumps(table),
    })


def _permanent_trumps(table: Table) -> list[dict[str, Any]]:
    """A Kozyol table's permanent trumps as the page draws them (none for Bilka's)."""
    rules = rules_from_json(table.rules)
    if not isinstance(rules, KozyolRules):
        return []
    ranks = rank_words()
    return [{"rank": ranks[code[0]], "suit": SUIT_SYMBOL[code[1]], "red": code[1] in "HD",
             "label": f"{ranks[code[0]]} {suit_name(code[1])}"} for code in permanent_trumps(rules)]


def _seed_rows(snapshot: dict[str, Any]) -> list[dict[str, str]]:
    shuffle = snapshot["table"]["shuffle"]
    if not shuffle:
        return []
    return [{"letter": letter, "seed": seed} for letter, seed in shuffle["client_seeds"].items()]


@require_POST
def sit(request: HttpRequest, pk: int) -> HttpResponse:
    """Sit down; at a private table only with its invitation link (the form carries the token)."""
    table, _seat = _visible_table(request, pk, request.POST.get("token") or None)
    try:
        services.sit(table_id=table.pk, user=_user(request), session_key=_session_key(request, create=True),
                     client_seed=request.POST.get("client_seed", ""))
    except services.TableError as exc:
        messages.error(request, exc.message)
    return redirect(table)


@require_POST
def client_seed(request: HttpRequest, pk: int) -> HttpResponse:
    """A seated player sets his own client seed while the table waits."""
    table, _seat = _visible_table(request, pk)
    try:
        services.set_client_seed(table_id=table.pk, client_seed=request.POST.get("client_seed", ""),
                                 user=_user(request), session_key=_session_key(request))
    except services.TableError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Your client seed is set."))
    return redirect(table)


@require_POST
def bots(request: HttpRequest, pk: int) -> HttpResponse:
    """Fill the empty seats with bots, each at the level its seat's choice names (`level_N`, ...)."""
    table, _seat = _visible_table(request, pk)
    levels = {n: request.POST.get(f"level_{letter}") or BotLevel.BEGINNER for n, letter in enumerate(SEATS)}
    try:
        services.fill_with_bots(table_id=table.pk, user=_user(request), session_key=_session_key(request),
                                levels=levels)
    except services.TableError as exc:
        messages.error(request, exc.message)
    return redirect(table)


def state_json(request: HttpRequest, pk: int) -> JsonResponse:
    """The viewer's snapshot as JSON: the same filtered view the socket sends."""
    table, seat = _visible_table(request, pk)
    return JsonResponse(selectors.snapshot(table, seat))


def record_json(request: HttpRequest, pk: int) -> JsonResponse:
    """The full bilka-record/1 of a finished match (every hand); 404 while it is being played."""
    table, _seat = _record_table(request, pk)
    record = selectors.finished_record(table)
    if record is None:
        raise Http404(_("The record is published when the match is over."))
    response = JsonResponse(record, json_dumps_params={"ensure_ascii": False, "indent": 1})
    response["Content-Disposition"] = f'inline; filename="bilka-table-{table.pk}.json"'
    return response


def replay(request: HttpRequest, pk: int) -> HttpResponse:
    """The table's replay: a finished match whole; a match being played, its finished deals only
    (to its players, and to spectators where the table shows hands one deal later). A tournament
    table's replay is its match's (`_record_table`)."""
    table, seat = _record_table(request, pk)
    shown = selectors.replay_record(table, seat)
    finished = table.status == TableStatus.FINISHED
    record, visible = shown if shown is not None else (None, None)
    if shown is None:
        empty = _("The replay of this table is published when the match is over.")
    else:
        empty = _("No deal has been played to the end yet.")
    note = ""
    if not finished and shown is not None:
        note = _("The deal being played is not shown: it appears here once it is over.")
    return render_replay(
        request,
        record=record,
        title=_("Replay of table #%(id)s") % {"id": table.pk},
        back_url=table.get_absolute_url(),
        back_label=_("Table #%(id)s") % {"id": table.pk},
        download_url=reverse("gameplay:record_json", args=[table.pk]) if finished and record else None,
        verify_url=reverse("gameplay:verify_table", args=[table.pk])
        if finished and record and "shuffle" in record else None,
        visible_deals=visible,
        empty_message=empty,
        # the seats as the table names them now: a bot in the reader's language
        players={SEATS[s.seat]: selectors.seat_name(s) or "" for s in selectors.seats_of(table)}
        if record else None,
        extra={"note": note},
    )


def verify_table(request: HttpRequest, pk: int) -> HttpResponse:
    """Anyone checks every deal of a finished table against its revealed shuffle seed."""
    table, _seat = _record_table(request, pk)
    record = selectors.finished_record(table)
    context: dict[str, Any] = {"table": table, "verdict": None, "error": "", "pending": record is None}
    if record is not None:
        context.update(_verdict_of(record))
    return render(request, "gameplay/verify.html", context)


#: The largest record the verify page reads (kept under its old name for its callers).
VERIFY_MAX_BYTES = MAX_RECORD_BYTES


def verify_upload(request: HttpRequest) -> HttpResponse:
    """Anyone pastes or uploads a bilka-record/1 and gets the verdict on its shuffle; a record
    that cannot be read or checked is answered 400 with why."""
    context: dict[str, Any] = {"table": None, "verdict": None, "error": "", "pending": False, "upload": True,
                               "pasted": ""}
    if request.method == "POST":
        upload = request.FILES.get("file")
        if upload is None:
            context["pasted"] = request.POST.get("record", "")
        data, refusal = submitted_bytes(upload, request.POST.get("record", ""))
        record, refusal = (None, refusal) if refusal else parsed(data)
        if refusal:
            context["error"] = refusal
        else:
            context.update(_verdict_of(record))
        if context.get("verdict"):
            context["pasted"] = ""  # the verdict shows what was checked; the box is for the next one
    return render(request, "gameplay/verify.html", context, status=400 if context["error"] else 200)


def _verdict_of(record: Any) -> dict[str, Any]:
    from gameplay.engine import RecordError
    from gameplay.engine.verify import Uncheckable, verify_record

    try:
        return {"verdict": verify_record(record)}
    except Uncheckable as exc:
        why = {
            "not_json": _("This is not a game record: it is not JSON."),
            "no_shuffle": _("This match was dealt before fair shuffles: its record has no seeds to check."),
            "no_seed": _("The seed is revealed when the match is over; come back then."),
        }
        if exc.code in why:
            return {"error": why[exc.code]}
        return {"error": _("This record cannot be checked."), "detail": str(exc)}
    except RecordError as exc:
        return {"error": _("This record cannot be checked."), "detail": str(exc)}
