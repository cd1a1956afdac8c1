"""The day's plans written as rows: planned when a round is paired or closed or the day settings change.

Plans are written in the transaction that makes them necessary, through signal receivers on
``Round`` and ``DaySettings``, so every path that pairs or closes a round plans the same way; a
plan due now is queued on commit (by the task's name). Each plan has a unique key: planning the
same thing twice finds the row already there. ``services.runner`` claims and runs them.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.db.models import F, Q, Value
from django.db.models.functions import Concat
from django.db.models.signals import post_save
from django.dispatch import receiver
from django.utils import timezone

from ..formats import format_of
from ..models import (
    ACTIVE_STATUSES,
    ActionKind,
    DaySettings,
    PlayMode,
    Round,
    RoundStatus,
    ScheduledAction,
    Tournament,
    TournamentStatus,
)
from .common import RUN_PLAN, on_commit_task


def day_settings(tournament: Tournament) -> DaySettings:
    """The tournament's day settings, created with their defaults on first use."""
    found = DaySettings.objects.filter(tournament=tournament).first()
    if found is not None:
        return found
    try:
        with transaction.atomic():
            return DaySettings.objects.create(tournament=tournament)
    except IntegrityError:
        return DaySettings.objects.get(tournament=tournament)


def plan_key(kind: str, tournament_id: int, round_number: int | None = None, tag: str = "") -> str:
    """The unique key of one plan; ``tag`` tells apart two plans of one kind for the same round."""
    key = f"{kind}:{tournament_id}:{round_number or 0}"
    return f"{key}:{tag}" if tag else key


def plan(
    kind: str, *, tournament_id: int, due_at: datetime, round_number: int | None = None, tag: str = ""
) -> None:
    """Write one plan unless it exists (the unique key); queue it on commit when it is due now."""
    key = plan_key(kind, tournament_id, round_number, tag)
    created = ScheduledAction.objects.bulk_create(
        [
            ScheduledAction(
                key=key, kind=kind, tournament_id=tournament_id, round_number=round_number, due_at=due_at
            )
        ],
        ignore_conflicts=True,
    )
    if created and due_at <= timezone.now():
        on_commit_task(RUN_PLAN, key)


def plan_at(
    kind: str, *, tournament_id: int, due_at: datetime, round_number: int | None = None, tag: str = ""
) -> None:
    """A plan that follows a time the organiser sets in the day settings: written once, moved when
    that time moves, and due again when it is moved to a time still to come after it was done
    (check-in reopened, a first round that could not start planned anew), or set again after it
    was cancelled (``unplan``). The same time saved again changes nothing; the update waits for
    a beat holding the row and sees its ``done_at``."""
    key = plan_key(kind, tournament_id, round_number, tag)
    rows = ScheduledAction.objects.filter(key=key)
    rows.filter(done_at__isnull=True).exclude(due_at=due_at).update(due_at=due_at)
    if due_at > timezone.now():  # moved after it was done, or set again after it was cancelled
        rows.filter(done_at__isnull=False).filter(~Q(due_at=due_at) | Q(outcome="cancelled")).update(
            due_at=due_at, done_at=None, outcome=""
        )
    plan(kind, tournament_id=tournament_id, due_at=due_at, round_number=round_number, tag=tag)


def plan_round_deadline(rnd: Round) -> None:
    """A matchday's deadline plan (the unplayed list to the organiser) and its players' reminder a
    day before follow ``rnd.deadline``: planned when the round is paired, moved when the organiser
    moves the deadline (due again if moved later after it passed), cancelled when it is cleared.
    A reminder whose time has passed is cancelled rather than sent late."""
    tournament_id = rnd.tournament_id
    deadline_key = plan_key(ActionKind.MATCHDAY_DEADLINE, tournament_id, rnd.number)
    reminder_key = plan_key(ActionKind.REMIND, tournament_id, rnd.number, "deadline")
    if not rnd.deadline:
        unplan(deadline_key)
        unplan(reminder_key)
        return
    plan_at(
        ActionKind.MATCHDAY_DEADLINE,
        tournament_id=tournament_id,
        due_at=rnd.deadline,
        round_number=rnd.number,
    )
    remind_at = rnd.deadline - timedelta(days=1)
    if remind_at > timezone.now():
        plan_at(
            ActionKind.REMIND,
            tournament_id=tournament_id,
            due_at=remind_at,
            round_number=rnd.number,
            tag="deadline",
        )
    else:
        unplan(reminder_key)


def unplan(key: str) -> None:
    """The organiser took away the time a plan waited for: it is done, with nothing done."""
    ScheduledAction.objects.filter(key=key, done_at__isnull=True).update(
        done_at=timezone.now(), outcome="cancelled"
    )


def unplan_round(tournament_id: int, number: int, *, tag: str) -> None:
    """Round ``number`` was unpaired: the plans its pairing wrote (an online round's start and
    no-show check, its deadlines, the reminder a day before the deadline, pairing the round after
    it) are cancelled, and so is pairing it after the round before when that has not run yet, so
    none of them pairs it again or speaks of tables that are gone. They are kept under a key of
    their own (``tag`` names the unpairing), so a new pairing of the round plans afresh. Round 1's
    start that the day settings' time already ran stays done: planned anew, it would pair the
    round at once. The reminder before a round's start follows the day settings and stays: it
    reminds the players of whatever is paired by then (``day.remind`` reads the round when it
    runs)."""
    kinds = (
        ActionKind.START_ROUND,
        ActionKind.NO_SHOW,
        ActionKind.ROUND_DEADLINE,
        ActionKind.MATCHDAY_DEADLINE,
        ActionKind.PAIR_NEXT,
    )
    keys = [plan_key(kind, tournament_id, number) for kind in kinds]
    keys.append(plan_key(ActionKind.REMIND, tournament_id, number, "deadline"))
    rows = ScheduledAction.objects.filter(key__in=keys)
    scheduled = DaySettings.objects.filter(tournament_id=tournament_id, first_round_at__isnull=False)
    if number == 1 and scheduled.exists():
        rows = rows.exclude(kind=ActionKind.START_ROUND, done_at__isnull=False)
    rows.filter(done_at__isnull=True).update(done_at=timezone.now(), outcome="cancelled: unpaired")
    rows.update(key=Concat(F("key"), Value(f":{tag}")))
    unplan(plan_key(ActionKind.PAIR_NEXT, tournament_id, number - 1))  # it would pair the round again


def round_starts(tournament: Tournament, day: DaySettings) -> dict[int, datetime]:
    """When each round is due to start: round 1 at the day settings' time, each later one
    ``round_interval_minutes`` after the one before (none when that is 0), for as many rounds as
    the event has so far as one can tell (the format's ``round_count``: a bracket grows as it is played)."""
    if not day.first_round_at:
        return {}
    if not day.round_interval_minutes:
        return {1: day.first_round_at}
    fmt = format_of(tournament)
    if tournament.rounds.exists():
        count = fmt.round_count(fmt.field_size())
    else:
        count = fmt.round_count(fmt.entries().filter(status__in=ACTIVE_STATUSES).count())
    every = timedelta(minutes=day.round_interval_minutes)
    return {n: day.first_round_at + (n - 1) * every for n in range(1, count + 1)}


def plan_reminders(tournament: Tournament, day: DaySettings) -> None:
    """A reminder ``reminder_minutes`` before each round's start (``round_starts``), moved with it;
    reminders of rounds that no longer have a start time are cancelled. Deadline reminders have
    keys of their own and are left alone."""
    starts = round_starts(tournament, day)
    now = timezone.now()
    for number, start in starts.items():
        remind_at = start - timedelta(minutes=day.reminder_minutes)
        if remind_at > now:
            plan_at(ActionKind.REMIND, tournament_id=tournament.pk, due_at=remind_at, round_number=number)
    waiting = ScheduledAction.objects.filter(
        tournament=tournament, kind=ActionKind.REMIND, done_at__isnull=True
    ).values_list("key", "round_number")
    for key, number in list(waiting):
        if number not in starts and key == plan_key(ActionKind.REMIND, tournament.pk, number):
            unplan(key)


def plan_tournament(tournament: Tournament) -> None:
    """Plans that follow from the day settings: check-in closing, round 1's start, and a reminder
    before every round with a start time. Saved again, the settings move (or cancel) these plans
    rather than add more."""
    day = day_settings(tournament)
    if day.check_in_closes_at:
        plan_at(ActionKind.CLOSE_CHECK_IN, tournament_id=tournament.pk, due_at=day.check_in_closes_at)
    else:
        unplan(plan_key(ActionKind.CLOSE_CHECK_IN, tournament.pk))
    if not tournament.rounds.exists():
        if day.first_round_at:
            plan_at(
                ActionKind.START_ROUND, tournament_id=tournament.pk, due_at=day.first_round_at, round_number=1
            )
        else:
            unplan(plan_key(ActionKind.START_ROUND, tournament.pk, 1))
    plan_reminders(tournament, day)


def _plan_for_round(rnd: Round) -> None:
    """A round was paired: start it (online tables), and its no-show and deadline plans."""
    tournament = rnd.tournament
    day = day_settings(tournament)
    now = timezone.now()
    online = rnd.effective_play_mode == PlayMode.ONLINE
    if online:  # it starts now; its no-show check, and its deadline if it has one, come later
        after = {ActionKind.START_ROUND: 0, ActionKind.NO_SHOW: day.no_show_minutes}
        if day.round_minutes:
            after[ActionKind.ROUND_DEADLINE] = day.round_minutes
        for kind, minutes in after.items():
            plan(
                kind,
                tournament_id=tournament.pk,
                due_at=now + timedelta(minutes=minutes),
                round_number=rnd.number,
            )
    if rnd.deadline:
        plan_round_deadline(rnd)
    if day.first_round_at and day.round_interval_minutes:
        plan_reminders(tournament, day)  # the field is fixed now, or a bracket has grown a round


@receiver(post_save, sender=Round, dispatch_uid="bilka-day-round-saved")
def _round_saved(sender, instance: Round, created: bool, raw: bool = False, **kwargs) -> None:
    if raw:
        return
    if created:
        _plan_for_round(instance)
    elif instance.status == RoundStatus.COMPLETE and instance.tournament.status != TournamentStatus.FINISHED:
        plan(
            ActionKind.PAIR_NEXT,
            tournament_id=instance.tournament_id,
            due_at=timezone.now(),
            round_number=instance.number,
        )


@receiver(post_save, sender=DaySettings, dispatch_uid="bilka-day-settings-saved")
def _settings_saved(sender, instance: DaySettings, raw: bool = False, **kwargs) -> None:
    if not raw:
        plan_tournament(instance.tournament)
