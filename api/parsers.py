"""The API's one parser: a JSON body read by the site's reader of untrusted JSON
(`config.untrusted_json`), its size and nesting checked before it is parsed. A body the reader
refuses is a 400 in the API's error shape (`api.errors`), worded in the request's language."""

from __future__ import annotations

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import BaseParser

from config.untrusted_json import JSONRefused, read_json

#: An API body's nesting: an object of fields, a list in one of them at most.
MAX_BODY_DEPTH = 8


class UntrustedJSONParser(BaseParser):
    """`application/json`, at most `API_MAX_BODY_BYTES` (only that and one byte are read)."""

    media_type = "application/json"

    def parse(self, stream, media_type=None, parser_context=None):
        limit = int(settings.API_MAX_BODY_BYTES)
        data = stream.read(limit + 1) if stream is not None else b""
        try:
            # each field's serializer refuses a NUL or half a surrogate pair in what it keeps
            return read_json(data, max_bytes=limit, max_depth=MAX_BODY_DEPTH, text_only=False)
        except JSONRefused as refused:
            raise ParseError(refused.message()) from None
