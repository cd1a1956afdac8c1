"""The archive check over hundreds of engine-played matches of every kind, then planted mismatches."""

from __future__ import annotations

import datetime

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from archive import services as archive_services
from archive.models import ArchivedMatch, SeatKind
from gameplay.engine import Rules, write_record
from gameplay.engine.cards import PAIRS
from gameplay.engine.selfplay import bot_match
from gameplay.engine.state import Phase

pytestmark = pytest.mark.django_db

RULE_SETS = [
    {},
    {"deck": "36"},
    {"lucy": "zero", "eggs": "plus_four"},
    {"first_deal_two_eyes": True, "redeal_four_nines": True, "redeal_five_of_suit": True},
    {"rout_at": 91, "three_redeals_eye": True},
]
SEATS4 = [
    archive_services.SeatIn(seat=0, name="Асель"),
    archive_services.SeatIn(seat=1, name="Бот", kind=SeatKind.BOT),
    archive_services.SeatIn(seat=2, name="Гость", kind=SeatKind.GUEST),
    archive_services.SeatIn(seat=3, name="Ерлан"),
]


def _played(n: int) -> archive_services.PlayedMatch:
    """Match `n`: one of five rule sets, ended by eyes, resignation, the clock or a forfeit,
    some dealt by the provable shuffle, some with a penalty; every fifth known by its sheet only."""
    rules = Rules.from_json(RULE_SETS[n % len(RULE_SETS)])
    kind = n % 4
    if kind == 0:
        state = bot_match(rules, seed=n, provable=n % 8 == 0)
        reason = "eyes"
    else:
        state = bot_match(rules, seed=n, stop_after=40 + n % 90)
        if state.phase == Phase.OVER:
            reason = "eyes"
        else:
            reason = ("resign", "timeout", "forfeit")[kind - 1]
            state.end_match(reason, n % 4)
    record = write_record(state)
    ns, ew = state.capped_score
    played = archive_services.PlayedMatch(
        source="upload", seats=SEATS4, rules=rules.to_json(),
        played_at=timezone.now() - datetime.timedelta(hours=n), ns_eyes=ns, ew_eyes=ew,
        winner=PAIRS[state.winner or 0], reason=reason,
        reason_seat=state.end[1] if state.end else None, record=record,
    )
    if n % 5 == 4:  # a match known by its deal sheet: no record for the check to replay
        sheet = [archive_services.SheetDeal(outcome="win", pair_on_duty=0, ns_points=70, ew_points=50,
                                            ns_eyes=1,
                                    ew_eyes=0, ns_score=1, ew_score=0)]
        played = archive_services.PlayedMatch(**{**played.__dict__, "record": None, "sheet": sheet})
    return played


@pytest.fixture
def archive():
    return [archive_services.archive_match(played=_played(n)) for n in range(300)]


def test_every_generated_match_agrees_with_its_stored_result(archive, capsys):
    call_command("archive_check")
    out = capsys.readouterr().out
    with_records = sum(1 for m in archive if m.has_record)
    assert with_records == 240
    assert f"{with_records} records checked, 0 disagree" in out
    assert {m.reason for m in archive} == {"eyes", "resign", "timeout", "forfeit"}
    assert len({m.rules_key for m in archive}) == len(RULE_SETS)


def test_each_kind_of_mismatch_is_printed_and_fails_the_check(archive, capsys):
    with_records = [m for m in archive if m.has_record]
    by_eyes = next(m for m in with_records if m.reason == "eyes")
    by_clock = next(m for m in with_records if m.reason == "timeout")
    ArchivedMatch.objects.filter(pk=by_eyes.pk).update(ns_eyes=by_eyes.ns_eyes ^ 1)  # a wrong score
    ArchivedMatch.objects.filter(pk=by_clock.pk).update(reason="resign")  # the wrong way to lose
    broken = with_records[5]
    record = dict(broken.record)
    record["deals"] = record["deals"][:1] + [{"dealer": "N", "hands": {}}]
    ArchivedMatch.objects.filter(pk=broken.pk).update(record=record)  # a record that does not replay
    with pytest.raises(CommandError) as failure:
        call_command("archive_check")
    assert failure.value.returncode == 1
    out = capsys.readouterr().out
    assert "3 disagree" in out
    for match in (by_eyes, by_clock, broken):
        assert f"archived match {match.pk} " in out
    assert "does not replay" in out
