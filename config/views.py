"""Site-level pages that belong to no app: the health page, and the pages of a request the site
cannot read (400) or could not answer (500)."""

from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    HttpResponseServerError,
    JsonResponse,
)
from django.shortcuts import render
from django.template import loader
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from config.health import run_checks


@never_cache
@require_safe
def health(request: HttpRequest) -> HttpResponse:
    """200 when the database, Redis and a Celery worker all answer, 503 otherwise.

    HTML for people; JSON for monitors (`?format=json` or `Accept: application/json`).
    """
    results = run_checks()
    ok = all(result.ok for result in results)
    status = 200 if ok else 503
    wants_json = request.GET.get("format") == "json" or (
        request.accepts("application/json") and not request.accepts("text/html")
    )
    if wants_json:
        body = {"status": "ok" if ok else "error", "checks": {r.key: r.as_dict() for r in results}}
        return JsonResponse(body, status=status)
    return render(request, "config/health.html", {"ok": ok, "results": results}, status=status)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """400 for a body the site cannot read (a broken or oversized form, one not in UTF-8), in the
    reader's language. Django's own looks for a CSRF token first, which reads the form again: a
    form Django refuses on every read (a urlencoded body declared in another charset) then failed
    in the 400 page and again in the 500 page, and left the server with an unhandled exception."""
    return HttpResponseBadRequest(loader.render_to_string("400.html"))


def server_error(request: HttpRequest) -> HttpResponse:
    """500, without reading the request again (its form may be what cannot be read)."""
    return HttpResponseServerError(loader.render_to_string("500.html"))
