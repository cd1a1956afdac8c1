"""A tournament match in the archive: archived when its result is final, updated when it is
corrected, removed with it; public once its round is over.

Every path that confirms a result (the organiser's entry, the other pair's or its PIN's
confirmation, the automatic one, a live table's, a forfeit, a correction, a settled dispute) calls
``sync_match`` in its transaction, and the archive's one service does the rest. Who sat is
resolved here, where the tournament knows it: substitutes for the round they played, an
individual event's seats, a live table's chairs.
"""

from __future__ import annotations

import logging

from django.utils import timezone

from archive import services as archive
from archive.models import MatchSource, SeatKind
from clubs.models import Player
from gameplay.engine.cards import SEATS
from gameplay.models import Table

from .. import permissions
from ..models import Match, MatchStatus, Round, RoundStatus, Tournament, TournamentStatus
from ..models import Seat as TournamentSeat

#: Where the home pair's two players sit when the match was played over the board and nobody wrote
#: the chairs down: home is NS (its first player North), away is EW.
HOME_SEATS, AWAY_SEATS = (0, 2), (1, 3)
logger = logging.getLogger(__name__)


def _players(match: Match, side: str) -> list[Player]:
    """The two players of ``side`` in this round, the entry's order kept, substitutes in place."""
    entry = match.home if side == "home" else match.away
    ids = permissions.side_players(match, side)
    order = [entry.player_a_id, entry.player_b_id]
    ordered = [pid for pid in order if pid in ids] + sorted(ids - set(order))
    rows = Player.objects.in_bulk(ordered)
    return [rows[pid] for pid in ordered if pid in rows]


def _seat_in(seat: int, player: Player) -> archive.SeatIn:
    return archive.SeatIn(seat=seat, name=player.display_name, kind=SeatKind.PLAYER, player_id=player.pk,
                       user_id=player.user_id)


def _table_of(match: Match) -> Table | None:
    """The live table whose result the match took (its record is the match's), if any."""
    if match.live_table is None or match.reported_side != "table":
        return None
    return Table.objects.filter(pk=match.live_table).prefetch_related("seats").first()


def _record_of(match: Match, table: Table | None) -> dict | None:
    """The record the match is archived with: its live table's when the result came from the
    table, else the one the organiser attached to the pairing (``services.records``)."""
    if table is not None:
        return table.record
    return match.record


def _seats(match: Match, table: Table | None) -> tuple[list[archive.SeatIn], str]:
    """The four seats and where the home pair sat ("NS" or "EW")."""
    home, away = _players(match, "home"), _players(match, "away")
    if table is None and match.record is not None and match.record_chairs:
        by_id = {p.pk: p for p in home + away}
        chairs = {SEATS.index(letter): by_id.get(pid) for letter, pid in match.record_chairs.items()}
        if sorted(chairs) == [0, 1, 2, 3] and all(chairs.values()):
            home_seats = "NS" if any(p in home for s, p in chairs.items() if s % 2 == 0) else "EW"
            return [_seat_in(s, p) for s, p in sorted(chairs.items())], home_seats
    if table is not None:
        by_user = {p.user_id: p for p in home + away if p.user_id}
        seats, home_seats = [], "NS"
        for chair in table.seats.all():
            player = by_user.get(chair.user_id)
            if player is None:
                seats.append(archive.SeatIn(seat=chair.seat, name=chair.name, kind=SeatKind.GUEST))
                continue
            seats.append(_seat_in(chair.seat, player))
            if chair.seat % 2 == 0 and player in home:
                home_seats = "NS"
            elif chair.seat % 2 == 1 and player in home:
                home_seats = "EW"
        return seats, home_seats
    chairs = {s.entry.player_id: SEATS.index(s.seat)
              for s in TournamentSeat.objects.filter(match=match).select_related("entry") if s.seat in SEATS}
    if len(chairs) == 4 and all(p.pk in chairs for p in home + away):
        home_seats = "NS" if chairs[home[0].pk] % 2 == 0 else "EW"
        return [_seat_in(chairs[p.pk], p) for p in home + away], home_seats
    seats = [_seat_in(s, p) for s, p in zip(HOME_SEATS, home, strict=False)]
    seats += [_seat_in(s, p) for s, p in zip(AWAY_SEATS, away, strict=False)]
    return seats, "NS"


def _sheet(match: Match, home_seats: str) -> list[archive.SheetDeal]:
    flip = home_seats == "EW"
    out = []
    for line in match.deals.all().order_by("number"):
        pts = (line.home_points, line.away_points)
        eyes = (line.home_eyes, line.away_eyes)
        score = (line.home_score, line.away_score)
        if flip:
            pts, eyes, score = pts[::-1], eyes[::-1], score[::-1]
        duty = line.jack_holder  # none in Kozyol: nobody is on duty
        if flip and duty is not None:
            duty = 1 - duty
        out.append(archive.SheetDeal(
            outcome=line.outcome, pair_on_duty=duty, ns_points=pts[0], ew_points=pts[1],
            ns_eyes=eyes[0], ew_eyes=eyes[1], ns_score=score[0], ew_score=score[1],
        ))
    return out


def _played_at(match: Match, table: Table | None):
    """When the match was played, where the ratings learn it: its table's end, else the players' own
    first report (made at the table; an organiser's entry over it or a correction keeps it), else
    the round's pairing (an organiser's entry may come days later). A result entered late is so
    placed in its round, and the ratings recompute the history after it."""
    if table is not None and table.finished_at is not None:
        return table.finished_at
    if match.played_at is not None:
        return match.played_at  # the players' own first report: an organiser's re-entry keeps it
    return min(match.round.created_at, timezone.now())


def sync_match(match: Match) -> None:
    """Make the archive say what the match says: archive (or update) a final result, remove a
    result that is not final. Byes are not matches. Call inside the transaction that changed it."""
    if match.bye or match.away_id is None or match.tournament.is_duplicate:
        return  # a duplicate table has no match result: its board set is archived by ``sync_board_table``
    if match.status != MatchStatus.CONFIRMED or match.home_eyes is None:
        archive.remove_match(tournament_match=match.pk)
        return
    tournament = match.tournament
    table = _table_of(match)
    seats, home_seats = _seats(match, table)
    if len(seats) != 4:
        return  # an entry short of a player cannot have sat at a table of four
    home_won = match.winner_id == match.home_id
    ns, ew = (match.home_eyes, match.away_eyes) if home_seats == "NS" else (match.away_eyes, match.home_eyes)
    winner = home_seats if home_won else ("EW" if home_seats == "NS" else "NS")
    reason, reason_seat = "eyes", None
    record = _record_of(match, table)
    ended = (record or {}).get("end") if table is None else None
    if table is not None and (table.result or {}).get("reason") in ("resign", "timeout"):
        reason = table.result["reason"]
        reason_seat = SEATS.index(table.result["seat"]) if table.result.get("seat") else None
    elif isinstance(ended, dict) and ended.get("reason") in ("resign", "timeout", "forfeit"):
        reason = ended["reason"]  # an attached record that ended early: the record says how
        reason_seat = SEATS.index(ended["seat"]) if ended.get("seat") in SEATS else None
    elif match.forfeit:
        loser = "EW" if winner == "NS" else "NS"
        reason, reason_seat = "forfeit", (0 if loser == "NS" else 1)
    archive.archive_match(played=archive.PlayedMatch(
        source=MatchSource.TOURNAMENT,
        seats=seats,
        rules=tournament.rules,
        played_at=_played_at(match, table),
        ns_eyes=ns, ew_eyes=ew, winner=winner, reason=reason, reason_seat=reason_seat,
        record=record,
        sheet=() if record is not None or match.forfeit else _sheet(match, home_seats),
        table_id=table.pk if table is not None else None,
        tournament_match=match.pk,
        tournament=tournament.pk,
        event_name=tournament.name,
        event_url=match.get_absolute_url(),
        round_number=match.round.number,
        club_id=tournament.club_id,
        public=match.round.status == RoundStatus.COMPLETE,
        rated=tournament.rated,  # each game in a rating of its own (a Kozyol event: Kozyol's)
    ))


def round_status_changed(rnd: Round) -> None:
    """A round that is over opens its matches to everyone; one reopened closes them again. Not in a
    duplicate event, whose boards move to other tables in later rounds (``event_status_changed``)."""
    if rnd.tournament.is_duplicate:
        return
    ids = list(rnd.matches.values_list("pk", flat=True))
    archive.set_public(tournament_matches=ids, public=rnd.status == RoundStatus.COMPLETE)


def event_status_changed(tournament: Tournament) -> None:
    """A duplicate event's tables open to everyone when the event is finished (every board has been
    played everywhere), and close again if it is reopened."""
    if tournament.is_duplicate:
        ids = list(Match.objects.filter(tournament=tournament).values_list("pk", flat=True))
        archive.set_public(tournament_matches=ids, public=tournament.status == TournamentStatus.FINISHED)


def sync_board_table(match: Match, table: Table, tournament: Tournament) -> None:
    """A duplicate event's online table in the archive, card by card: its boards are analysed and
    its players can be reviewed for fair play like any online match. A board set has no winner
    (each board is scored apart, by matchpoints), so it is archived as ``boards`` with none and is
    never rated; a table ended by a resignation or the clock keeps that end. Private until the
    event is finished. A record the archive refuses is logged and left out rather than stop the
    boards' results."""
    seats, _home = _seats(match, table)
    result = table.result or {}
    if len(seats) != 4 or not table.record or result.get("reason") not in ("boards", "resign", "timeout"):
        return
    ns, ew = (result.get("score") or {}).get("NS", 0), (result.get("score") or {}).get("EW", 0)
    ended = result["reason"] != "boards"
    seat = result.get("seat")
    try:
        archive.archive_match(played=archive.PlayedMatch(
            source=MatchSource.TOURNAMENT, seats=seats, rules=tournament.rules,
            played_at=_played_at(match, table), ns_eyes=min(ns, 12), ew_eyes=min(ew, 12),
            winner=(result.get("winner") or "") if ended else "", reason=result["reason"],
            reason_seat=SEATS.index(seat) if ended and seat in SEATS else None,
            record=table.record, table_id=table.pk, tournament_match=match.pk, tournament=tournament.pk,
            event_name=tournament.name, event_url=match.get_absolute_url(), round_number=match.round.number,
            club_id=tournament.club_id, public=tournament.status == TournamentStatus.FINISHED, rated=False,
        ))
    except archive.ArchiveError as error:
        logger.warning("duplicate table %s not archived: %s", table.pk, error)


def match_deleted(sender, instance: Match, **kwargs) -> None:
    """Receiver of ``post_delete`` for matches: a match row that is gone (its round unpaired, its
    event deleted) takes its archived match with it, in the same transaction."""
    archive.remove_match(tournament_match=instance.pk)
