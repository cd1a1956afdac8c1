"""Reading a client's frame of `/ws/table/<id>/`: a JSON text frame, or `UNREADABLE`.

A frame the socket cannot read (not text, not JSON, nested deeper than the flat objects of the
protocol, a number too long to convert) is answered with `invalid` by the consumer; it must never
raise there, as an exception ends the socket's consumer without its disconnect. The frame is read
by the site's one reader of untrusted JSON (`config.untrusted_json`): its size (the consumer has
refused a longer one before) and its nesting are checked before it is parsed.
"""

from __future__ import annotations

from typing import Any

from config.untrusted_json import JSONRefused, read_json

UNREADABLE = object()
#: The protocol's messages are flat JSON objects: one level.
FRAME_DEPTH = 1


def read_frame(text: str | None, max_bytes: int) -> Any:
    """The decoded frame, or `UNREADABLE`: a binary or empty frame, one over `max_bytes`, one that
    is not JSON, or an object holding an array or an object (nothing deep reaches the services)."""
    if not isinstance(text, str) or not text:
        return UNREADABLE  # a binary frame or an empty one
    try:
        return read_json(text, max_bytes=max_bytes, max_depth=FRAME_DEPTH)
    except JSONRefused:
        return UNREADABLE
