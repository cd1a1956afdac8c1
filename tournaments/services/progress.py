"""What follows a result: a forfeit written, a knockout tie's next game, the round closed, the event over.

Results, pairing, withdrawals and the settings all end here, so whichever way a result arrives the
round and the tournament move on the same way.
"""

from __future__ import annotations

from collections import defaultdict

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _

from gameplay.engine.sheets import WIN_SCORE

from ..formats import format_of
from ..formats.brackets import GROUP
from ..formats.series import tie_outcome
from ..models import (
    Entry,
    EntryStatus,
    Match,
    MatchStatus,
    ResultCorrection,
    Round,
    RoundStatus,
    Seat,
    SeatName,
    Tournament,
    TournamentStatus,
)
from .archiving import event_status_changed, round_status_changed, sync_match
from .common import NOTIFY_TOURNAMENT_FINISHED, audit, on_commit_task

FORFEIT_ACTION = "match.withdrawal_forfeit"


def set_forfeit(match: Match, *, loser: Entry, actor, logged: bool = True) -> None:
    """12:0 against ``loser``, confirmed by the organiser; a result it replaces is logged.

    The audit row (``match.withdrawal_forfeit``) is what the event's log and its webhooks tell of
    it; ``logged=False`` leaves it to the caller, as pairing does, which writes its rows after the
    round's own (``log_forfeits``), so that a hook hears of the round before its results."""
    before = match.state()
    winner_is_home = match.away_id == loser.pk
    match.home_eyes, match.away_eyes = (WIN_SCORE, 0) if winner_is_home else (0, WIN_SCORE)
    match.winner_id = match.home_id if winner_is_home else match.away_id
    match.forfeit = True
    match.status = MatchStatus.CONFIRMED
    match.confirmed_how = "organiser"
    match.confirmed_by = actor if actor is not None and actor.is_authenticated else None
    match.confirmed_at = timezone.now()
    match.save()
    sync_match(match)
    if before["home_eyes"] is not None:
        ResultCorrection.objects.create(
            match=match, actor=match.confirmed_by, before=before, after=match.state(), reason=_("withdrawal")
        )
    if logged:
        log_forfeits([match], actor=actor, before=before if before["home_eyes"] is not None else None)


def log_forfeits(matches, *, actor, before: dict | None = None) -> None:
    """The audit rows of forfeits ``set_forfeit`` wrote (``before``: the result one replaced)."""
    for match in matches:
        audit(actor=actor, action=FORFEIT_ACTION, obj=match, tournament=match.tournament, before=before,
              after=match.state())


def mark_disputed(match: Match, **fields) -> None:
    """The match waits for the organiser (``fields``: why, kept on the match)."""
    match.status = MatchStatus.DISPUTED
    for name, value in fields.items():
        setattr(match, name, value)
    match.save(update_fields=["status", *fields])


def absent_side(match: Match, seat: Seat) -> Entry:
    """The partnership of the match a seated player belongs to (N/S is the home pair)."""
    return match.home if seat.seat in (SeatName.NORTH, SeatName.SOUTH) else match.away


def next_game(rnd: Round, first: Match, *, slot: int) -> Match:
    """The next game of an undecided best-of tie, at the same table between the same pairs, who keep
    their PINs: the sheets of a whole series are printed before its first game
    (``selectors.prints.series_sheets``), when the PINs of the games to come must already be known.
    Each pair still holds only its own half, so none can confirm its own report."""
    return Match.objects.create(
        tournament_id=rnd.tournament_id,
        round=rnd,
        table=first.table,
        home_id=first.home_id,
        away_id=first.away_id,
        home_pin=first.home_pin,
        away_pin=first.away_pin,
        slot=slot,
        bracket=first.bracket,
        stage=first.stage,
        game=first.game + 1,
    )


def _settle_series(rnd: Round, tournament: Tournament, slot: int | None) -> None:
    """Best-of-N ties: add the next game of an undecided tie once its last game is confirmed (a
    withdrawn pair forfeits it at once, and each one after it until the tie is decided), and drop
    the unplayed games of a tie a correction or a forfeit decided early. Group matches are never
    series. A forfeit loses only its own game (``core.knockout.series_outcome``)."""
    fmt = format_of(tournament)
    ties: dict[tuple[str, int, int], list[Match]] = defaultdict(list)
    qs = rnd.matches.filter(bye=False).exclude(bracket=GROUP).select_related("round")
    for m in qs if slot is None else qs.filter(slot=slot):
        ties[(m.bracket, m.stage, m.slot)].append(m)
    for tie in ties.values():
        tie.sort(key=lambda g: g.game)
        best_of = fmt.tie_best_of(tie[0])
        try:
            outcome = tie_outcome(tie, best_of)
        except ValueError as error:  # a correction that would decide the tie before a played match
            raise ValidationError(
                _("This would decide the tie before its last match, which was already played: %(error)s")
                % {"error": error}
            ) from error
        while outcome.winner is None and all(g.status == MatchStatus.CONFIRMED for g in tie):
            game = next_game(rnd, tie[-1], slot=tie[-1].slot)
            tie.append(game)
            quitter = Entry.objects.filter(
                pk__in=(game.home_id, game.away_id), status=EntryStatus.WITHDRAWN
            ).first()
            if quitter is None:
                break
            set_forfeit(game, loser=quitter, actor=None)
            outcome = tie_outcome(tie, best_of)
        if outcome.winner is not None:
            for g in list(tie):  # a correction may decide a tie early: drop its unplayed games
                if g.status == MatchStatus.SCHEDULED:
                    g.delete()


def refresh_round(rnd: Round, tournament: Tournament, *, slot: int | None = None) -> None:
    """After any result: settle a knockout tie, close the round, end the event.

    ``slot`` names the one knockout tie that changed (None: look at all). The cost does not grow
    with the size of the round otherwise: the completeness check is one EXISTS query.
    """
    if format_of(tournament).plays_series:
        _settle_series(rnd, tournament, slot)
    complete = not rnd.matches.exclude(status=MatchStatus.CONFIRMED).exists()
    new_status = RoundStatus.COMPLETE if complete else RoundStatus.PLAYING
    if rnd.status != new_status:
        rnd.status = new_status
        rnd.save(update_fields=["status"])
        round_status_changed(rnd)
    maybe_finish(tournament)


def maybe_finish(tournament: Tournament) -> None:
    """Finish the event when its format says it is over, or reopen it (a longer Swiss, a correction)."""
    rounds = list(tournament.rounds.all())
    if not rounds:
        return
    finished = format_of(tournament).finished(rounds)
    status = TournamentStatus.FINISHED if finished else TournamentStatus.RUNNING
    if tournament.status != status:
        tournament.status = status
        tournament.save(update_fields=["status"])
        event_status_changed(tournament)
        if finished:
            on_commit_task(NOTIFY_TOURNAMENT_FINISHED, tournament.pk)
