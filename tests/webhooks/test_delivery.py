"""Deliveries to a real HTTP receiver on 127.0.0.1: signed, retried after a failure, never redirected,
refused when the address turns private, and found again by the sweep when a worker lost them."""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from datetime import timedelta

import pytest
from django.utils import timezone

from tournaments import services as tournament_services
from webhooks import services, tasks
from webhooks.models import Delivery, DeliveryStatus, Webhook
from webhooks.services.deliveries import BACKOFF_SECONDS, MAX_ATTEMPTS

pytestmark = pytest.mark.django_db


@pytest.fixture
def hook(club, receiver):
    return Webhook.objects.create(
        club=club, url=receiver.url, secret="whsec_test-secret", events=["round.paired"]
    )


@pytest.fixture
def delivery(swiss, organiser, hook) -> Delivery:
    tournament_services.pair_next_round(actor=organiser, tournament=swiss)
    return Delivery.objects.select_related("event").get(hook=hook)


def test_a_delivery_is_signed_and_carries_the_event(delivery, receiver, swiss):
    assert tasks.deliver(delivery.pk) == DeliveryStatus.DELIVERED

    delivery.refresh_from_db()
    assert (delivery.status, delivery.status_code, delivery.attempts, delivery.error) == (
        "delivered",
        200,
        1,
        "",
    )
    [got] = receiver.got
    assert got.headers["Bilka-Event"] == "round.paired"
    assert got.headers["Bilka-Delivery"] == str(delivery.uid)
    assert got.headers["Content-Type"] == "application/json"
    stamp, mac = (part.split("=", 1)[1] for part in got.headers["Bilka-Signature"].split(","))
    assert abs(int(stamp) - time.time()) < 60
    expected = hmac.new(b"whsec_test-secret", stamp.encode() + b"." + got.body, hashlib.sha256).hexdigest()
    assert hmac.compare_digest(mac, expected)
    body = json.loads(got.body)
    assert body == delivery.event.payload(swiss.slug)
    assert body["id"] == str(delivery.event.uid) and body["data"]["round"] == 1


def test_a_failure_waits_and_the_retry_delivers(delivery, receiver, hook):
    receiver.answers = [500]
    assert tasks.deliver(delivery.pk) == DeliveryStatus.PENDING
    delivery.refresh_from_db()
    assert (delivery.attempts, delivery.status_code, delivery.error) == (1, 500, "status")
    wait = (delivery.next_attempt_at - timezone.now()).total_seconds()
    assert BACKOFF_SECONDS[0] - 5 < wait <= BACKOFF_SECONDS[0]
    hook.refresh_from_db()
    assert hook.failures == 1

    assert tasks.deliver(delivery.pk) is None  # a second copy of the task, before its time: nothing
    assert len(receiver.got) == 1

    Delivery.objects.filter(pk=delivery.pk).update(next_attempt_at=timezone.now())
    assert tasks.deliver(delivery.pk) == DeliveryStatus.DELIVERED
    delivery.refresh_from_db()
    assert (delivery.attempts, delivery.status_code) == (2, 200)
    assert len(receiver.got) == 2
    assert receiver.got[0].headers["Bilka-Delivery"] == receiver.got[1].headers["Bilka-Delivery"]
    hook.refresh_from_db()
    assert hook.failures == 0
    assert tasks.deliver(delivery.pk) is None  # delivered: a late copy of the task sends nothing


def test_the_attempts_run_out(delivery, receiver):
    receiver.answers = [503] * MAX_ATTEMPTS
    waits = []
    for _attempt in range(MAX_ATTEMPTS):
        Delivery.objects.filter(pk=delivery.pk).update(next_attempt_at=timezone.now())
        tasks.deliver(delivery.pk)
        delivery.refresh_from_db()
        waits.append(round((delivery.next_attempt_at - timezone.now()).total_seconds() / 10) * 10)
    assert delivery.status == DeliveryStatus.FAILED and delivery.attempts == MAX_ATTEMPTS
    assert waits[:-1] == [round(s / 10) * 10 for s in BACKOFF_SECONDS]
    assert len(receiver.got) == MAX_ATTEMPTS


def test_a_hook_failing_again_and_again_is_turned_off(swiss, organiser, hook, receiver, settings):
    settings.WEBHOOKS_DISABLE_AFTER = 3
    receiver.answers = [500] * 10
    for _round in range(3):  # three rounds paired and unpaired: three events, three deliveries
        rnd = tournament_services.pair_next_round(actor=organiser, tournament=swiss)
        tournament_services.unpair_round(actor=organiser, round=rnd)
    first_three = list(Delivery.objects.filter(hook=hook).order_by("id").values_list("pk", flat=True))[:3]
    for delivery_id in first_three:
        tasks.deliver(delivery_id)
    hook.refresh_from_db()
    assert not hook.active and hook.disabled_for_failures and hook.failures == 3

    later = (
        Delivery.objects.filter(hook=hook, status=DeliveryStatus.PENDING).exclude(pk__in=first_three).first()
    )
    assert tasks.deliver(later.pk) is None
    later.refresh_from_db()
    assert (later.status, later.error) == ("failed", "hook_off")
    assert len(receiver.got) == 3
    tournament_services.pair_next_round(actor=organiser, tournament=swiss)
    assert Delivery.objects.filter(hook=hook).count() == 6  # a hook that is off is sent nothing new


def test_a_redirect_is_not_followed(delivery, receiver):
    receiver.answers = [302]
    receiver.redirect_to = "http://169.254.169.254/latest/meta-data/"
    assert tasks.deliver(delivery.pk) == DeliveryStatus.PENDING
    delivery.refresh_from_db()
    assert delivery.status_code == 302 and len(receiver.got) == 1


def test_an_address_checked_again_at_delivery(delivery, receiver, settings):
    """Registered while allowed; the host is no longer allowed (as a name re-pointed inward): refused."""
    settings.WEBHOOKS_ALLOWED_TEST_HOSTS = []
    assert tasks.deliver(delivery.pk) == DeliveryStatus.PENDING
    delivery.refresh_from_db()
    assert (delivery.status_code, delivery.error) == (None, "refused_address")
    assert receiver.got == []


def test_the_sweep_finds_what_a_killed_worker_left(delivery, receiver):
    # a worker claimed it (the attempt is counted, due again when the lease ends) and died
    Delivery.objects.filter(pk=delivery.pk).update(
        attempts=1, next_attempt_at=timezone.now() + timedelta(seconds=60)
    )
    assert services.sweep() == []  # the attempt might still be under way
    Delivery.objects.filter(pk=delivery.pk).update(next_attempt_at=timezone.now() - timedelta(minutes=2))
    assert services.sweep() == [delivery.pk]

    assert tasks.deliver(delivery.pk) == DeliveryStatus.DELIVERED
    delivery.refresh_from_db()
    assert delivery.attempts == 2 and len(receiver.got) == 1
    assert services.sweep() == []


@pytest.fixture
def tasks_run_at_once():
    """Celery runs a queued task in this process at once (as a worker would, minus the broker)."""
    from config.celery import app

    app.conf.task_always_eager = True
    try:
        yield
    finally:
        app.conf.task_always_eager = False


@pytest.mark.django_db(transaction=True)
def test_a_committed_change_queues_its_delivery(swiss, organiser, hook, receiver, tasks_run_at_once):
    """Committed for real (a task closes the connection it found, as a worker does)."""
    tournament_services.pair_next_round(actor=organiser, tournament=swiss)
    assert Delivery.objects.get(hook=hook).status == DeliveryStatus.DELIVERED
    assert [g.headers["Bilka-Event"] for g in receiver.got] == ["round.paired"]


def test_the_sweep_has_its_beat_plan():
    from django_celery_beat.models import PeriodicTask

    plan = PeriodicTask.objects.get(task="webhooks.tasks.sweep")
    assert plan.enabled and plan.interval.every == 60


def test_https_checks_the_receivers_certificate(swiss, organiser, club, receiver, tmp_path, settings):
    """A receiver on https whose certificate no authority signed: the delivery fails, nothing sent."""
    import ssl
    import subprocess
    import threading
    from http.server import BaseHTTPRequestHandler, HTTPServer

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802 - http.server's name
            receiver.got.append(self.path)
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args):
            pass

    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(  # noqa: S603
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            str(key),
            "-out",
            str(cert),  # noqa: S607
            "-days",
            "1",
            "-subj",
            "/CN=127.0.0.1",
        ],
        check=True,
        capture_output=True,
    )
    server = HTTPServer(("127.0.0.1", 0), Handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    settings.WEBHOOKS_ALLOWED_TEST_HOSTS = [f"127.0.0.1:{port}"]
    try:
        hook = Webhook.objects.create(
            club=club, url=f"https://127.0.0.1:{port}/hook", secret="s", events=["round.paired"]
        )
        tournament_services.pair_next_round(actor=organiser, tournament=swiss)
        delivery = Delivery.objects.get(hook=hook)
        assert tasks.deliver(delivery.pk) == DeliveryStatus.PENDING
        delivery.refresh_from_db()
        assert (delivery.status_code, delivery.error) == (None, "tls")
        assert receiver.got == []
    finally:
        server.shutdown()
        server.server_close()
