"""Reading game records that people upload or paste: the size cap, UTF-8, JSON, the engine's check.

One reader for every page that takes a record (the verify page, the archive's upload, a
tournament match's record), so that each refuses the same things with the same words. The JSON is
read by the site's one reader of untrusted JSON (`config.untrusted_json`): size and nesting are
checked before anything is parsed. Nothing here saves anything.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from config.untrusted_json import NOT_JSON, NOT_UTF8, TOO_DEEP, TOO_LARGE, JSONRefused, read_json

#: The largest record a page reads (a long match is some tens of kilobytes).
MAX_RECORD_BYTES = 1_000_000
#: The deepest nesting a record may have (a bilka-record/1 is 5 levels deep).
MAX_RECORD_DEPTH = 16


def submitted_bytes(upload: Any, pasted: str) -> tuple[bytes, str]:
    """The bytes of an uploaded file, else of the pasted text, and why they are refused ("" if
    they are not): nothing given, or more than the cap (only the cap and one byte are read)."""
    data = upload.read(MAX_RECORD_BYTES + 1) if upload is not None else pasted.encode()
    if not data.strip():
        return data, _("Paste a record or choose its file.")
    if len(data) > MAX_RECORD_BYTES:
        return data, _("This file is too large to be a game record.")
    return data, ""


@dataclass(frozen=True)
class Submitted:
    """One record as submitted: where it came from (the file's name, "pasted", with its place in
    a JSON array), the record (None when refused) and the refusal."""

    label: str
    record: dict[str, Any] | None = None
    error: str = ""


def parsed(data: bytes) -> tuple[Any, str]:
    """The JSON value of a submitted file or text, and why it is refused ("" if it is not): too
    large, nested deeper than any record, not UTF-8, not JSON."""
    try:
        return read_json(data, max_bytes=MAX_RECORD_BYTES, max_depth=MAX_RECORD_DEPTH), ""
    except JSONRefused as refused:
        if refused.code == TOO_LARGE:
            return None, _("This file is too large to be a game record.")
        if refused.code == TOO_DEEP:
            return None, _("This is not a game record: it is nested deeper than any record.")
        if refused.code == NOT_UTF8:
            return None, _("This is not a game record: it is not UTF-8 text.")
        if refused.code == NOT_JSON:
            return None, _("This is not a game record: it is not JSON.")
        return None, refused.message()


def records_in(data: bytes, label: str) -> list[Submitted]:
    """The records in one file or pasted text: one record, or a JSON array of records. Text that
    cannot be read (`parsed`) is one refusal for the whole of it."""
    value, refusal = parsed(data)
    if refusal:
        return [Submitted(label, error=refusal)]
    if isinstance(value, list):
        return [_one(item, _("%(where)s, record %(n)d") % {"where": label, "n": n})
                for n, item in enumerate(value, start=1)] or [
            Submitted(label, error=_("This list holds no records."))]
    return [_one(value, label)]


def _one(value: Any, label: str) -> Submitted:
    if not isinstance(value, dict):
        return Submitted(label, error=_("This is not a game record: a record is a JSON object."))
    return Submitted(label, record=value)
