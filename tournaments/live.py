"""Results of online rounds: take a finished live table's result (gameplay) as a match's result.

The only place where tournaments read gameplay's rows. A live table knows its four seats and
the final score, and the server saw every card, so its result needs no confirmation — provided
the table really is this match: the same four accounts, partners opposite each other, the
tournament's rules, played after the round was paired, and not used for another match.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from gameplay.engine import Rules

from . import permissions
from .core.eyes import InvalidScore, validate_final_score
from .models import Match, MatchStatus
from .services import WIN, _audit, _lock, _refresh_round, _require_user

NS, EW = (0, 2), (1, 3)  # seats N E S W: partners sit opposite
FORFEIT_REASONS = frozenset({"resign", "timeout"})


def _seat_users(table) -> dict[int, int | None]:
    return {s.seat: (None if s.is_bot else s.user_id) for s in table.seats.all()}


def _side_users(match: Match, side: str) -> set[int | None]:
    from clubs.models import Player

    ids = permissions.side_players(match, side)
    return set(Player.objects.filter(pk__in=ids).values_list("user_id", flat=True))


def save_table_result(match: Match, table, home_seats: str, *, check_score: bool) -> None:
    """Make the finished live table's result the match's confirmed result and save the match;
    ``home_seats`` ("NS" or "EW") is where the home pair sat. A resigned or timed-out table is
    a forfeit win. ``check_score``: refuse a final score that cannot be right (ValidationError)."""
    home_won = table.result["winner"] == home_seats
    forfeit = table.result.get("reason") in FORFEIT_REASONS
    if forfeit:
        match.home_eyes, match.away_eyes = (WIN, 0) if home_won else (0, WIN)
    else:
        away_seats = "EW" if home_seats == "NS" else "NS"
        score = table.result["score"]
        match.home_eyes, match.away_eyes = int(score[home_seats]), int(score[away_seats])
        if check_score:
            try:
                validate_final_score((match.home_eyes, match.away_eyes))
            except InvalidScore as error:
                raise ValidationError(_("This score cannot be right: %(error)s") % {"error": error}) from error
    match.winner_id = match.home_id if home_won else match.away_id
    match.forfeit = forfeit
    now = timezone.now()
    match.reported_at, match.reported_side = now, "table"
    match.status = MatchStatus.CONFIRMED
    match.confirmed_by, match.confirmed_at, match.confirmed_how = None, now, "table"
    match.save()


@transaction.atomic
def import_live_result(*, actor, match: Match, table_id: int) -> Match:
    """Record the result of the live table ``table_id`` for ``match`` (a player of it or the organiser)."""
    from gameplay.models import Table, TableStatus

    _require_user(actor)
    match = (
        Match.objects.select_for_update(of=("self",)).select_related("round", "home", "away").get(pk=match.pk)
    )
    tournament = _lock(match.tournament)
    organiser = permissions.can_manage(actor, tournament)
    if not organiser and permissions.side_of(actor, match) is None:
        raise PermissionDenied(_("You do not play in this match, so you cannot enter its result."))
    if match.bye or match.status == MatchStatus.CONFIRMED:
        raise ValidationError(_("This result is already confirmed. Ask the organiser to correct it."))
    table = Table.objects.filter(pk=table_id).prefetch_related("seats").first()
    if table is None:
        raise ValidationError(_("There is no live table number %(n)d.") % {"n": table_id})
    if table.status != TableStatus.FINISHED or not table.result:
        raise ValidationError(_("Table %(n)d has not finished its match yet.") % {"n": table_id})
    if Match.objects.filter(live_table=table.pk).exclude(pk=match.pk).exists():
        raise ValidationError(_("Table %(n)d already gave the result of another match.") % {"n": table_id})
    if table.started_at is None or table.started_at < match.round.created_at:
        raise ValidationError(_("Table %(n)d was played before this round was paired.") % {"n": table_id})
    if Rules.from_json(table.rules).to_json() != Rules.from_json(tournament.rules).to_json():
        raise ValidationError(
            _("Table %(n)d was played with other rules than the tournament's.") % {"n": table_id}
        )
    seats = _seat_users(table)
    pairs = {"NS": {seats.get(s) for s in NS}, "EW": {seats.get(s) for s in EW}}
    home, away = _side_users(match, "home"), _side_users(match, "away")
    if None in home | away:
        raise ValidationError(_("All four players need accounts to play a match at a live table."))
    if pairs == {"NS": home, "EW": away}:
        home_seats = "NS"
    elif pairs == {"NS": away, "EW": home}:
        home_seats = "EW"
    else:
        raise ValidationError(
            _("The players at table %(n)d are not this match's two pairs (partners sit opposite).")
            % {"n": table_id}
        )
    before = match.state()
    match.live_table = table.pk
    match.reported_by = actor
    save_table_result(match, table, home_seats, check_score=True)
    _audit(
        actor=actor,
        action="match.live_result",
        obj=match,
        tournament=tournament,
        before=before,
        after={**match.state(), "table": table.pk},
    )
    _refresh_round(match.round, tournament, slot=match.slot)
    return match
