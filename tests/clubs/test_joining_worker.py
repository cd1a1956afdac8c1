"""A club's invitation reaches the invited account through a real Celery worker: the owner's request
only queues the notice (the same for an address with no account), the worker words and keeps it."""

import pytest

from clubs import services
from config.celery import app as celery_app
from tests.clubs.factories import UserFactory
from tournaments.models import Notification

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_worker_tells_the_invited_account_and_nobody_for_an_unknown_address(
    celery_worker_process, club, owner
):
    celery_app.control.purge()  # tasks other tests queued since the worker started are not ours
    asel = UserFactory(username="asel", email="asel@example.com")
    services.invite_member(actor=owner, club=club, who="asel@example.com")
    services.invite_member(actor=owner, club=club, who="nobody@example.com")
    celery_worker_process.run_queued()
    notices = list(Notification.objects.filter(kind="club.invitation"))
    assert [n.user_id for n in notices] == [asel.pk], celery_worker_process.log()[-2000:]
    assert notices[0].url.startswith("/join/")
