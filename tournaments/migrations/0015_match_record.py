"""A match may carry the record of its play (uploaded by the organiser) and who sat where in it."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0014_live_tables_not_casual'),
    ]

    operations = [
        migrations.AddField(
            model_name='match',
            name='record',
            field=models.JSONField(blank=True, editable=False, null=True),
        ),
        migrations.AddField(
            model_name='match',
            name='record_chairs',
            field=models.JSONField(blank=True, editable=False, null=True),
        ),
    ]
