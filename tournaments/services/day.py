"""The tournament day's work: rounds started and paired as planned, reminders, deadlines, check-in closed.

Each function takes ids, locks what it changes, tolerates work already done or rows gone, and is
called by the beat task (``services.runner``) inside the transaction that marks its plan done,
or by the organiser's dashboard with the organiser as actor. Writes go through the same services
as every page (``rounds.pair_next_round``, ``results.record_forfeit``); online tables are
``services.online``'s.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from .. import permissions
from ..formats import format_of
from ..models import ACTIVE_STATUSES, EntryStatus, MatchStatus, Round, RoundStatus, Tournament
from ..models import TournamentStatus as TS
from .common import audit, lock_tournament, require_manager
from .notices import notify, tell_organisers, users_of_side
from .online import is_online, open_tables, pause_point
from .plans import day_settings
from .rounds import pair_next_round
from .seeding import take_seed_ratings


def start_round(*, tournament_id: int, number: int, actor=None) -> str:
    """Round ``number`` starts: paired if it is not yet (round 1 or a held round), online tables opened.

    ``actor`` None is the tournament's own plan; otherwise the organiser (permission-checked).
    """
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return "gone"
    if actor is not None:
        require_manager(actor, tournament)
    rnd = tournament.rounds.filter(number=number).first()
    if rnd is None:
        last = tournament.rounds.order_by("-number").first()
        if (last.number if last else 0) != number - 1 or tournament.status == TS.FINISHED:
            return "not_next"
        try:
            rnd = pair_next_round(actor=actor, tournament=tournament, system=actor is None)
        except ValidationError as error:
            return "refused: " + " ".join(error.messages)[:150]
    pause_point("start_round")
    if is_online(rnd):
        open_tables(round_id=rnd.pk)
    # The plans list says how many live tables the round has now, those the organiser opened
    # before the plan ran included, not only those this run opened.
    return f"started {rnd.matches.filter(bye=False, live_table__isnull=False).count()}"


def remind(*, round_id: int, deadline: bool = False) -> str:
    """Tell the players of the round's unplayed matches that it starts soon (and those with a bye
    that they sit it out), or (``deadline``, a day before a matchday's deadline) that their match
    must be played by then. The two are separate notices (their own keys): a league round can
    have both."""
    rnd = Round.objects.select_related("tournament").filter(pk=round_id).first()
    if rnd is None:
        return "gone"
    if deadline and rnd.deadline is None:
        return "no deadline"
    sent = 0
    for match in rnd.matches.filter(bye=False, status=MatchStatus.SCHEDULED).prefetch_related(
        "home__substitutions", "away__substitutions"
    ):
        values = {"t": rnd.tournament.name, "r": rnd.number, "n": match.table}

        def text(values=values) -> str:  # worded in each player's language
            if deadline:
                by = date_format(timezone.localtime(rnd.deadline), "j E, H:i")
                return _("%(t)s, round %(r)d: play your match at table %(n)d by %(d)s.") % {**values, "d": by}
            return _("%(t)s, round %(r)d starts soon: you play at table %(n)d.") % values

        for user in users_of_side(match, "home") + users_of_side(match, "away"):
            notify(
                user,
                kind="tournament.reminder",
                text=text,
                url=match.get_absolute_url(),
                key=f"remind:{match.pk}:deadline" if deadline else f"remind:{match.pk}",
            )
            sent += 1
    if not deadline:  # a pair (or player) sitting the round out is told so, and need not come
        for match in rnd.matches.filter(bye=True):
            values = {"t": rnd.tournament.name, "r": rnd.number}

            def bye_text(values=values) -> str:
                return _("%(t)s, round %(r)d starts soon: you have a bye this round.") % values

            for user in users_of_side(match, "home"):
                notify(user, kind="tournament.reminder", text=bye_text, url=match.get_absolute_url(),
                       key=f"remind:{match.pk}")  # fmt: skip
                sent += 1
    return f"sent {sent}"


def unplayed_to_organiser(*, round_id: int, kind: str) -> str:
    """A matchday deadline or an online round's deadline passed: the organiser gets the unplayed list."""
    rnd = Round.objects.select_related("tournament").filter(pk=round_id).first()
    if rnd is None:
        return "gone"
    open_ = list(rnd.matches.exclude(status=MatchStatus.CONFIRMED).select_related("home", "away"))
    if not open_:
        return "all played"
    tables = ", ".join(str(m.table) for m in open_)
    values = {"t": rnd.tournament.name, "r": rnd.number, "k": len(open_), "list": tables}

    def text() -> str:
        return (
            _("%(t)s, round %(r)d: the deadline has passed; %(k)d match(es) unfinished (tables %(list)s).")
            % values
        )

    tell_organisers(rnd.tournament, kind=f"tournament.{kind}", text=text, key=f"{kind}:{rnd.pk}")
    return f"unplayed {len(open_)}"


def close_check_in(*, tournament_id: int) -> str:
    """Registration is over: an event seeded by rating keeps its entries' ratings of now for the
    seeds (``seeding``); approved pairs (or, in an individual event, players) that did not check in
    are withdrawn before the first round, if anyone checked in.

    Round 1 would leave them out anyway (``rounds.pair_next_round`` fixing the field); doing
    it when check-in closes shows the organiser the field as it will play, with a "Reinstate"
    button for whoever arrives late (``withdrawals.reinstate_entry``,
    ``withdrawals.reinstate_player``).
    """
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None or tournament.rounds.exists():
        return "too late"
    tournament = lock_tournament(tournament)
    if tournament.rounds.exists():  # round 1 was paired while we waited for the lock
        return "too late"
    take_seed_ratings(tournament)  # registration is over: seeds by rating use the ratings of now
    action = "individual.check_in_closed" if tournament.is_individual else "entry.check_in_closed"
    entries = format_of(tournament).entries().filter(status__in=ACTIVE_STATUSES)
    if not entries.filter(status=EntryStatus.CHECKED_IN).exists():
        return "nobody checked in"
    late = list(entries.filter(status=EntryStatus.APPROVED).select_for_update())
    for entry in late:
        entry.status, entry.withdrawn_after_round = EntryStatus.WITHDRAWN, 0
        entry.save(update_fields=["status", "withdrawn_after_round"])
        audit(actor=None, action=action, obj=entry, tournament=tournament)
    return f"withdrawn {len(late)}"


def pair_next(*, tournament_id: int, after: int) -> str:
    """Round ``after`` is complete: pair the next round (if the tournament pairs itself) and start it."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return "gone"
    last = tournament.rounds.order_by("-number").first()
    if last is None or last.number != after:
        return "already paired" if last and last.number > after else "no round"
    if last.status != RoundStatus.COMPLETE or tournament.status == TS.FINISHED:
        return "not complete" if tournament.status != TS.FINISHED else "finished"
    if not day_settings(tournament).auto_pair:
        tell_organisers(
            tournament,
            kind="tournament.round_complete",
            text=lambda: (
                _("%(t)s: round %(r)d is complete; pair the next round when you are ready.")
                % {"t": tournament.name, "r": after}
            ),
            key=f"round-complete:{last.pk}",
        )
        return "held for the organiser"
    return start_round(tournament_id=tournament_id, number=after + 1)


# --- the organiser's one-click actions ------------------------------------------------------------


def organiser_pair_next(*, actor, tournament: Tournament) -> Round:
    if not permissions.can_manage(actor, tournament):
        raise PermissionDenied(_("Only the club's owners and organisers run its tournaments."))
    number = (tournament.rounds.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    with transaction.atomic():
        outcome = start_round(tournament_id=tournament.pk, number=number, actor=actor)
        if outcome.startswith("refused: "):
            raise ValidationError(outcome.removeprefix("refused: "))
    return tournament.rounds.get(number=number)
