"""A forfeit now loses only its own game of a best-of tie; it used to lose the whole tie. The ties a
forfeit ended under that rule stay decided as they were: their last game is marked ``ends_tie``.

Such a tie is one whose games are all confirmed and whose last game is a forfeit: under the rule now,
a forfeit that does not decide its tie is followed at once by the tie's next game, so a tie can only
end on a forfeit that decides it (the mark then changes nothing) or under the earlier rule.
"""

from collections import defaultdict

from django.db import migrations, models

GROUP = "group"  # group matches are never series (tournaments.formats.brackets.GROUP)


def mark(apps, schema_editor):
    Match = apps.get_model("tournaments", "Match")
    ties = defaultdict(list)
    games = Match.objects.filter(bye=False).exclude(bracket=GROUP).only(
        "id", "round_id", "bracket", "stage", "slot", "game", "status", "forfeit"
    )
    for game in games.iterator():
        ties[(game.round_id, game.bracket, game.stage, game.slot)].append(game)
    ended = []
    for tie in ties.values():
        tie.sort(key=lambda g: g.game)
        if all(g.status == "confirmed" for g in tie) and tie[-1].forfeit:
            ended.append(tie[-1].pk)
    Match.objects.filter(pk__in=ended).update(ends_tie=True)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0025_entry_fees"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="ends_tie",
            field=models.BooleanField(default=False, editable=False),
        ),
        migrations.RunPython(mark, migrations.RunPython.noop),
    ]
