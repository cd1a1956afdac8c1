"""The only code that changes the archive: a final match kept, corrected or removed (`matches`, its
one writer), records uploaded by organisers (`uploads`), and the double-dummy analysis (`analysis`).

Callers use the names below: `from archive import services as archive`. Each change of a match sends
the signal `match_changed` once it commits (from a worker); ratings and the analysis listen to it.
"""

from archive.services.matches import (
    ArchiveError,
    PlayedMatch,
    SeatIn,
    SheetDeal,
    about_match,
    archive_match,
    archived_with_record,
    match_changed,
    record_hash,
    remove_match,
    set_public,
    share_casual_match,
)
from archive.services.uploads import Uploaded, upload_records

__all__ = [
    "ArchiveError",
    "PlayedMatch",
    "SeatIn",
    "SheetDeal",
    "Uploaded",
    "about_match",
    "archive_match",
    "archived_with_record",
    "match_changed",
    "record_hash",
    "remove_match",
    "set_public",
    "share_casual_match",
    "upload_records",
]
