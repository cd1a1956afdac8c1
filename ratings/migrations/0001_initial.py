import django.db.models.deletion
import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):
    """The ratings' models, which were the tournaments' app's: taken over as they are (state only),
    on their tables as they are; `0002` gives the tables the ratings' names."""

    initial = True

    dependencies = [
        ('tournaments', '0016_ratings'),
        ('archive', '0001_initial'),
        ('clubs', '0005_api_tokens'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='RatingRun',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('status', models.CharField(choices=[('pending', 'waiting'), ('running', 'running'), ('done', 'done'), ('superseded', 'replaced by a later run'), ('failed', 'failed')], default='pending', max_length=12)),
                        ('reason', models.CharField(blank=True, max_length=200)),
                        ('requested_at', models.DateTimeField(default=django.utils.timezone.now)),
                        ('started_at', models.DateTimeField(blank=True, null=True)),
                        ('finished_at', models.DateTimeField(blank=True, null=True)),
                        ('done', models.PositiveIntegerField(default=0)),
                        ('total', models.PositiveIntegerField(default=0)),
                    ],
                    options={
                        'db_table': 'tournaments_ratingrun',
                        'ordering': ['-id'],
                    },
                ),
                migrations.CreateModel(
                    name='PairRating',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('game', models.CharField(default='bilka4', max_length=16)),
                        ('mu', models.FloatField()),
                        ('var', models.FloatField()),
                        ('day', models.FloatField(blank=True, null=True)),
                        ('matches', models.PositiveIntegerField(default=0)),
                        ('player_a', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='clubs.player')),
                        ('player_b', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='clubs.player')),
                    ],
                    options={
                        'db_table': 'tournaments_pairrating',
                        'constraints': [models.UniqueConstraint(fields=('player_a', 'player_b', 'game'), name='pair_rating_unique')],
                    },
                ),
                migrations.CreateModel(
                    name='PlayerRating',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('game', models.CharField(default='bilka4', max_length=16)),
                        ('rating', models.FloatField(verbose_name='rating')),
                        ('deviation', models.FloatField(verbose_name='deviation')),
                        ('mu', models.FloatField()),
                        ('var', models.FloatField()),
                        ('day', models.FloatField(blank=True, null=True)),
                        ('matches', models.PositiveIntegerField(default=0)),
                        ('last_played', models.DateTimeField(blank=True, null=True)),
                        ('player', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='ratings', to='clubs.player')),
                    ],
                    options={
                        'db_table': 'tournaments_playerrating',
                        'ordering': ['-rating', 'player_id'],
                        'indexes': [models.Index(fields=['game', '-rating'], name='rating_board')],
                        'constraints': [models.UniqueConstraint(fields=('player', 'game'), name='rating_unique_player_game')],
                    },
                ),
                migrations.CreateModel(
                    name='RatingChange',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('game', models.CharField(default='bilka4', max_length=16)),
                        ('played_at', models.DateTimeField()),
                        ('seq', models.PositiveIntegerField()),
                        ('before', models.FloatField()),
                        ('after', models.FloatField()),
                        ('deviation_before', models.FloatField()),
                        ('deviation_after', models.FloatField()),
                        ('weight', models.FloatField(default=1.0)),
                        ('match', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rating_changes', to='archive.archivedmatch')),
                        ('player', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rating_changes', to='clubs.player')),
                    ],
                    options={
                        'db_table': 'tournaments_ratingchange',
                        'ordering': ['seq'],
                        'indexes': [models.Index(fields=['player', 'game', 'seq'], name='rating_change_history')],
                        'constraints': [models.UniqueConstraint(fields=('match', 'player', 'game'), name='rating_change_unique')],
                    },
                ),
            ],
        ),
    ]
