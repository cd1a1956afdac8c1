"""The deals of matches already taken from live tables: before, a live table's result gave the match
its eyes alone, so its Lucy deals never reached the Lucy tiebreak. Each such match gets its deal
lines and Lucy counts from its table's record, as ``services.live.table_sheet`` now writes them
(the engine replays the record; the sheet's own scorer scores it). A match whose table, record or
seats cannot be read is left as it was; running it again changes nothing."""

from django.db import migrations


def _sheet(record, home_seats, rules):
    from gameplay.engine import EngineError, read_record
    from gameplay.engine.cards import PAIRS, SEATS
    from gameplay.engine.record import score_state
    from gameplay.engine.sheets import DealSummary, InvalidScore, ScoringRules, score_sheet

    try:
        report = score_state(read_record(record or {}))
    except EngineError:
        return []
    flip = home_seats == "EW"
    deals = []
    for deal in report["deals"]:
        if deal["outcome"] in ("redeal", "unfinished"):
            continue
        points = (deal["points"]["NS"], deal["points"]["EW"])
        on_duty = PAIRS.index(deal["on_duty"])
        winners = {SEATS.index(t["winner"]) % 2 for t in deal["tricks"]}
        every = winners.pop() if len(winners) == 1 else None
        if flip:
            points, on_duty = points[::-1], 1 - on_duty
            every = None if every is None else 1 - every
        deals.append(DealSummary(points=points, jack_holder=on_duty, all_tricks=every))
    try:
        return list(score_sheet(deals, ScoringRules.from_rules(rules)).lines)
    except (InvalidScore, TypeError, ValueError):
        return []


def forwards(apps, schema_editor):
    Match = apps.get_model("tournaments", "Match")
    DealLine = apps.get_model("tournaments", "DealLine")
    Table = apps.get_model("gameplay", "Table")
    matches = Match.objects.filter(
        reported_side="table", live_table__isnull=False, deals__isnull=True
    ).select_related("home__player_a", "home__player_b", "tournament")
    for match in matches.iterator():
        table = Table.objects.filter(pk=match.live_table).first()
        if table is None or not table.record:
            continue
        seats = {s.seat: s.user_id for s in table.seats.all()}
        home = {match.home.player_a.user_id, match.home.player_b.user_id} - {None}
        ns, ew = {seats.get(0), seats.get(2)}, {seats.get(1), seats.get(3)}
        if home & ns and not home & ew:
            home_seats = "NS"
        elif home & ew and not home & ns:
            home_seats = "EW"
        else:
            continue
        lines = _sheet(table.record, home_seats, match.tournament.rules)
        if not lines:
            continue
        DealLine.objects.bulk_create(
            DealLine(
                match=match,
                number=line.number,
                home_points=line.deal.points[0],
                away_points=line.deal.points[1],
                jack_holder=line.deal.jack_holder,
                all_tricks=line.deal.all_tricks,
                outcome=line.result.outcome,
                home_eyes=line.result.eyes[0],
                away_eyes=line.result.eyes[1],
                home_score=line.score[0],
                away_score=line.score[1],
            )
            for line in lines
        )
        match.home_lucy = sum(1 for ln in lines if ln.result.outcome == "lucy" and ln.result.winner == 0)
        match.away_lucy = sum(1 for ln in lines if ln.result.outcome == "lucy" and ln.result.winner == 1)
        match.save(update_fields=["home_lucy", "away_lucy"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0019_entry_waits_for_partner"),
        ("gameplay", "0014_archive_moves_out"),
    ]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
