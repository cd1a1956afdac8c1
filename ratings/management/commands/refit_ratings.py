"""Fit the rating model's parameters on the archive now and recompute every rating with them."""

from django.core.management.base import BaseCommand

from ratings.services import fitting, recompute


class Command(BaseCommand):
    help = "Fit the rating model's parameters on the archived matches, then recompute every rating with them."

    def add_arguments(self, parser):
        parser.add_argument("--reason", default="asked from the command line")

    def handle(self, *args, **options):
        fit = fitting.refit(reason=options["reason"], queue_recompute=False)
        learnt = recompute.recompute()
        self.stdout.write(f"fitted on {fit.matches} matches (log-loss {fit.log_loss}); "
                          f"{learnt} archived matches read; ratings rebuilt.")
