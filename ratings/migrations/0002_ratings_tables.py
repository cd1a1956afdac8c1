from django.db import migrations

#: The models that moved here, as their content types name them.
MOVED = ("playerrating", "pairrating", "ratingchange", "ratingrun")


def content_types_follow(apps, schema_editor):
    """The content types of the moved models follow them, so their permissions (and whoever holds
    them) and the admin's history keep their rows. A new database has none yet: post_migrate makes
    them under the new app."""
    move_content_types(apps, schema_editor, "tournaments", "ratings")


def content_types_go_back(apps, schema_editor):
    move_content_types(apps, schema_editor, "ratings", "tournaments")


def move_content_types(apps, schema_editor, old, new):
    content_types = apps.get_model("contenttypes", "ContentType").objects.using(schema_editor.connection.alias)
    for model in MOVED:
        moving = content_types.filter(app_label=old, model=model)
        if moving.exists():
            # One made under the new app by a migrate that stopped halfway (post_migrate) holds
            # nothing yet: the old one, with its permissions, takes its place.
            content_types.filter(app_label=new, model=model).delete()
            moving.update(app_label=new)


class Migration(migrations.Migration):
    """The ratings' tables take the ratings' names (tournaments_playerrating becomes
    ratings_playerrating, and so on): a rename, every row stays."""

    dependencies = [
        ("ratings", "0001_initial"),
        ("tournaments", "0017_ratings_move_out"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [
        migrations.AlterModelTable(name="playerrating", table=None),
        migrations.AlterModelTable(name="pairrating", table=None),
        migrations.AlterModelTable(name="ratingchange", table=None),
        migrations.AlterModelTable(name="ratingrun", table=None),
        migrations.RunPython(content_types_follow, content_types_go_back),
    ]
