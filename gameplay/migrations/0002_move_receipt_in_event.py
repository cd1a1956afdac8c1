# The receipt of a client's move id moves into the event the move made: one row per move.

from django.db import migrations, models


def copy_receipts(apps, schema_editor):
    """Every stored receipt onto its event, so a resend after the upgrade is still recognised."""
    MoveReceipt = apps.get_model("gameplay", "MoveReceipt")
    TableEvent = apps.get_model("gameplay", "TableEvent")
    for receipt in MoveReceipt.objects.iterator():
        TableEvent.objects.filter(table_id=receipt.table_id, number=receipt.event_number).update(
            move_id=receipt.client_move_id, move_seat=receipt.seat
        )


class Migration(migrations.Migration):

    dependencies = [
        ("gameplay", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="tableevent",
            name="move_id",
            field=models.CharField(blank=True, default="", max_length=64),
        ),
        migrations.AddField(
            model_name="tableevent",
            name="move_seat",
            field=models.PositiveSmallIntegerField(
                blank=True, choices=[(0, "N"), (1, "E"), (2, "S"), (3, "W")], null=True
            ),
        ),
        migrations.RunPython(copy_receipts, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="tableevent",
            constraint=models.UniqueConstraint(
                condition=models.Q(("move_id", ""), _negated=True),
                fields=("table", "move_id"),
                name="event_unique_table_move_id",
            ),
        ),
        migrations.DeleteModel(
            name="MoveReceipt",
        ),
    ]
