from django.db import migrations


class Migration(migrations.Migration):
    """The ratings' rows now belong to the ratings' app (`ratings.0001`): they leave this app's state
    only; their tables and rows stay."""

    dependencies = [
        ("tournaments", "0016_ratings"),
        ("ratings", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="RatingChange"),
                migrations.DeleteModel(name="PairRating"),
                migrations.DeleteModel(name="PlayerRating"),
                migrations.DeleteModel(name="RatingRun"),
            ],
        ),
    ]
