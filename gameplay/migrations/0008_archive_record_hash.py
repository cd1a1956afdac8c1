"""The content hash of an archived match's record, unique when there is a record: one match is
archived once, whether it came from a table, a tournament or an upload."""

import hashlib
import json

from django.db import migrations, models


def fill_hashes(apps, schema_editor):
    """The matches archived before: the same hash as `gameplay.services.archive.record_hash`
    (a copy, as migrations do not import the code that may change); a second copy of one match
    keeps no hash rather than stop the migration."""
    ArchivedMatch = apps.get_model("gameplay", "ArchivedMatch")
    seen = set()
    for match in ArchivedMatch.objects.exclude(record=None).only("pk", "record").order_by("pk"):
        game = {k: v for k, v in match.record.items() if k != "players"}
        digest = hashlib.sha256(json.dumps(game, sort_keys=True, separators=(",", ":"),
                                           ensure_ascii=False).encode()).hexdigest()
        if digest not in seen:
            seen.add(digest)
            ArchivedMatch.objects.filter(pk=match.pk).update(record_hash=digest)


class Migration(migrations.Migration):

    dependencies = [
        ('gameplay', '0007_archive'),
    ]

    operations = [
        migrations.AddField(
            model_name='archivedmatch',
            name='record_hash',
            field=models.CharField(blank=True, default='', max_length=64),
        ),
        migrations.RunPython(fill_hashes, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name='archivedmatch',
            constraint=models.UniqueConstraint(condition=models.Q(('record_hash', ''), _negated=True),
                                               fields=('record_hash',), name='archive_record_hash_unique'),
        ),
    ]
