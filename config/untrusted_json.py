"""The one way to read JSON that people send: records pasted or uploaded, the API's bodies, the
table socket's frames.

Python's `json.loads` recurses once per level of nesting: a body of a thousand `[` (2 KB) raises
RecursionError, which no caller expects (a server error). So the size is checked first (a caller
reading a stream reads no more than `max_bytes` and one byte), then the nesting depth by a scan
that counts the brackets outside strings without building anything, and only then is the text
parsed, strictly: no NaN or Infinity (which neither PostgreSQL's jsonb nor other JSON readers
take), and no string escaping a NUL or half a surrogate pair (which cannot be stored). Every refusal
is one exception, `JSONRefused`, whose `code` says why and whose `message()` says it in the
language active when it is read (the reader's, in a request or a socket's `translation.override`).
"""

from __future__ import annotations

import json
import re
from itertools import accumulate
from typing import Any

from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext as _

#: Deep enough for every document the site reads (a game record is 5 levels, an API body 2, a
#: socket frame 1) and far below the parser's recursion.
MAX_DEPTH = 32

TOO_LARGE = "too_large"
TOO_DEEP = "too_deep"
NOT_UTF8 = "not_utf8"
NOT_JSON = "not_json"
NOT_TEXT = "not_text"

# A whole JSON string (escapes included), matched without backtracking; what is left once they are
# gone is brackets, punctuation, numbers and literals, and the opening quote of a string left open.
_STRING = re.compile(r'"(?:[^"\\]++|\\.)*+"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]++")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
# An escape in a string: `\uXXXX` (its digits kept) or a backslash and one character.
_ESCAPE = re.compile(r"\\(?:u([0-9a-fA-F]{4})|.)", re.DOTALL)


class JSONRefused(ValueError):
    """JSON the site will not read: over the size or depth limit, not UTF-8, not JSON, or holding
    what is not text; `code` is one of the constants above, `limit` the size or depth exceeded."""

    def __init__(self, code: str, limit: int = 0) -> None:
        super().__init__(code)
        self.code = code
        self.limit = limit

    def message(self) -> str:
        """Why, in the active language."""
        if self.code == TOO_LARGE:
            return _("This is too large: the site reads at most %(size)s here.") % {
                "size": filesizeformat(self.limit)
            }
        if self.code == TOO_DEEP:
            text = _("This JSON is nested too deep (levels allowed here: %(levels)d).")
            return text % {"levels": self.limit}
        if self.code == NOT_UTF8:
            return _("This is not UTF-8 text.")
        if self.code == NOT_TEXT:
            return _("This JSON holds a character that is not text (a NUL or half a surrogate pair).")
        return _("This is not valid JSON.")

    def __str__(self) -> str:
        return self.message()


def over_size(data: bytes | str, max_bytes: int) -> bool:
    """Whether `data` is over `max_bytes` (text counted in UTF-8 bytes, encoded only when it may be)."""
    if isinstance(data, bytes):
        return len(data) > max_bytes
    if len(data) <= max_bytes // 4:
        return False  # at most 4 bytes a character
    return len(data) > max_bytes or len(data.encode("utf-8", "surrogatepass")) > max_bytes


def nesting_depth(text: str) -> int:
    """The deepest nesting of arrays and objects in `text`, counting brackets outside strings: an
    upper bound of how deep a parser recurses on it (an unbalanced or unclosed text counts as
    deep as its opening brackets go; a stray closing bracket ends the parse there anyway)."""
    outside = _STRING.sub("", text)
    unclosed = outside.find('"')
    if unclosed >= 0:
        outside = outside[:unclosed]  # the rest is inside a string that never ends
    brackets = _NOT_BRACKET.sub("", outside)
    if not brackets:
        return 0
    return max(0, max(accumulate(map(_STEP.__getitem__, brackets))))


def _escapes_no_text(text: str) -> bool:
    """Whether a string of `text` escapes a NUL or half a surrogate pair: valid JSON, yet no text
    (PostgreSQL refuses both, UTF-8 cannot encode the second)."""
    high_ends = -1  # where the escape of a high surrogate ended, while its low half is awaited
    for found in _ESCAPE.finditer(text):
        code = int(found[1], 16) if found[1] else None
        if high_ends >= 0:
            if found.start() != high_ends or code is None or not 0xDC00 <= code <= 0xDFFF:
                return True
            high_ends = -1
        elif code == 0 or (code is not None and 0xDC00 <= code <= 0xDFFF):
            return True
        elif code is not None and 0xD800 <= code <= 0xDBFF:
            high_ends = found.end()
    return high_ends >= 0


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def read_json(
    data: bytes | str, *, max_bytes: int, max_depth: int = MAX_DEPTH, text_only: bool = True
) -> Any:
    """The value of a JSON text of at most `max_bytes` and `max_depth` levels, or JSONRefused.
    Bytes are UTF-8 (a byte-order mark is let through). `text_only=False` lets strings escape a
    NUL or half a surrogate pair, for a reader that checks each string it keeps itself (the API's
    serializers refuse both by field; a field they ignore may hold anything JSON allows)."""
    if over_size(data, max_bytes):
        raise JSONRefused(TOO_LARGE, max_bytes)
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise JSONRefused(NOT_UTF8) from None
    else:
        text = data.removeprefix("\ufeff")
    if nesting_depth(text) > max_depth:
        raise JSONRefused(TOO_DEEP, max_depth)
    try:
        value = json.loads(text, parse_constant=_no_constants)
    except (ValueError, RecursionError):  # JSONDecodeError, too-long integers; the depth is checked
        raise JSONRefused(NOT_JSON) from None
    if text_only and "\\u" in text and _escapes_no_text(text):
        raise JSONRefused(NOT_TEXT)
    return value
