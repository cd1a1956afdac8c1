"""The organiser attaches the record of a match played elsewhere to its pairing: upload (or paste)
and the engine's check, then a confirm step that says who sat where, then the result.

Between the two steps the record travels in the form, signed (``django.core.signing``) with the
match's number: the confirm step reads only what this server signed, so a record altered or
forged in the browser is refused, and the check is run again before anything is saved.
"""

from __future__ import annotations

from django.contrib import messages
from django.core import signing
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from archive.records import records_in, submitted_bytes
from gameplay.engine.cards import PAIRS, SEATS

from .. import selectors, services
from ..models import Match, MatchStatus
from ..selectors import day as day_selectors
from ..services.records import pairing_players
from .common import context, error_text, refusals, require_manager, tournament_or_404

#: The signature's purpose and lifetime: a pending record is confirmed within the day.
SALT = "tournaments.match-record"
MAX_AGE = 24 * 3600


def _pending(token: str, match: Match) -> dict:
    """The record this server signed for this match, or ValidationError."""
    try:
        payload = signing.loads(token, salt=SALT, max_age=MAX_AGE)
    except signing.BadSignature:
        payload = None
    if not isinstance(payload, dict) or payload.get("match") != match.pk or not isinstance(
        payload.get("record"), dict
    ):
        raise ValidationError(
            _("The record waiting for confirmation was altered or is too old. Upload it again.")
        )
    return payload["record"]


def _chairs_posted(post) -> dict[str, int | None]:
    chairs: dict[str, int | None] = {}
    for letter in SEATS:
        try:
            chairs[letter] = int(post.get(f"chair_{letter}", ""))
        except ValueError:
            chairs[letter] = None
    return chairs


def _confirm_page(request, tournament, m, record, chairs, token, error=""):
    state_score = services.check_record(match=m, record=record).state
    home, away = pairing_players(m)
    names = record.get("players") if isinstance(record.get("players"), dict) else {}
    return render(request, "tournaments/match_record.html", context(
        request, tournament, "rounds", match=m, step="confirm", token=token, error=error,
        seats=[{"letter": letter, "name": str(names.get(letter) or ""), "chosen": chairs.get(letter)}
               for letter in SEATS],
        home_players=home, away_players=away,
        ns_eyes=state_score.capped_score[0], ew_eyes=state_score.capped_score[1],
        winner=PAIRS[state_score.winner], end=state_score.end[0] if state_score.end else "",
        deal_count=len(record.get("deals") or []),
        replaces=m.status == MatchStatus.CONFIRMED,
        later=day_selectors.later_pairings(match=m) if m.status == MatchStatus.CONFIRMED else [],
        reason=request.POST.get("reason", ""),
    ), status=400 if error else 200)


@refusals
def match_record(request, slug, pk):
    tournament = tournament_or_404(slug)
    try:
        m = selectors.match_detail(tournament=tournament, pk=pk)
    except Match.DoesNotExist:
        raise Http404 from None
    require_manager(request, tournament)
    if m.bye or m.away_id is None:
        raise Http404
    error = ""
    if request.method == "POST" and request.POST.get("step") == "confirm":
        try:
            record = _pending(request.POST.get("pending", ""), m)
        except ValidationError as refused:
            error = error_text(refused)
        else:
            chairs = _chairs_posted(request.POST)
            try:
                services.attach_record(actor=request.user, match=m, record=record, chairs=chairs,
                                       reason=request.POST.get("reason", ""))
            except ValidationError as refused:
                try:
                    return _confirm_page(request, tournament, m, record, chairs, request.POST["pending"],
                                         error=error_text(refused))
                except ValidationError as gone:  # the record no longer fits (rules changed, archived)
                    error = error_text(gone)
            else:
                messages.success(request, _("The record is attached and its result is saved."))
                return redirect(m.get_absolute_url())
    elif request.method == "POST":
        # A refused record is not shown back in the box: the error says where it breaks.
        upload = request.FILES.get("file")
        data, error = submitted_bytes(upload, request.POST.get("record", ""))
        if not error:
            found = records_in(data, upload.name if upload is not None else _("pasted record"))
            if len(found) != 1:
                error = _("Give the record of this one match, not a list of records.")
            elif found[0].error:
                error = found[0].error
            else:
                record = found[0].record
                try:
                    checked = services.check_record(match=m, record=record)
                except ValidationError as refused:
                    error = error_text(refused)
                else:
                    token = signing.dumps({"match": m.pk, "record": record}, salt=SALT, compress=True)
                    return _confirm_page(request, tournament, m, record, checked.chairs, token)
    return render(request, "tournaments/match_record.html", context(
        request, tournament, "rounds", match=m, step="upload", error=error,
        replaces=m.status == MatchStatus.CONFIRMED,
    ), status=400 if error else 200)
