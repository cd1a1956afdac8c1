"""Periodic plans of a tournament day: write them as rows, and claim and run the due ones.

Plans are written in the transaction that makes them necessary (a round paired, a round complete,
the day settings saved), through signal receivers on ``Round`` so every path that pairs or closes
a round plans the same way. ``run_due`` is the body of the beat task: each plan is claimed with
``SELECT … FOR UPDATE SKIP LOCKED``, done, and marked done in one transaction, so two beats or a
redelivered task never do it twice, and a worker killed half-way leaves the plan due again.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.models import Q
from django.db.models.signals import post_save
from django.dispatch import receiver
from django.utils import timezone

from . import day_services
from .day_models import ActionKind, DaySettings, ScheduledAction
from .models import PlayMode, Round, RoundStatus, Tournament, TournamentStatus

logger = logging.getLogger(__name__)

DAY_TICK_TASK = "tournaments.day_tasks.day_tick"
DAY_TICK_PLAN = "Tournaments: day plans"
DAY_TICK_EVERY_SECONDS = 30
RUN_LIMIT = 200


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

        def send() -> None:
            from .day_tasks import run_plan

            run_plan.apply_async((key,), **day_services.queue_options())

        transaction.on_commit(send, robust=True)


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
    plan_at(ActionKind.MATCHDAY_DEADLINE, tournament_id=tournament_id, due_at=rnd.deadline, round_number=rnd.number)
    remind_at = rnd.deadline - timedelta(days=1)
    if remind_at > timezone.now():
        plan_at(ActionKind.REMIND, tournament_id=tournament_id, due_at=remind_at, round_number=rnd.number,
                tag="deadline")
    else:
        unplan(reminder_key)


def unplan(key: str) -> None:
    """The organiser took away the time a plan waited for: it is done, with nothing done."""
    ScheduledAction.objects.filter(key=key, done_at__isnull=True).update(
        done_at=timezone.now(), outcome="cancelled"
    )


def round_starts(tournament: Tournament, day: DaySettings) -> dict[int, datetime]:
    """When each round is due to start: round 1 at the day settings' time, each later one
    ``round_interval_minutes`` after the one before (none when that is 0), for as many rounds as
    the event has so far as one can tell (``services.round_count``: a bracket grows as it is played)."""
    if not day.first_round_at:
        return {}
    if not day.round_interval_minutes:
        return {1: day.first_round_at}
    from . import services
    from .individual_services import individual_round_count
    from .models import EntryStatus

    if tournament.is_individual:
        count = individual_round_count(tournament)
    else:
        field = tournament.entries.filter(status__in=(EntryStatus.APPROVED, EntryStatus.CHECKED_IN))
        if tournament.rounds.exists():
            field = tournament.entries.filter(seed__gt=0).exclude(status=EntryStatus.PENDING)
        count = services.round_count(tournament, field.count())
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
    day = day_services.day_settings(tournament)
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
    day = day_services.day_settings(tournament)
    now = timezone.now()
    online = rnd.effective_play_mode == PlayMode.ONLINE
    if online:
        plan(ActionKind.START_ROUND, tournament_id=tournament.pk, due_at=now, round_number=rnd.number)
        plan(
            ActionKind.NO_SHOW,
            tournament_id=tournament.pk,
            due_at=now + timedelta(minutes=day.no_show_minutes),
            round_number=rnd.number,
        )
        if day.round_minutes:
            plan(
                ActionKind.ROUND_DEADLINE,
                tournament_id=tournament.pk,
                due_at=now + timedelta(minutes=day.round_minutes),
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


# --- running the plans ------------------------------------------------------------------------------


def _work(action: ScheduledAction) -> str:
    rnd = None
    if action.round_number:
        rnd = Round.objects.filter(tournament_id=action.tournament_id, number=action.round_number).first()
    kind = action.kind
    if kind == ActionKind.START_ROUND:
        return day_services.start_round(tournament_id=action.tournament_id, number=action.round_number or 1)
    if kind == ActionKind.PAIR_NEXT:
        return day_services.pair_next(tournament_id=action.tournament_id, after=action.round_number or 0)
    if kind == ActionKind.CLOSE_CHECK_IN:
        return day_services.close_check_in(tournament_id=action.tournament_id)
    if rnd is None:
        return "not paired yet" if kind == ActionKind.REMIND else "no round"
    if kind == ActionKind.REMIND:
        return day_services.remind(round_id=rnd.pk, deadline=action.key.endswith(":deadline"))
    if kind == ActionKind.NO_SHOW:
        return day_services.no_shows(round_id=rnd.pk)
    if kind in (ActionKind.MATCHDAY_DEADLINE, ActionKind.ROUND_DEADLINE):
        return day_services.unplayed_to_organiser(round_id=rnd.pk, kind=kind)
    return "unknown kind"


def _claim_and_run(queryset) -> str | None:
    """Claim one due plan from ``queryset`` (skipping ones another process holds), do it, mark it done.

    One transaction: if the process dies half-way, PostgreSQL rolls the work and the claim back
    together and the plan is due again for the next tick.
    """
    with transaction.atomic():
        action = queryset.select_for_update(skip_locked=True).order_by("due_at", "id").first()
        if action is None:
            return None
        try:
            with transaction.atomic():
                outcome = _work(action)
        except Exception as error:  # a plan that fails must not block the others; it is logged and kept
            logger.exception("tournament plan %s failed", action.key)
            outcome = f"failed: {error}"[:200]
        action.done_at = timezone.now()
        action.outcome = outcome[:200]
        action.save(update_fields=["done_at", "outcome"])
        return action.key


def run_plan(key: str) -> bool:
    """Do the one plan ``key`` if it is due and not done (a task queued when the plan was written)."""
    due = ScheduledAction.objects.filter(key=key, done_at__isnull=True, due_at__lte=timezone.now())
    return _claim_and_run(due) is not None


def run_due(*, now: datetime | None = None, limit: int = RUN_LIMIT) -> list[str]:
    """The beat task's body: do every due plan once; also record finished live tables a hook missed."""
    for table_id in day_services.finished_tables_unrecorded():
        day_services.record_table_result(table_id=table_id)
    done: list[str] = []
    while len(done) < limit:
        due = ScheduledAction.objects.filter(done_at__isnull=True, due_at__lte=now or timezone.now())
        key = _claim_and_run(due)
        if key is None:
            break
        done.append(key)
    return done


def ensure_day_plan(using: str = DEFAULT_DB_ALIAS, **kwargs) -> None:
    """The beat row that runs ``run_due`` every 30 s (created after every migrate, never overwritten)."""
    from django_celery_beat.models import IntervalSchedule, PeriodicTask

    if PeriodicTask._meta.db_table not in connections[using].introspection.table_names():
        return
    if PeriodicTask.objects.using(using).filter(name=DAY_TICK_PLAN).exists():
        return
    every, _created = IntervalSchedule.objects.using(using).get_or_create(
        every=DAY_TICK_EVERY_SECONDS, period=IntervalSchedule.SECONDS
    )
    PeriodicTask.objects.using(using).create(name=DAY_TICK_PLAN, task=DAY_TICK_TASK, interval=every)
