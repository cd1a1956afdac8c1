"""Production settings pass Django's deploy checks, take the websocket origins from the environment, and
WhiteNoise serves the collected files."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.templatetags.static import static
from django.test import Client, override_settings

REPO_ROOT = Path(__file__).resolve().parents[2]


def manage(
    *args: str, settings_module: str = "config.settings.prod", **env: str
) -> subprocess.CompletedProcess:
    # DJANGO_ALLOW_ASYNC_UNSAFE is the browser tests' switch (tests/e2e/conftest.py), set in this process
    # when they are collected with the rest; a production process never has it.
    own = {"DATABASE_URL", "SECRET_KEY", "ALLOWED_HOSTS", "DJANGO_ALLOW_ASYNC_UNSAFE", "BILKA_WS_ORIGINS",
           "CSRF_TRUSTED_ORIGINS", "PORT"}
    clean = {k: v for k, v in os.environ.items() if k not in own}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=REPO_ROOT,
        env={**clean, "DJANGO_SETTINGS_MODULE": settings_module, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_production_settings_pass_the_deploy_checks_with_nothing_silenced() -> None:
    result = manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        SECRET_KEY=secrets.token_urlsafe(64),
        ALLOWED_HOSTS="bilka.example.org",
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/bilka",
    )

    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout


def test_production_refuses_to_start_without_a_database_url() -> None:
    result = manage("check", SECRET_KEY=secrets.token_urlsafe(64), ALLOWED_HOSTS="bilka.example.org")

    assert result.returncode != 0
    assert "DATABASE_URL" in result.stderr


def test_production_refuses_to_start_without_a_secret_key() -> None:
    result = manage(
        "check", ALLOWED_HOSTS="bilka.example.org", DATABASE_URL="postgres://postgres@127.0.0.1:5432/bilka"
    )

    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


def ws_origins(settings_module: str = "config.settings.prod", **env: str) -> list[str]:
    code = "from django.conf import settings; print(*settings.BILKA_WS_ORIGINS)"
    result = manage("shell", "-v", "0", "-c", code,
                    settings_module=settings_module, SECRET_KEY=secrets.token_urlsafe(64),
                    DATABASE_URL="postgres://postgres@127.0.0.1:5432/bilka", **env)
    assert result.returncode == 0, result.stderr
    return result.stdout.split()


def test_production_websockets_are_open_only_to_the_sites_https_origins() -> None:
    assert ws_origins(ALLOWED_HOSTS="bilka.example.org,.bilka.example.org") == ["https://bilka.example.org"]
    assert ws_origins(ALLOWED_HOSTS="bilka.example.org", CSRF_TRUSTED_ORIGINS="https://play.example.org") == [
        "https://play.example.org"]
    assert ws_origins(ALLOWED_HOSTS="bilka.example.org", CSRF_TRUSTED_ORIGINS="https://play.example.org",
                      BILKA_WS_ORIGINS="https://bilka.example.org:8443") == ["https://bilka.example.org:8443"]


def test_development_websockets_are_open_to_the_port_bin_site_serves() -> None:
    assert ws_origins("config.settings.dev", PORT="8123") == [
        "http://127.0.0.1:8123", "http://localhost:8123", "http://[::1]:8123"]


@pytest.mark.django_db
def test_whitenoise_serves_collected_static_files_with_hashed_names(tmp_path) -> None:
    production_static = {
        "STATIC_ROOT": tmp_path,
        "STORAGES": {
            "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
            "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
        },
        "WHITENOISE_USE_FINDERS": False,
        "WHITENOISE_AUTOREFRESH": False,
    }
    with override_settings(**production_static):
        call_command("collectstatic", interactive=False, verbosity=0)
        url = static("admin/css/base.css")
        response = Client().get(url)

        assert url != "/static/admin/css/base.css"  # a hashed, cacheable name
        assert response.status_code == 200
        assert "max-age=315360000" in response["cache-control"]
        b"".join(response.streaming_content)
        response.close()
