"""Casual games against bots are their players' own until one of them shares them: those archived
so far (public by their table's default, many left unfinished) become private. Games between
people keep their table's choice; tournament matches follow their round."""

from django.db import migrations


def hide(apps, schema_editor):
    ArchivedMatch = apps.get_model("archive", "ArchivedMatch")
    ArchivedSeat = apps.get_model("archive", "ArchivedSeat")
    with_bots = ArchivedSeat.objects.filter(kind="bot").values("match_id")
    ArchivedMatch.objects.filter(
        source="table", tournament_match=None, public=True, pk__in=with_bots
    ).update(public=False)


class Migration(migrations.Migration):
    dependencies = [
        ("archive", "0003_seat_search_name"),
    ]

    operations = [
        migrations.RunPython(hide, migrations.RunPython.noop),
    ]
