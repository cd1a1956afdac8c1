import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    """The archive's models, which were the game app's: taken over as they are (state only), on
    their tables as they are; `0002` gives the tables the archive's names."""

    initial = True

    dependencies = [
        ('gameplay', '0013_archived_match_table_is_a_number'),
        ('clubs', '0005_api_tokens'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='ArchivedMatch',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('source', models.CharField(choices=[('table', 'live table'), ('tournament', 'tournament'), ('upload', 'uploaded record')], max_length=12, verbose_name='source')),
                        ('table_id', models.BigIntegerField(blank=True, null=True, unique=True)),
                        ('tournament_match', models.PositiveIntegerField(blank=True, null=True, unique=True)),
                        ('tournament', models.PositiveIntegerField(blank=True, db_index=True, null=True)),
                        ('event_name', models.CharField(blank=True, max_length=200, verbose_name='event')),
                        ('event_url', models.CharField(blank=True, max_length=300)),
                        ('round_number', models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='round')),
                        ('played_at', models.DateTimeField(db_index=True, verbose_name='played')),
                        ('archived_at', models.DateTimeField(default=django.utils.timezone.now, editable=False)),
                        ('rules', models.JSONField(default=dict, verbose_name='rules')),
                        ('rules_key', models.CharField(db_index=True, max_length=16)),
                        ('ns_eyes', models.PositiveSmallIntegerField()),
                        ('ew_eyes', models.PositiveSmallIntegerField()),
                        ('winner', models.CharField(max_length=2)),
                        ('reason', models.CharField(default='eyes', max_length=12)),
                        ('reason_seat', models.PositiveSmallIntegerField(blank=True, choices=[(0, 'N'), (1, 'E'), (2, 'S'), (3, 'W')], null=True)),
                        ('record', models.JSONField(blank=True, null=True)),
                        ('has_record', models.BooleanField(db_index=True, default=False)),
                        ('record_hash', models.CharField(blank=True, default='', max_length=64)),
                        ('deal_count', models.PositiveSmallIntegerField(default=0)),
                        ('rated', models.BooleanField(db_index=True, default=False)),
                        ('public', models.BooleanField(db_index=True, default=True)),
                        ('club', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='archived_matches', to='clubs.club', verbose_name='club')),
                        ('uploaded_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'gameplay_archivedmatch',
                        'verbose_name': 'archived match',
                        'verbose_name_plural': 'archived matches',
                        'ordering': ['-played_at', '-id'],
                    },
                ),
                migrations.CreateModel(
                    name='ArchivedDeal',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('number', models.PositiveSmallIntegerField()),
                        ('outcome', models.CharField(max_length=12)),
                        ('pair_on_duty', models.PositiveSmallIntegerField(blank=True, null=True)),
                        ('jack_holder', models.PositiveSmallIntegerField(blank=True, choices=[(0, 'N'), (1, 'E'), (2, 'S'), (3, 'W')], null=True)),
                        ('redeal_seat', models.PositiveSmallIntegerField(blank=True, choices=[(0, 'N'), (1, 'E'), (2, 'S'), (3, 'W')], null=True)),
                        ('ns_points', models.PositiveSmallIntegerField(blank=True, null=True)),
                        ('ew_points', models.PositiveSmallIntegerField(blank=True, null=True)),
                        ('ns_eyes', models.PositiveSmallIntegerField(default=0)),
                        ('ew_eyes', models.PositiveSmallIntegerField(default=0)),
                        ('ns_score', models.PositiveSmallIntegerField(default=0)),
                        ('ew_score', models.PositiveSmallIntegerField(default=0)),
                        ('match', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='deals', to='archive.archivedmatch')),
                    ],
                    options={
                        'db_table': 'gameplay_archiveddeal',
                        'ordering': ['match', 'number'],
                    },
                ),
                migrations.CreateModel(
                    name='ArchivedSeat',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('seat', models.PositiveSmallIntegerField(choices=[(0, 'N'), (1, 'E'), (2, 'S'), (3, 'W')])),
                        ('kind', models.CharField(choices=[('player', 'player'), ('guest', 'guest'), ('bot', 'bot')], default='player', max_length=8)),
                        ('name', models.CharField(max_length=120)),
                        ('bot_level', models.CharField(blank=True, default='', max_length=16, verbose_name='bot level')),
                        ('match', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='seats', to='archive.archivedmatch')),
                        ('player', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='archived_seats', to='clubs.player')),
                        ('user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='archived_seats', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'gameplay_archivedseat',
                        'ordering': ['match', 'seat'],
                    },
                ),
                migrations.CreateModel(
                    name='MatchAnalysis',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('record_hash', models.CharField(max_length=64)),
                        ('result', models.JSONField(blank=True, null=True)),
                        ('error', models.CharField(blank=True, default='', max_length=300)),
                        ('seconds', models.FloatField(default=0)),
                        ('analysed_at', models.DateTimeField(auto_now=True)),
                        ('match', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='analysis', to='archive.archivedmatch')),
                    ],
                    options={
                        'db_table': 'gameplay_matchanalysis',
                        'verbose_name': 'match analysis',
                        'verbose_name_plural': 'match analyses',
                    },
                ),
                migrations.CreateModel(
                    name='SeatAnalysis',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('deals', models.PositiveSmallIntegerField(default=0)),
                        ('cards', models.PositiveSmallIntegerField(default=0)),
                        ('best_cards', models.PositiveSmallIntegerField(default=0)),
                        ('points_lost', models.PositiveIntegerField(default=0)),
                        ('analysis', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='seats', to='archive.matchanalysis')),
                        ('archived_seat', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='analysis', to='archive.archivedseat')),
                    ],
                    options={
                        'db_table': 'gameplay_seatanalysis',
                    },
                ),
                migrations.AddIndex(
                    model_name='archivedmatch',
                    index=models.Index(fields=['public', 'played_at'], name='archive_public_played'),
                ),
                migrations.AddConstraint(
                    model_name='archivedmatch',
                    constraint=models.UniqueConstraint(condition=models.Q(('record_hash', ''), _negated=True), fields=('record_hash',), name='archive_record_hash_unique'),
                ),
                migrations.AddConstraint(
                    model_name='archiveddeal',
                    constraint=models.UniqueConstraint(fields=('match', 'number'), name='archived_deal_unique'),
                ),
                migrations.AddConstraint(
                    model_name='archivedseat',
                    constraint=models.UniqueConstraint(fields=('match', 'seat'), name='archived_seat_unique'),
                ),
            ],
        ),
    ]
