"""Each side of a match gets its own PIN; the old shared PIN and its lock counter go.

Matches are given two fresh PINs each (a default is drawn once per migration, so each row is
filled on its own). The shared PIN is not kept: both pairs saw it on the old sheet, so either could
have confirmed its own result with it; sheets of unfinished rounds are to be printed again.
Existing audit rows of tournaments get their tournament, round and subject, for the audit page.
"""

import secrets

from django.db import migrations, models

import tournaments.models


def _pin() -> str:
    return f"{secrets.randbelow(10000):04d}"


def fill_pins(apps, schema_editor):
    Match = apps.get_model("tournaments", "Match")
    batch = []
    for match in Match.objects.only("pk").iterator():
        match.home_pin, match.away_pin = _pin(), _pin()
        batch.append(match)
        if len(batch) >= 500:
            Match.objects.bulk_update(batch, ["home_pin", "away_pin"])
            batch = []
    Match.objects.bulk_update(batch, ["home_pin", "away_pin"])


def fill_audit_rows(apps, schema_editor):
    AuditEntry = apps.get_model("clubs", "AuditEntry")
    Match = apps.get_model("tournaments", "Match")
    Round = apps.get_model("tournaments", "Round")
    Tournament = apps.get_model("tournaments", "Tournament")
    Entry = apps.get_model("tournaments", "Entry")
    IndividualEntry = apps.get_model("tournaments", "IndividualEntry")
    Correction = apps.get_model("tournaments", "ResultCorrection")
    rows = AuditEntry.objects.filter(object_type__startswith="tournaments.", tournament_id__isnull=True)
    for row in rows.iterator():
        pk = int(row.object_id) if row.object_id.isdigit() else None
        if row.object_type == "tournaments.match":
            m = Match.objects.filter(pk=pk).select_related("round", "home__player_a", "home__player_b",
                                                           "away__player_a", "away__player_b").first()
            if m is None:
                continue
            row.tournament_id, row.round_number = m.tournament_id, m.round.number
            names = [
                f"{e.player_a.display_name} & {e.player_b.display_name}" if e else ""
                for e in (m.home, m.away)
            ]
            row.subject = {"kind": "match", "round": m.round.number, "table": m.table, "game": m.game,
                           "home": names[0], "away": names[1]}
            if row.action == "match.correct":
                c = Correction.objects.filter(match=m, at__lte=row.at).order_by("-at", "-id").first()
                row.reason = c.reason if c else ""
        elif row.object_type == "tournaments.round":
            r = Round.objects.filter(pk=pk).first()
            if r is None:
                continue
            row.tournament_id, row.round_number = r.tournament_id, r.number
            row.subject = {"kind": "round", "round": r.number}
        elif row.object_type == "tournaments.tournament":
            t = Tournament.objects.filter(pk=pk).first()
            if t is None:
                continue
            row.tournament_id, row.subject = t.pk, {"kind": "tournament", "name": t.name}
        elif row.object_type in ("tournaments.entry", "tournaments.individualentry"):
            model = Entry if row.object_type == "tournaments.entry" else IndividualEntry
            e = model.objects.filter(pk=pk).first()
            if e is None:
                continue
            row.tournament_id, row.subject = e.tournament_id, {"kind": "entry", "name": row.object_repr}
        else:
            continue
        event = Tournament.objects.filter(pk=row.tournament_id).values_list("name", flat=True).first()
        row.subject = {**row.subject, "event": event or ""}
        row.save(update_fields=["tournament_id", "round_number", "subject", "reason"])


class Migration(migrations.Migration):

    dependencies = [
        ("clubs", "0004_audit_subject_tournament_reason"),
        ("tournaments", "0012_withdrawal_request"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="home_pin",
            field=models.CharField(default=tournaments.models.new_pin, max_length=8, verbose_name="PIN of pair 1"),
        ),
        migrations.AddField(
            model_name="match",
            name="away_pin",
            field=models.CharField(default=tournaments.models.new_pin, max_length=8, verbose_name="PIN of pair 2"),
        ),
        migrations.RunPython(fill_pins, migrations.RunPython.noop),
        migrations.RemoveField(model_name="match", name="pin"),
        migrations.RemoveField(model_name="match", name="pin_failures"),
        migrations.RunPython(fill_audit_rows, migrations.RunPython.noop),
    ]
