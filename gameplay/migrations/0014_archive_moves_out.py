from django.db import migrations


class Migration(migrations.Migration):
    """The archived matches, their seats and deals and their analysis now belong to the archive's app
    (`archive.0001`): they leave this app's state only; their tables and rows stay."""

    dependencies = [
        ("gameplay", "0013_archived_match_table_is_a_number"),
        ("archive", "0001_initial"),
        # the ratings' changes pointed at gameplay.ArchivedMatch until they moved too
        ("tournaments", "0017_ratings_move_out"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="SeatAnalysis"),
                migrations.DeleteModel(name="MatchAnalysis"),
                migrations.DeleteModel(name="ArchivedDeal"),
                migrations.DeleteModel(name="ArchivedSeat"),
                migrations.DeleteModel(name="ArchivedMatch"),
            ],
        ),
    ]
