"""The API docs page: a server-rendered guide in the reader's language, with Swagger UI below it.

Swagger UI is a large script; on a phone it takes seconds to arrive, and without JavaScript it
never does. So the page first says, in the site's own frame and language, what the API is, where
it lives, how to send a key, and lists every operation read from the same generated schema that
Swagger UI draws. The start-up script still comes from ``?script`` (the split view), so the page
needs no inline script under the site's Content-Security-Policy.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext_lazy as _
from drf_spectacular.settings import spectacular_settings
from drf_spectacular.utils import extend_schema
from drf_spectacular.views import SpectacularSwaggerSplitView

#: The schema's tags (one per part of the site) in the site's words; a tag not named here is shown as is.
TAG_TITLES = {
    "clubs": _("Clubs"),
    "players": _("Players"),
    "ratings": _("Ratings"),
    "tournaments": _("Tournaments"),
    "matches": _("Matches"),
    "entries": _("Entries"),
    "archive": _("Archive"),
}
METHODS = ("get", "post", "put", "patch", "delete")


@dataclass(frozen=True)
class Operation:
    """One line of the list: what a program sends where, and the schema's own one-line summary."""

    method: str
    path: str
    summary: str
    needs_key: bool


@dataclass(frozen=True)
class OperationGroup:
    tag: str
    operations: tuple[Operation, ...]

    @property
    def title(self) -> str:
        return str(TAG_TITLES.get(self.tag, self.tag))


def first_sentence(text: str) -> str:
    """The schema's summary, else the first sentence of its description (docstrings run long)."""
    text = " ".join(text.replace("``", "").split())
    end = text.find(". ")
    return text if end < 0 else text[: end + 1]


@lru_cache(maxsize=8)
def operation_groups(language: str) -> tuple[OperationGroup, ...]:
    """Every operation of the public schema, grouped by tag in the schema's order.

    Generating the schema walks every view and serializer (a good part of a second), and it only
    changes with the code, so it is worked out once per process and language (a description
    marked for translation reads in the language it was made in).
    """
    generator = spectacular_settings.DEFAULT_GENERATOR_CLASS()
    with translation.override(language):
        schema = generator.get_schema(request=None, public=True)
    groups: dict[str, list[Operation]] = {}
    for path, item in schema.get("paths", {}).items():
        for method in METHODS:
            operation = item.get(method)
            if not isinstance(operation, dict):
                continue
            tag = (operation.get("tags") or ["api"])[0]
            summary = str(operation.get("summary") or first_sentence(str(operation.get("description") or "")))
            needs_key = {} not in operation.get("security", [{}])
            groups.setdefault(tag, []).append(Operation(method.upper(), path, summary, needs_key))
    return tuple(OperationGroup(tag, tuple(ops)) for tag, ops in groups.items())


class ApiDocsPage(SpectacularSwaggerSplitView):
    """drf-spectacular's split Swagger UI view, its page in the site's frame with the guide on top."""

    template_name = "api/swagger_ui.html"

    @extend_schema(exclude=True)  # the page is not an operation of the API
    def get(self, request, *args, **kwargs):
        response = super().get(request, *args, **kwargs)
        if request.GET.get("script") is None:
            response.data.update(
                api_base=request.build_absolute_uri("/api/v1/"),
                schema_href=reverse("api:schema"),
                keys_href=reverse("clubs:my_profile") + "#api-keys",
                operation_groups=operation_groups(translation.get_language() or "en"),
            )
        return response
