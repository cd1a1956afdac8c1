"""The health page: database, Redis and a Celery worker, as HTML and JSON."""

import pytest
import redis.connection
from django.test import override_settings

pytestmark = pytest.mark.django_db


def test_all_ok_when_a_worker_is_running(client, celery_worker_process) -> None:
    response = client.get("/health/?format=json")

    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert {name: check["status"] for name, check in body["checks"].items()} == {
        "database": "ok",
        "redis": "ok",
        "celery": "ok",
    }
    assert all(check["latency_ms"] >= 0 for check in body["checks"].values())


def test_json_by_accept_header(client, celery_worker_process) -> None:
    response = client.get("/health/", headers={"accept": "application/json"})

    assert response.status_code == 200
    assert response["content-type"] == "application/json"


def test_html_page_lists_each_service(client, celery_worker_process) -> None:
    response = client.get("/health/", headers={"accept": "text/html", "accept-language": "en"})

    assert response.status_code == 200
    assert response["content-type"].startswith("text/html")
    html = response.content.decode()
    for service in ("Database", "Redis", "Celery worker"):
        assert service in html
    assert "not working" not in html


@override_settings(REDIS_URL="redis://127.0.0.1:1/0")
def test_unreachable_redis_gives_503_naming_redis(client) -> None:
    json_response = client.get("/health/?format=json")
    html_response = client.get("/health/")

    assert json_response.status_code == 503
    body = json_response.json()
    assert body["status"] == "error"
    assert body["checks"]["redis"]["status"] == "error"
    assert body["checks"]["database"]["status"] == "ok"
    assert html_response.status_code == 503
    assert "Redis" in html_response.content.decode()


def test_health_page_is_never_cached(client) -> None:
    response = client.get("/health/?format=json")

    assert "no-cache" in response["cache-control"]


def test_health_page_speaks_the_visitors_language(client) -> None:
    response = client.get("/health/", headers={"accept-language": "kk"})

    assert "Дерекқор" in response.content.decode(), "messages not compiled? bin/test compiles them"


@override_settings(CELERY_BROKER_URL="redis://127.0.0.1:1/0")
def test_unreachable_broker_gives_503_naming_the_worker_quickly(client, monkeypatch) -> None:
    # Quickly: a dead broker is tried at most twice (one retry), not Celery's default of 100
    # reconnections, which would keep the page waiting for minutes. Counted, not timed: a time
    # would measure the machine's speed.
    tries = []
    connect = redis.connection.AbstractConnection.connect

    def counted(connection, *args, **kwargs):
        if getattr(connection, "port", None) == 1:
            tries.append(1)
        return connect(connection, *args, **kwargs)

    monkeypatch.setattr(redis.connection.AbstractConnection, "connect", counted)
    response = client.get("/health/?format=json", headers={"accept-language": "en"})

    assert response.status_code == 503
    checks = response.json()["checks"]
    assert checks["celery"]["status"] == "error"
    assert checks["celery"]["name"] == "Celery worker"
    assert checks["redis"]["status"] == "ok"
    assert 0 < len(tries) <= 2
