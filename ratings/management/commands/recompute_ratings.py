"""Rebuild every rating from the archive now (as the recompute task does), e.g. after an import."""

from django.core.management.base import BaseCommand

from ratings.services import recompute as ratings


class Command(BaseCommand):
    help = "Recompute every rating and rating change from the archived matches, in one transaction."

    def handle(self, *args, **options):
        learnt = ratings.recompute()
        self.stdout.write(f"{learnt} archived matches read; ratings rebuilt.")
