"""Records in and out of the archive: the organisers' upload, and each match's record or
score sheet as a file.

Every download answers with the same 404 for a match that does not exist and for one the viewer
may not see (`archive.selectors.visible_match`).
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from archive import services
from archive.forms import ArchiveUploadForm
from archive.models import ArchivedMatch
from archive.records import MAX_RECORD_BYTES, Submitted, records_in
from archive.selectors import upload_clubs, visible_match
from gameplay.engine.cards import PAIRS, SEATS

SHEET_FORMAT = "bilka-sheet/1"
SHEET_COLUMNS = ("number", "outcome", "on_duty", "points_ns", "points_ew", "eyes_ns", "eyes_ew",
                 "score_ns", "score_ew")


def _submitted(request: HttpRequest) -> list[Submitted]:
    """Every record of the upload, in the order given: each file, then the pasted text."""
    out: list[Submitted] = []
    for upload in request.FILES.getlist("files"):
        label = _("file %(name)s") % {"name": upload.name}
        out += records_in(upload.read(MAX_RECORD_BYTES + 1), label)
    pasted = request.POST.get("pasted", "")
    if pasted.strip():
        out += records_in(pasted.encode(), _("pasted record"))
    return out


@login_required
def archive_upload(request: HttpRequest) -> HttpResponse:
    """An owner or organiser of a club uploads records of matches played elsewhere. Each record
    is saved or refused on its own; the page lists both, so a half-saved upload says so. An upload
    that saved nothing is answered 400."""
    clubs = upload_clubs(request.user)
    if not clubs.exists():
        raise PermissionDenied(_("Only a club's owners and organisers upload matches to the archive."))
    form = ArchiveUploadForm(request.POST or None, request.FILES or None, clubs=clubs)
    results: list[services.Uploaded] = []
    summary = ""
    if request.method == "POST" and form.is_valid():
        submitted = _submitted(request)
        if not submitted:
            form.add_error(None, _("Paste a record or choose its file."))
        else:
            good = [(s.label, s.record) for s in submitted if s.record is not None]
            saved = iter(services.upload_records(
                user=request.user, club=form.cleaned_data["club"], records=good,
                played=form.cleaned_data["played"], public=form.cleaned_data["public"],
            ))
            results = [next(saved) if s.record is not None else services.Uploaded(s.label, error=s.error)
                       for s in submitted]
            summary = _summary(results)
            # The list says what became of each record; the boxes are for the next upload.
            kept = {k: form.cleaned_data[k] for k in ("club", "played", "public")}
            form = ArchiveUploadForm(initial=kept, clubs=clubs)
    saved = any(r.match for r in results)
    return render(request, "archive/archive_upload.html", {
        "form": form, "results": results, "summary": summary,
        "refused": any(r.error for r in results), "saved": saved,
    }, status=400 if request.method == "POST" and not saved else 200)


def _summary(results: list[services.Uploaded]) -> str:
    saved = sum(1 for r in results if r.match is not None)
    refused = len(results) - saved
    text = _("%(saved)d saved, %(refused)d refused.") % {"saved": saved, "refused": refused}
    if saved and refused:
        text += " " + _("The refused ones were not saved at all; the saved ones stay saved.")
    return text


def _visible(request: HttpRequest, pk: int) -> ArchivedMatch:
    match = visible_match(request.user, pk)
    if match is None:
        raise Http404()
    return match


def _attachment(response: HttpResponse, filename: str) -> HttpResponse:
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def archived_record(request: HttpRequest, pk: int) -> HttpResponse:
    """The match's bilka-record/1, as a file; only matches played with a record have one."""
    match = _visible(request, pk)
    if not match.has_record or match.record is None:
        raise Http404()
    body = json.dumps(match.record, ensure_ascii=False, indent=1)
    return _attachment(HttpResponse(body, content_type="application/json; charset=utf-8"), f"bilka-{pk}.json")


def _sheet_match(request: HttpRequest, pk: int) -> ArchivedMatch:
    match = _visible(request, pk)
    if match.has_record:
        raise Http404()  # its record is the full story; the sheet is for matches known by their sheet
    return match


def _on_duty(pair: int | None) -> str:
    return PAIRS[pair] if pair is not None else ""


def sheet_of(match: ArchivedMatch) -> dict[str, Any]:
    """A sheet-only match as a bilka-sheet/1 document: who sat, the rules, each deal's line."""
    sheet: dict[str, Any] = {
        "format": SHEET_FORMAT,
        "players": {SEATS[s.seat]: s.name for s in match.seats.all()},
        "rules": match.rules,
        "deals": [{
            "number": d.number, "outcome": d.outcome, "on_duty": _on_duty(d.pair_on_duty) or None,
            "points": {"NS": d.ns_points, "EW": d.ew_points},
            "eyes": {"NS": d.ns_eyes, "EW": d.ew_eyes},
            "score": {"NS": d.ns_score, "EW": d.ew_score},
        } for d in match.deals.all()],
        "score": {"NS": match.ns_eyes, "EW": match.ew_eyes},
        "winner": match.winner,
    }
    if match.reason != "eyes":
        sheet["end"] = {"reason": match.reason,
                        "seat": SEATS[match.reason_seat] if match.reason_seat is not None else None}
    return sheet


def archived_sheet_json(request: HttpRequest, pk: int) -> HttpResponse:
    body = json.dumps(sheet_of(_sheet_match(request, pk)), ensure_ascii=False, indent=1)
    return _attachment(HttpResponse(body, content_type="application/json; charset=utf-8"),
                       f"bilka-{pk}-sheet.json")


def archived_sheet_csv(request: HttpRequest, pk: int) -> HttpResponse:
    """The sheet as CSV, a header row and one row per deal (for a spreadsheet)."""
    match = _sheet_match(request, pk)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(SHEET_COLUMNS)
    for d in match.deals.all():
        points = ["" if p is None else p for p in (d.ns_points, d.ew_points)]
        writer.writerow([d.number, d.outcome, _on_duty(d.pair_on_duty), *points,
                         d.ns_eyes, d.ew_eyes, d.ns_score, d.ew_score])
    return _attachment(HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8"),
                       f"bilka-{pk}-sheet.csv")
