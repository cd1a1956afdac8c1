"""The tournaments app: on start, its signal receivers and tasks load and its beat rows follow migrate."""

from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        from django.db.models.signals import post_delete

        from clubs.services import member_invited
        from config.schedule import keep_plans_after_migrate

        from . import audit_words, broadcast, day_tasks, freshness, schedule, tasks  # noqa: F401 - signal receivers and tasks
        from .models import Match
        from .services import plans  # noqa: F401 - the day's plans follow rounds and day settings
        from .services.archiving import match_deleted

        keep_plans_after_migrate(
            schedule.ensure_auto_confirm_plan, dispatch_uid="bilka-tournaments-auto-confirm"
        )
        keep_plans_after_migrate(schedule.ensure_day_plan, dispatch_uid="bilka-tournaments-day-plan")
        broadcast.connect_table_events()
        post_delete.connect(match_deleted, sender=Match, dispatch_uid="bilka-archive-match-deleted")
        freshness.connect()  # the public pages' cache follows every change to what they show
        broadcast.connect()  # after freshness: a change's frame goes once the pages are renewed
        audit_words.register()  # the audit log words the tournaments' codes in the reader's language
        # a club's invitation is told from a worker, with the tournaments' notices
        member_invited.connect(tasks.queue_invitation_notice, dispatch_uid="bilka-club-invitation-notice")
