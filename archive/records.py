"""Reading game records that people upload or paste: the size cap, UTF-8, JSON, the engine's check.

One reader for every page that takes a record (the verify page, the archive's upload, a
tournament match's record), so that each refuses the same things with the same words. Nothing
here saves anything.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

#: The largest record a page reads (a long match is some tens of kilobytes).
MAX_RECORD_BYTES = 1_000_000


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


def records_in(data: bytes, label: str) -> list[Submitted]:
    """The records in one file or pasted text: one record, or a JSON array of records. Text that
    is not UTF-8 or not JSON is one refusal for the whole of it."""
    if len(data) > MAX_RECORD_BYTES:
        return [Submitted(label, error=_("This file is too large to be a game record."))]
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return [Submitted(label, error=_("This is not a game record: it is not UTF-8 text."))]
    try:
        value = json.loads(text)
    except ValueError:
        return [Submitted(label, error=_("This is not a game record: it is not JSON."))]
    if isinstance(value, list):
        return [_one(item, _("%(where)s, record %(n)d") % {"where": label, "n": n})
                for n, item in enumerate(value, start=1)] or [
            Submitted(label, error=_("This list holds no records."))]
    return [_one(value, label)]


def _one(value: Any, label: str) -> Submitted:
    if not isinstance(value, dict):
        return Submitted(label, error=_("This is not a game record: a record is a JSON object."))
    return Submitted(label, record=value)
