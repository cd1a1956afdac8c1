"""Reading a client's frame of `/ws/table/<id>/`: a JSON text frame, or `UNREADABLE`.

A frame the socket cannot read (not text, not JSON, nested deeper than the flat objects of the
protocol, a number too long to convert) is answered with `invalid` by the consumer; it must never
raise there, as an exception ends the socket's consumer without its disconnect.
"""

from __future__ import annotations

import json
from typing import Any

UNREADABLE = object()


def read_frame(text: str | None) -> Any:
    """The decoded frame, or `UNREADABLE`. The protocol's messages are flat JSON objects, so an
    object holding an array or an object is unreadable too (nothing deep reaches the services)."""
    if not isinstance(text, str) or not text:
        return UNREADABLE  # a binary frame or an empty one
    try:
        content = json.loads(text)
    except (ValueError, RecursionError):  # JSONDecodeError and too-long integers are ValueErrors
        return UNREADABLE
    if isinstance(content, dict) and any(isinstance(v, (dict, list)) for v in content.values()):
        return UNREADABLE
    return content
