"""When the players' own first report came (``Match.played_at``), kept apart from the last report: an
organiser entering the result again over theirs used to move the match, for the ratings, from its
table's time back to its round's pairing. Matches whose last report is the players' or the live
table's take that report's time; those the organiser reported keep none (the round's time, as
before: what the players had reported before him is not known)."""

from django.db import migrations, models
from django.db.models import F


def backfill(apps, schema_editor):
    Match = apps.get_model("tournaments", "Match")
    Match.objects.filter(reported_side__in=("home", "away", "table"), reported_at__isnull=False).update(
        played_at=F("reported_at")
    )


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0026_forfeits_that_ended_ties"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="played_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
    ]
