"""Each archived seat keeps its name's search key, so the archive finds "Әсел" by "Asel" and "Бот N"
by "Bot", as the players page finds players; filled for the seats already archived."""

from django.db import migrations, models

from clubs.translit import search_key

BATCH = 2000


def fill(apps, schema_editor):
    Seat = apps.get_model("archive", "ArchivedSeat")
    batch = []
    for seat in Seat.objects.only("id", "name").iterator(chunk_size=BATCH):
        seat.search_name = search_key(seat.name)[:300]
        batch.append(seat)
        if len(batch) == BATCH:
            Seat.objects.bulk_update(batch, ["search_name"])
            batch = []
    Seat.objects.bulk_update(batch, ["search_name"])


class Migration(migrations.Migration):
    dependencies = [
        ("archive", "0002_archive_tables"),
    ]

    operations = [
        migrations.AddField(
            model_name="archivedseat",
            name="search_name",
            field=models.CharField(blank=True, default="", editable=False, max_length=300),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
