"""Provably fair shuffles: each table's secret match seed, each seat's client seed.

Existing rows get their own fresh values (a field default would give every row the same one)."""

from django.db import migrations, models

import gameplay.engine.shuffle
import gameplay.models


def fresh_seeds(apps, schema_editor):
    Table = apps.get_model("gameplay", "Table")
    Seat = apps.get_model("gameplay", "Seat")
    for table in Table.objects.filter(status="open").only("pk"):
        Table.objects.filter(pk=table.pk).update(shuffle_seed=gameplay.models.new_shuffle_seed())
    for seat in Seat.objects.filter(table__status="open").only("pk"):
        Seat.objects.filter(pk=seat.pk).update(client_seed=gameplay.engine.shuffle.new_client_seed())


class Migration(migrations.Migration):
    dependencies = [
        ("gameplay", "0004_redeal_question"),
    ]

    operations = [
        # a table that is playing or finished was dealt before provable shuffles: no seed
        migrations.AddField(
            model_name="table",
            name="shuffle_seed",
            field=models.CharField(blank=True, default="", editable=False, max_length=64),
            preserve_default=False,
        ),
        migrations.AlterField(
            model_name="table",
            name="shuffle_seed",
            field=models.CharField(blank=True, default=gameplay.models.new_shuffle_seed, editable=False,
                                   max_length=64),
        ),
        migrations.AddField(
            model_name="table",
            name="shuffle_prominent",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="seat",
            name="client_seed",
            field=models.CharField(default="", max_length=64),
            preserve_default=False,
        ),
        migrations.AlterField(
            model_name="seat",
            name="client_seed",
            field=models.CharField(default=gameplay.engine.shuffle.new_client_seed, max_length=64),
        ),
        migrations.RunPython(fresh_seeds, migrations.RunPython.noop),
    ]
