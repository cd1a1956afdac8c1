"""Results: reported, confirmed (the other pair, its PIN, the organiser), disputed, corrected.

One code path for every format: a match is always two partnerships, so an individual event's
table is reported and settled exactly as a pairs match; a no-show there is a forfeit of the
absentee's partnership with his seat marked. Each ends in ``progress.refresh_round``. The one
path for every way a result arrives is why this file runs a few lines past 400.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs import text
from gameplay.engine.sheets import WIN_SCORE, InvalidScore, validate_final_score

from .. import permissions
from ..core.games import score_deals
from ..formats import format_of
from ..models import Entry, IndividualEntry, Match, MatchStatus, ResultCorrection, Seat, Tournament
from ..score_words import score_error_text
from .archiving import sync_match
from .common import (
    NOTIFY_DISPUTE,
    NOTIFY_RESULT_REPORTED,
    audit,
    lock_tournament,
    lucy_counts,
    on_commit_task,
    require_manager,
    require_user,
    write_deal_lines,
)
from .duplicate import adjust_withdrawn_boards
from .pins import PinSender, check_pin, reporting_side
from .progress import absent_side, mark_disputed, refresh_round


def _match_for_update(match: Match) -> tuple[Match, Tournament]:
    match = (
        Match.objects.select_for_update(of=("self",))
        .select_related("round", "home", "away", "tournament")
        .get(pk=match.pk)
    )
    return match, lock_tournament(match.tournament)


def _score(
    tournament: Tournament, home_eyes, away_eyes, *, forfeit: bool, deals
) -> tuple[int, int, list, tuple]:
    """Check a result; return (home eyes, away eyes, sheet lines, Lucy counts)."""
    if deals:
        try:
            sheet = score_deals(tournament.rules, deals)  # by the event's game (Bilka's or Kozyol's sheet)
        except InvalidScore as error:
            raise ValidationError(
                _("This score sheet cannot be right: %(error)s") % {"error": score_error_text(error)}
            ) from error
        if sheet.winner is None:
            raise ValidationError(
                _("The sheet stops at %(a)d:%(b)d: a match ends when a pair reaches 12 eyes.")
                % {"a": sheet.score[0], "b": sheet.score[1]}
            )
        lucy = lucy_counts(sheet.lines)
        return sheet.score[0], sheet.score[1], list(sheet.lines), lucy
    try:
        validate_final_score((home_eyes, away_eyes), forfeit=forfeit)
    except InvalidScore as error:
        raise ValidationError(
            _("This score cannot be right: %(error)s") % {"error": score_error_text(error)}
        ) from error
    return home_eyes, away_eyes, [], (None, None)


def _write_result(match: Match, tournament: Tournament, home_eyes, away_eyes, *, forfeit, deals) -> None:
    h, a, lines, lucy = _score(tournament, home_eyes, away_eyes, forfeit=forfeit, deals=deals)
    match.home_eyes, match.away_eyes = h, a
    match.home_lucy, match.away_lucy = lucy
    match.winner_id = match.home_id if h > a else match.away_id
    match.forfeit = forfeit
    write_deal_lines(match, lines)


def require_reporter(*, actor, match: Match) -> None:
    """Who may report this match's result (a player of it, or the organiser), checked on its own:
    the API refuses anyone else before it reads the result from the request."""
    require_user(actor)
    if not permissions.can_manage(actor, match.tournament) and permissions.side_of(actor, match) is None:
        raise PermissionDenied(_("You do not play in this match, so you cannot enter its result."))


@transaction.atomic
def enter_result(
    *,
    actor,
    match: Match,
    home_eyes: int | None = None,
    away_eyes: int | None = None,
    forfeit: bool = False,
    deals: list[dict] | None = None,
    record: dict | None = None,
    record_chairs: dict[str, int] | None = None,
    pin: str | None = None,
    sender: PinSender | None = None,
) -> Match:
    """A player of the match (or the organiser) reports the final eyes, or the sheet deal by deal;
    so does anyone with a side's PIN (``pin``; ``sender``, who typed it) for that side.

    A side's report waits for the other pair; the organiser's is confirmed at once.
    ``record``, ``record_chairs``: the record of the match's play and who sat where in it
    (``services.records`` checks them); a result entered without one drops any earlier record.
    """
    match, tournament = _match_for_update(match)
    signed_in = actor is not None and actor.is_authenticated
    organiser = signed_in and permissions.can_manage(actor, tournament)
    if match.bye:
        raise ValidationError(_("A bye has no result to enter."))
    if match.status == MatchStatus.CONFIRMED:
        raise ValidationError(_("This result is already confirmed. Ask the organiser to correct it."))
    side, how = reporting_side(actor, match, organiser=organiser, pin=pin, sender=sender)
    if match.status == MatchStatus.DISPUTED and not organiser:
        raise ValidationError(_("This result is disputed; the organiser will settle it."))
    if match.status == MatchStatus.UNCONFIRMED and not organiser and side != match.reported_side:
        raise ValidationError(
            _("The other pair has reported a result: confirm it, or dispute it if it is wrong.")
        )
    if forfeit and not organiser:
        raise PermissionDenied(_("Only the organiser records a forfeit or a no-show."))
    _write_result(match, tournament, home_eyes, away_eyes, forfeit=forfeit, deals=deals)
    match.record, match.record_chairs = record, record_chairs if record is not None else None
    now = timezone.now()
    match.reported_by, match.reported_at = (actor if signed_in else None), now
    match.reported_side = side or "organiser"
    if side is not None and match.played_at is None:
        match.played_at = now  # the players' first report, kept when the organiser enters it again
    if organiser:
        match.status = MatchStatus.CONFIRMED
        match.confirmed_by, match.confirmed_at, match.confirmed_how = actor, now, "organiser"
    else:
        match.status = MatchStatus.UNCONFIRMED
    match.save()
    sync_match(match)
    after = {**match.state(), "how": how, "side": side} if how == "pin" else match.state()
    audit(actor=actor, action="match.report", obj=match, tournament=tournament, after=after)
    if match.status == MatchStatus.CONFIRMED:
        refresh_round(match.round, tournament, slot=match.slot)
    else:
        on_commit_task(NOTIFY_RESULT_REPORTED, match.pk)
    return match


def _may_answer(
    actor, match: Match, tournament: Tournament, pin: str | None, sender: PinSender | None
) -> str:
    """How the actor may confirm or dispute: "organiser", "player" (the other pair) or "pin" (the
    PIN of the side that did not report, printed on its own half of the score sheet)."""
    if actor is not None and actor.is_authenticated and permissions.can_manage(actor, tournament):
        return "organiser"
    side = permissions.side_of(actor, match)
    if side is not None and side != match.reported_side:
        return "player"
    if side is not None:  # the reporting pair cannot confirm itself, PIN or not
        raise PermissionDenied(_("Your pair reported this result; the other pair confirms it."))
    if pin is None and actor is not None and actor.is_authenticated:  # the API: no PIN field at all
        raise PermissionDenied(
            _("Only the other pair, the organiser or someone with the other pair's PIN can confirm.")
        )
    check_pin(match, pin, sender)  # a visitor without a PIN is asked for it
    return "pin"


@transaction.atomic
def confirm_result(
    *, actor, match: Match, pin: str | None = None, sender: PinSender | None = None
) -> Match:
    """The opposing pair confirms (from a phone, or anyone with its PIN), or the organiser does.

    ``sender``: who typed the PIN, so that wrong PINs slow him down (``note_wrong_pin``)."""
    match, tournament = _match_for_update(match)
    how = _may_answer(actor, match, tournament, pin, sender)
    if match.status == MatchStatus.CONFIRMED:
        return match
    if match.status == MatchStatus.SCHEDULED or not match.has_result:  # a refused live result has none
        raise ValidationError(_("No result has been entered yet."))
    if match.status == MatchStatus.DISPUTED and how != "organiser":
        raise ValidationError(_("This result is disputed; the organiser will settle it."))
    _confirm(match, actor if actor is not None and actor.is_authenticated else None, how)
    audit(
        actor=actor,
        action="match.confirm",
        obj=match,
        tournament=tournament,
        after={**match.state(), **_answered(match, how)},
    )
    refresh_round(match.round, tournament, slot=match.slot)
    return match


def _answered(match: Match, how: str) -> dict:
    """How a confirmation or dispute was made, for the log; with a PIN, whose (the side that did not
    report), so that the log names the pair rather than nobody."""
    if how != "pin":
        return {"how": how}
    return {"how": how, "side": {"home": "away", "away": "home"}[match.reported_side]}


def _confirm(match: Match, user, how: str) -> None:
    match.status = MatchStatus.CONFIRMED
    match.confirmed_by, match.confirmed_at, match.confirmed_how = user, timezone.now(), how
    match.save(update_fields=["status", "confirmed_by", "confirmed_at", "confirmed_how"])
    sync_match(match)


@transaction.atomic
def dispute_result(
    *, actor, match: Match, note: str = "", pin: str | None = None, sender: PinSender | None = None
) -> Match:
    """The other pair says the reported score is wrong (with its PIN, as for confirming): the
    organiser settles it."""
    match, tournament = _match_for_update(match)
    how = _may_answer(actor, match, tournament, pin, sender)
    if match.status != MatchStatus.UNCONFIRMED:
        raise ValidationError(_("Only a result waiting for confirmation can be disputed."))
    mark_disputed(match, dispute_note=text.line(note)[: Match._meta.get_field("dispute_note").max_length])
    audit(
        actor=actor,
        action="match.dispute",
        obj=match,
        tournament=tournament,
        after={**match.state(), **_answered(match, how), "note": match.dispute_note},
    )
    on_commit_task(NOTIFY_DISPUTE, match.pk)
    return match


@transaction.atomic
def correct_result(
    *,
    actor,
    match: Match,
    home_eyes: int | None = None,
    away_eyes: int | None = None,
    forfeit: bool = False,
    deals: list[dict] | None = None,
    reason: str = "",
    system: bool = False,
    record: dict | None = None,
    record_chairs: dict[str, int] | None = None,
) -> Match:
    """The organiser sets any result; logged (who, when, before, after); standings follow on read.

    Changing a confirmed result always needs a written ``reason`` (kept with the match for the
    players to see), and so does changing any result once a later round is paired: those pairings
    were drawn on the old result (the match page lists them). ``system``: the
    tournament's own plan sets it (the automatic no-show, ``services.online``), with no user to
    check; the log then names no actor and the match reads "confirmed automatically".
    ``record``, ``record_chairs``: as for ``enter_result``; a correction without a record drops
    the earlier one, which would no longer lead to the result.
    """
    match, tournament = _match_for_update(match)
    if not system:
        require_manager(actor, tournament)
    if match.bye:
        raise ValidationError(_("A bye has no result to enter."))
    reason = text.line(reason)
    later_paired = tournament.rounds.filter(number__gt=match.round.number).exists()
    had_result = match.has_result
    was_confirmed = match.status == MatchStatus.CONFIRMED and had_result
    before = match.state()
    old_winner = match.winner_id
    _write_result(match, tournament, home_eyes, away_eyes, forfeit=forfeit, deals=deals)
    match.record, match.record_chairs = record, record_chairs if record is not None else None
    if (
        format_of(tournament).eliminates
        and old_winner is not None
        and match.winner_id != old_winner
        and later_paired
    ):
        raise ValidationError(
            _("The next knockout round is already paired; this correction would change who is in it.")
        )
    if was_confirmed and not reason and not system:
        raise ValidationError(
            _(
                "This result is already confirmed. Write the reason for the correction: it is kept"
                " with the match for the players to see."
            )
        )
    if later_paired and had_result and not reason and not system:
        raise ValidationError(
            _(
                "Later rounds were already paired on this result. Write the reason for the"
                " correction: it is kept with the match for the players to see."
            )
        )
    now = timezone.now()
    if match.reported_at is None:
        match.reported_by, match.reported_at, match.reported_side = actor, now, "organiser"
    match.status = MatchStatus.CONFIRMED
    match.confirmed_by, match.confirmed_at = actor, now
    match.confirmed_how = "auto" if system else "organiser"
    match.save()
    sync_match(match)
    ResultCorrection.objects.create(
        match=match, actor=actor, before=before, after=match.state(), reason=reason[:300]
    )
    audit(
        actor=actor,
        action="match.correct",
        obj=match,
        tournament=tournament,
        before=before,
        after=match.state(),
    )
    refresh_round(match.round, tournament, slot=match.slot)
    return match


@transaction.atomic
def record_forfeit(*, actor, match: Match, loser: Entry, reason: str = "", system: bool = False) -> Match:
    """A no-show or a forfeit: 12:0 to the other pair, confirmed, logged if it replaces a result.

    ``system``: as for ``correct_result``, the tournament's own plan with no user to check.
    """
    match, tournament = _match_for_update(match)
    if not system:
        require_manager(actor, tournament)
    if match.bye or loser.pk not in (match.home_id, match.away_id):
        raise ValidationError(_("That pair does not play in this match."))
    winner_home = loser.pk == match.away_id
    return correct_result(
        actor=actor,
        match=match,
        home_eyes=WIN_SCORE if winner_home else 0,
        away_eyes=0 if winner_home else WIN_SCORE,
        forfeit=True,
        reason=reason or _("forfeit or no-show"),
        system=system,
    )


def auto_confirm_due(*, now: datetime | None = None) -> list[int]:
    """Confirm results that waited longer than their tournament's ``auto_confirm_hours``.

    Called by the periodic task; each match is confirmed in its own transaction and only while
    it is still unconfirmed, so running twice (or alongside a player's click) does nothing twice.
    """
    now = now or timezone.now()
    done: list[int] = []
    for tournament in Tournament.objects.filter(matches__status=MatchStatus.UNCONFIRMED).distinct():
        cutoff = now - timedelta(hours=tournament.auto_confirm_hours)
        ids = list(
            Match.objects.filter(
                tournament=tournament, status=MatchStatus.UNCONFIRMED, reported_at__lte=cutoff
            ).values_list("pk", flat=True)
        )
        for pk in ids:
            with transaction.atomic():
                match = (
                    Match.objects.select_for_update(skip_locked=True)
                    .filter(pk=pk, status=MatchStatus.UNCONFIRMED)
                    .first()
                )
                if match is None:
                    continue
                locked = lock_tournament(tournament)
                _confirm(match, None, "auto")
                audit(
                    actor=None, action="match.auto_confirm", obj=match, tournament=locked, after=match.state()
                )
                refresh_round(match.round, locked, slot=match.slot)
                done.append(pk)
    return done


@transaction.atomic
def record_no_show(
    *, actor, match: Match, entry: IndividualEntry, reason: str = "", system: bool = False
) -> Match:
    """A player did not come to his table: 12:0 against his partnership, logged as a correction;
    in the standings his partner (and the opponents) score a win and he a forfeit.

    ``system``: the tournament's own no-show plan marks him (``services.online.no_shows``, an online
    round), with no user to check, so that the automatic no-show scores exactly as the organiser's.
    """
    match = (
        Match.objects.select_for_update(of=("self",)).select_related("home", "away", "round").get(pk=match.pk)
    )
    tournament = lock_tournament(match.tournament)
    if not system:
        require_manager(actor, tournament)
    seat = Seat.objects.filter(match=match, entry=entry).first()
    if seat is None:
        raise ValidationError(_("That player does not sit at this table."))
    seat.absent = True
    seat.save(update_fields=["absent"])
    side = absent_side(match, seat)
    # A duplicate table's boards not played: average minus to him, average plus to the other three.
    adjust_withdrawn_boards(actor=actor, tournament=tournament, matches=[match], at_fault={side.pk})
    return record_forfeit(
        actor=actor,
        match=match,
        loser=side,
        reason=reason or _("no-show: %(name)s") % {"name": entry.player.display_name},
        system=system,
    )

