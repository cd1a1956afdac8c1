"""Lists come in pages of 50 (up to 200 with ?page_size=), with the count and the next page's link.

A ``page`` or ``page_size`` that is not a whole number in range is refused (400), not quietly
replaced by the first page: a program that asks for page "x" has a bug it should hear of."""

from __future__ import annotations

import re

from django.utils.translation import gettext_lazy as _
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import PageNumberPagination

WHOLE = re.compile(r"[1-9][0-9]{0,17}")


class Pages(PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200

    def paginate_queryset(self, queryset, request, view=None):
        asked = (
            (self.page_query_param, None, _("Give the page as a whole number from 1.")),
            (
                self.page_size_query_param,
                self.max_page_size,
                _("Give the page size as a whole number from 1 to %(most)d."),
            ),
        )
        for name, limit, words in asked:
            values = request.query_params.getlist(name)
            if not values:
                continue
            if len(values) > 1 or not WHOLE.fullmatch(values[0]) or (limit and int(values[0]) > limit):
                raise ValidationError({name: [str(words) % {"most": limit} if limit else str(words)]})
        return super().paginate_queryset(queryset, request, view)

    def get_schema_operation_parameters(self, view):
        parameters = super().get_schema_operation_parameters(view)
        for p in parameters:
            if p["name"] == self.page_query_param:
                p["schema"] = {"type": "integer", "minimum": 1, "maximum": 10**17}
            elif p["name"] == self.page_size_query_param:
                p["schema"] = {"type": "integer", "minimum": 1, "maximum": self.max_page_size}
        return parameters
