"""The whole way from a pairing to a phone through a real Celery worker: the pairing's commit queues
the notices' task, each stored notice queues its push, and the push service on loopback gets it."""

import json

import http_ece
import pytest

from config.celery import app as celery_app
from tournaments import services
from tournaments.models import Notification

from .day.conftest import swiss_with_accounts
from .test_push import Phone, _check_vapid, _subscribe
from .test_push import push_service as push_service  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_paired_round_reaches_the_subscribed_phone_once(
    celery_worker_process, club, organiser, push_service
):
    celery_app.control.purge()
    t = swiss_with_accounts(club, organiser, 2, auto_pair=False)
    entry = t.entries.order_by("pk").first()
    user = entry.player_a.user
    phone = Phone()
    _subscribe(user, push_service, phone)

    rnd = services.pair_next_round(actor=organiser, tournament=t)
    celery_worker_process.run_queued()  # the pairing's notices, which queue their pushes
    celery_worker_process.run_queued()  # the pushes

    assert Notification.objects.filter(key__startswith=f"pairing:{rnd.pk}:").count() == 4, (
        celery_worker_process.log()[-2000:]
    )
    note = Notification.objects.get(user=user)
    assert len(push_service.received) == 1, celery_worker_process.log()[-2000:]
    got = push_service.received[0]
    _check_vapid(got["headers"], push_service.origin)
    plain = http_ece.decrypt(
        got["body"], private_key=phone.private, auth_secret=phone.secret, version="aes128gcm"
    )
    assert json.loads(plain)["body"] == note.text and "тур 1: стол 1" in note.text
