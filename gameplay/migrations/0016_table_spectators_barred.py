from django.db import migrations, models


class Migration(migrations.Migration):
    """A duplicate event's private table may be watched by signed-in people who do not play in the
    event: the users it bars are kept on the table."""

    dependencies = [("gameplay", "0015_table_boards")]

    operations = [
        migrations.AddField(
            model_name="table",
            name="spectators_barred",
            field=models.JSONField(blank=True, editable=False, null=True),
        ),
    ]
