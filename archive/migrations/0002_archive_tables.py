from django.db import migrations

#: The models that moved here, as their content types name them.
MOVED = ("archivedmatch", "archivedseat", "archiveddeal", "matchanalysis", "seatanalysis")


def content_types_follow(apps, schema_editor):
    """The content types of the moved models follow them, so their permissions (and whoever holds
    them: the archive's visibility rule asks for ``archive.view_archivedmatch``) and the admin's
    history keep their rows. A new database has none yet: post_migrate makes them under the new app."""
    move_content_types(apps, schema_editor, "gameplay", "archive")


def content_types_go_back(apps, schema_editor):
    move_content_types(apps, schema_editor, "archive", "gameplay")


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
    """The archive's tables take the archive's names (gameplay_archivedmatch becomes
    archive_archivedmatch, and so on): a rename, every row stays."""

    dependencies = [
        ("archive", "0001_initial"),
        ("gameplay", "0014_archive_moves_out"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [
        migrations.AlterModelTable(name="archivedmatch", table=None),
        migrations.AlterModelTable(name="archivedseat", table=None),
        migrations.AlterModelTable(name="archiveddeal", table=None),
        migrations.AlterModelTable(name="matchanalysis", table=None),
        migrations.AlterModelTable(name="seatanalysis", table=None),
        migrations.RunPython(content_types_follow, content_types_go_back),
    ]
