"""Two people confirming the same result at the same moment: it is confirmed once, audited once."""

import threading

import pytest
from django.db import connection

from clubs.models import AuditEntry
from tournaments import services
from tournaments.models import Match, MatchStatus

from .conftest import player_with_account, register_pairs

pytestmark = pytest.mark.django_db(transaction=True)


def test_simultaneous_confirmations_count_once(club, organiser):
    t = services.create_tournament(actor=organiser, club=club, name="Гонка", format="swiss", seeding="manual")
    asel, oleh, ivan, nurlan = (player_with_account(club, u) for u in ("asel", "oleh", "ivan", "nurlan"))
    services.register_entry(actor=organiser, tournament=t, player_a=asel, player_b=oleh)
    register_pairs(t, organiser, 1)
    services.register_entry(actor=organiser, tournament=t, player_a=ivan, player_b=nurlan)
    register_pairs(t, organiser, 1, prefix="Сосед")
    rnd = services.pair_next_round(actor=organiser, tournament=t)
    match = rnd.matches.get(table=1)
    match = services.enter_result(actor=asel.user, match=match, home_eyes=12, away_eyes=6)
    other = ivan.user if match.reported_side == "home" else asel.user
    barrier = threading.Barrier(3)
    errors: list[BaseException] = []

    def confirm(actor):
        try:
            barrier.wait()
            services.confirm_result(actor=actor, match=Match.objects.get(pk=match.pk))
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)
        finally:
            connection.close()

    def sweep():
        try:
            barrier.wait()
            Match.objects.filter(pk=match.pk).update(reported_at=match.reported_at.replace(year=2000))
            services.auto_confirm_due()
        except BaseException as error:  # noqa: BLE001
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=confirm, args=(u,)) for u in (organiser, other)] + [
        threading.Thread(target=sweep)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert not errors, errors
    assert Match.objects.get(pk=match.pk).status == MatchStatus.CONFIRMED
    audits = AuditEntry.objects.filter(
        object_id=str(match.pk), action__in=("match.confirm", "match.auto_confirm")
    )
    assert audits.count() == 1
