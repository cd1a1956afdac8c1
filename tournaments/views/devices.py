"""The table device (one phone or tablet per hall table, no account) and the organiser's table cards.

The device page stands for its table, not for a person: whoever is signed in on it, each pair
reports, confirms or disputes with its own PIN, through the same result services as every match
page. No PIN outlives its answer: every form is posted and answered with a redirect (nothing to
send again, no PIN in the history or an address), the PIN boxes are always empty and not filled in
by the browser, and the answers are never cached. Wrong PINs count against the table's device,
not the hall's one address.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from clubs.addresses import client_address

from .. import services
from ..core.games import KOZYOL, tournament_game
from ..models import Match, Tournament
from ..result_forms import DEAL_PARTS, DEAL_ROWS_MAX, FinalScoreForm, parse_deals, posted_deal_rows
from ..selectors import devices
from .common import refusals, require_manager, tournament_or_404
from .matches import sheet_preview

DRAFT_FIELDS = ("final-home_eyes", "final-away_eyes") + tuple(
    f"deal-{i}-{part}" for i in range(1, DEAL_ROWS_MAX + 1) for part in DEAL_PARTS
)
"""What the device keeps of a refused or previewed form between the post and the page (never the PIN)."""


def device_url(tournament: Tournament, table: int) -> str:
    code = devices.device_code(tournament_id=tournament.pk, table=table)
    return reverse("tournaments:table_device", kwargs={"slug": tournament.slug, "table": table, "code": code})


def _draft_key(tournament: Tournament, table: int) -> str:
    return f"table-device:{tournament.pk}:{table}"


@never_cache
def table_device(request, slug, table, code):
    tournament = tournament_or_404(slug)
    if not devices.device_code_ok(tournament_id=tournament.pk, table=table, code=code):
        raise Http404
    match = devices.device_match(tournament=tournament, table=table)
    if request.method == "POST":
        _answer(request, tournament, table, match)
        return redirect(request.path)
    draft = request.session.pop(_draft_key(tournament, table), None)
    if draft is not None and (match is None or draft.get("match") != match.pk):
        draft = None  # typed for a match this table no longer shows
    values = (draft or {}).get("values", {})
    preview = preview_error = None
    if draft and draft.get("preview"):
        try:
            deals = parse_deals(values, tournament_game(tournament.rules))
            preview, preview_error = sheet_preview(tournament, deals)
        except ValidationError as error:
            preview_error = " ".join(error.messages)
    return render(
        request,
        "tournaments/table_device.html",
        {
            "tournament": tournament,
            "table": table,
            "match": match,
            "final_home": values.get("final-home_eyes", ""),
            "final_away": values.get("final-away_eyes", ""),
            "deal_rows": posted_deal_rows(values),
            "deal_rows_max": DEAL_ROWS_MAX,
            "kozyol_sheet": tournament_game(tournament.rules) == KOZYOL,
            "preview": preview,
            "preview_error": preview_error,
            "open_deals": bool(draft and any(k.startswith("deal-") and v for k, v in values.items())),
            "reporter": {"home": 1, "away": 2}.get(match.reported_side) if match else None,
            "confirmer": {"home": 2, "away": 1}.get(match.reported_side) if match else None,
        },
    )


def _answer(request, tournament: Tournament, table: int, match: Match | None) -> None:
    """One posted form of the device, answered in the page's messages (the caller redirects)."""
    if match is None or request.POST.get("match") != str(match.pk):
        messages.error(request, _("The match at this table has changed. Check the page and try again."))
        return
    action = request.POST.get("action", "")
    pin = request.POST.get("pin", "")
    device = f"{tournament.pk}:{table}"
    sender = services.PinSender(session="", address=client_address(request), device=device)
    values = {key: request.POST.get(key, "") for key in DRAFT_FIELDS if request.POST.get(key)}
    try:
        if action == "preview":
            draft = {"match": match.pk, "values": values, "preview": True}
            request.session[_draft_key(tournament, table)] = draft
            return
        if action == "final":
            form = FinalScoreForm(request.POST, prefix="final")
            if not form.is_valid():
                raise form.problems()
            data = form.cleaned_data
            services.enter_result(actor=None, match=match, home_eyes=data["home_eyes"],
                                  away_eyes=data["away_eyes"], pin=pin, sender=sender)  # fmt: skip
            messages.success(request, _("The result is saved. Now the other pair confirms it with its PIN."))
        elif action == "deals":
            deals = parse_deals(request.POST, tournament_game(tournament.rules))
            services.enter_result(actor=None, match=match, deals=deals, pin=pin, sender=sender)
            messages.success(
                request, _("The score sheet is saved. Now the other pair confirms it with its PIN.")
            )
        elif action == "confirm":
            services.confirm_result(actor=None, match=match, pin=pin, sender=sender)
            messages.success(request, _("The result is confirmed. Thank you!"))
        elif action == "dispute":
            services.dispute_result(actor=None, match=match, note=request.POST.get("note", ""), pin=pin,
                                    sender=sender)  # fmt: skip
            messages.warning(request, _("The result is disputed. The organiser will settle it."))
        else:
            messages.error(request, _("Choose what to do: report, confirm or dispute."))
    except (ValidationError, PermissionDenied) as error:
        texts = error.messages if isinstance(error, ValidationError) else [str(error)]
        for text in texts:
            messages.error(request, text)
        if action in ("final", "deals"):  # what was typed comes back, without the PIN
            request.session[_draft_key(tournament, table)] = {"match": match.pk, "values": values}


@login_required
@refusals
def table_cards(request, slug):
    """The organiser's printable cards, one per table: the table's number and its device's code."""
    tournament = tournament_or_404(slug)
    require_manager(request, tournament)
    return render(
        request,
        "tournaments/table_cards.html",
        {
            "tournament": tournament,
            "cards": table_card_list(tournament, devices.device_tables(tournament=tournament)),
        },
    )


def table_card_list(tournament: Tournament, tables) -> list[dict]:
    """A card for each of ``tables``: its number and the device page's address."""
    return [{"table": table, "url": device_url(tournament, table)} for table in tables]
