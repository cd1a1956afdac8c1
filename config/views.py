"""Site-level pages that belong to no app: the health page."""

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
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
