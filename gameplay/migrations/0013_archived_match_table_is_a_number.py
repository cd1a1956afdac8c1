import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    """The archive moves to an app of its own, which knows nothing of the live tables: an archived
    match keeps its table's id as a plain number, like its tournament match's. Here the foreign key
    constraint goes (the column, its unique index and every value stay); the archive's `0001` takes
    the field over as that number."""

    dependencies = [
        ("gameplay", "0012_archived_bot_level"),
    ]

    operations = [
        migrations.AlterField(
            model_name="archivedmatch",
            name="table",
            field=models.OneToOneField(
                blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.SET_NULL,
                related_name="archived", to="gameplay.table",
            ),
        ),
    ]
