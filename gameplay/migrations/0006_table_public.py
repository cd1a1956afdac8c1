"""A table is public or private (invitation only); every existing table stays public, as it was."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("gameplay", "0005_shuffle_seeds")]

    operations = [
        migrations.AddField(
            model_name="table",
            name="public",
            field=models.BooleanField(default=True, verbose_name="public"),
        ),
    ]
