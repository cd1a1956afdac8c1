"""Records in: an organiser uploads the records of matches played elsewhere into the archive.

Each record is checked by the engine and saved on its own (one transaction each): a broken
record is refused whole — nothing of it is saved — while the good ones of the same upload are
kept, and the caller lists both. The result is the record's own (there is no other source
here); who sat is the record's `players`, each matched to the club's roster when exactly one
player of it has that name. Records of every game the engine plays are taken (Bilka, Kozyol, and
Bilka for two, whose two players sit N and S, seats 0 and 2, as at the live tables).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, time
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from archive.models import ArchivedMatch, MatchSource, SeatKind
from archive.selectors import finished_state, same_name
from archive.services.matches import ArchiveError, PlayedMatch, SeatIn, archive_match, archived_with_record
from clubs.models import Club, ClubPlayer
from clubs.permissions import ROSTER_ROLES, role_of
from clubs.text import has_letters, line
from clubs.text_fields import NAME_LENGTH
from gameplay.engine.bilka2_rules import GAME as BILKA2
from gameplay.engine.cards import PAIRS, SEATS
from gameplay.engine.table_games import game_of_state, table_seat, table_seats


@dataclass(frozen=True)
class Uploaded:
    """What became of one submitted record: its archived match, or why it was refused."""

    label: str
    match: ArchivedMatch | None = None
    error: str = ""


def seats_from_names(players: dict[str, Any], club: Club,
                     numbers: Sequence[int] = (0, 1, 2, 3)) -> list[SeatIn]:
    """The seats of a record's `players` (`numbers`: the four seats, or N and S, 0 and 2, for
    Bilka for two): a name is the club's roster player when exactly one active roster player has
    it (case and spaces aside), else a player known by name only."""
    rows = ClubPlayer.objects.filter(club=club, active=True).select_related("player")
    roster = [row.player for row in rows]
    seats = []
    for seat in numbers:
        letter = SEATS[seat]
        # A record's names are typed elsewhere: tidied as every name here (``clubs.text``); one
        # with nothing to read is the seat's letter.
        name = line(str(players.get(letter) or ""))[:NAME_LENGTH].strip()
        name = name if has_letters(name) else letter
        found = [p for p in roster if same_name(p.display_name, name)]
        if len(found) == 1:
            seats.append(SeatIn(seat=seat, name=found[0].display_name, kind=SeatKind.PLAYER,
                                player_id=found[0].pk, user_id=found[0].user_id))
        else:
            seats.append(SeatIn(seat=seat, name=name, kind=SeatKind.PLAYER))
    return seats


def played_on(day: date) -> datetime:
    """A match known only by its day is kept at that day's noon, so no time zone moves its date."""
    return timezone.make_aware(datetime.combine(day, time(12)))


def _save_one(
    record: dict[str, Any], *, club: Club, user: Any, played_at: datetime, public: bool
) -> ArchivedMatch:
    state, refusal = finished_state(record, any_game=True)
    if state is None:
        raise ArchiveError(refusal)
    twin = archived_with_record(record)
    if twin is not None:
        raise ArchiveError(_("It is already in the archive (#%(id)d).") % {"id": twin.pk})
    players = record.get("players") if isinstance(record.get("players"), dict) else {}
    ns, ew = state.capped_score  # in Bilka for two N's and S's
    # the engine's players sit at the table's seats (Bilka for two's player 1 at S, seat 2)
    reason, seat = (state.end[0], table_seat(state, state.end[1])) if state.end else ("eyes", None)
    # Bilka's and Kozyol's winner is a pair, Bilka for two's a player
    two = game_of_state(state) == BILKA2
    winner = SEATS[table_seat(state, state.winner)] if two else PAIRS[state.winner]
    try:
        with transaction.atomic():
            return archive_match(played=PlayedMatch(
                source=MatchSource.UPLOAD, seats=seats_from_names(players, club, table_seats(state)),
                rules=record.get("rules") or {}, played_at=played_at, ns_eyes=ns, ew_eyes=ew, winner=winner,
                reason=reason, reason_seat=seat, record=record, club_id=club.pk, public=public,
                uploaded_by_id=user.pk,
            ))
    except IntegrityError:  # the same record, uploaded at the same moment by another request
        raise ArchiveError(_("It is already in the archive.")) from None


def upload_records(
    *, user: Any, club: Club, records: Sequence[tuple[str, dict[str, Any]]], played: date, public: bool = True
) -> list[Uploaded]:
    """Archive each (label, record) for `club`, played on `played`; one refused record leaves
    the others saved. Only the club's owners and organisers upload."""
    if user is None or not user.is_authenticated or role_of(user, club) not in ROSTER_ROLES:
        raise PermissionDenied(_("Only the club's owners and organisers upload its matches."))
    out = []
    for label, record in records:
        try:
            match = _save_one(record, club=club, user=user, played_at=played_on(played), public=public)
        except ArchiveError as error:
            out.append(Uploaded(label, error=str(error)))
        else:
            out.append(Uploaded(label, match=match))
    return out
