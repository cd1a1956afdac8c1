"""The archive of played matches, seen only through ``archive.selectors.visible_matches``: a private
match is not there for whoever may not see it on the pages (for a key, the key's owner)."""

from __future__ import annotations

from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import generics
from rest_framework.response import Response
from rest_framework.views import APIView

from archive import selectors as archive

from ..filters import ArchivedMatchFilter
from ..serializers import ArchivedMatchDetailSerializer, ArchivedMatchSerializer


class ArchivedMatchList(generics.ListAPIView):
    """The matches the caller may see, newest first."""

    serializer_class = ArchivedMatchSerializer
    filterset_class = ArchivedMatchFilter

    def get_queryset(self):
        return (
            archive.visible_matches(self.request.user)
            .select_related("club")
            .prefetch_related("seats")
            .order_by("-played_at", "-id")
        )


class ArchivedMatchDetail(generics.RetrieveAPIView):
    """One match with its seats and deals; 404 alike for "no such match" and "not yours"."""

    serializer_class = ArchivedMatchDetailSerializer

    def get_queryset(self):
        return archive.visible_matches(self.request.user).select_related("club").prefetch_related(
            "seats", "deals"
        )


class ArchivedMatchRecord(APIView):
    """The match's record (bilka-record/1), only for a visible match played with one."""

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def get(self, request, pk: int):
        match = archive.visible_match(request.user, pk)
        if match is None or not match.has_record or match.record is None:
            raise Http404
        return Response(match.record)
