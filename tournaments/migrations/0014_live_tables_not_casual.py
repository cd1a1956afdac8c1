"""Tables opened for tournament pairings are not casual: their tournament archives their matches."""

from django.db import migrations


def mark(apps, schema_editor):
    Match = apps.get_model("tournaments", "Match")
    Table = apps.get_model("gameplay", "Table")
    ids = Match.objects.exclude(live_table=None).values_list("live_table", flat=True)
    Table.objects.filter(pk__in=list(ids)).update(casual=False)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0013_match_side_pins_audit_rows"),
        ("gameplay", "0007_archive"),
    ]

    operations = [migrations.RunPython(mark, migrations.RunPython.noop)]
