"""A live table may play a duplicate event's board set: its public description and its secret hands."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("gameplay", "0014_archive_moves_out"),
    ]

    operations = [
        migrations.AddField(
            model_name="table",
            name="boards",
            field=models.JSONField(blank=True, editable=False, null=True),
        ),
        migrations.AddField(
            model_name="table",
            name="board_hands",
            field=models.JSONField(blank=True, editable=False, null=True),
        ),
    ]
