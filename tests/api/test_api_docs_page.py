"""The API docs page as a reader without JavaScript gets it: in the site's frame, in his language,
with how to send a key and every operation listed; every page's footer leads to it; and the
schema's Authorize dialog says the header's form."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from api.docs_page import first_sentence
from tests.clubs.factories import UserFactory
from tests.words.visible import leaks

pytestmark = pytest.mark.django_db

DOCS = "/api/docs/"
#: Names of formats the guide mentions, the same in every language (as JSON is on the allow-list).
FORMAT_NAMES = frozenset({"OpenAPI", "YAML"})


def page(language: str, path: str = DOCS, user=None) -> str:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    if user is not None:
        client.force_login(user)
    response = client.get(path)
    assert response.status_code == 200
    return response.content.decode()


def json_schema() -> dict:
    return Client().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()


def schema_operations() -> list[tuple[str, str, dict]]:
    schema = json_schema()
    return [
        (method.upper(), path, operation)
        for path, item in schema["paths"].items()
        for method, operation in item.items()
        if isinstance(operation, dict)
    ]


@pytest.mark.parametrize("path", ["/", "/tournaments/", "/me/"])
def test_every_pages_footer_links_to_the_api_docs(path):
    html = page("ru", path, user=UserFactory() if path == "/me/" else None)
    footer = html[html.index('<footer class="site-footer') :]
    assert f'<a href="{reverse("api:docs")}">API для программ</a>' in footer


@pytest.mark.parametrize(
    ("language", "title", "key_words"),
    [
        ("ru", "Документация API", "Передавайте ключ в заголовке каждого запроса"),
        ("uk", "Документація API", "Передавайте ключ у заголовку кожного запиту"),
        ("kk", "API құжаттамасы", "Кілтті әр сұраудың тақырыпшасында жіберіңіз"),
    ],
)
def test_the_docs_page_without_script_keeps_the_header_and_says_how_to_send_a_key(language, title, key_words):
    html = page(language)
    assert '<header class="site-header">' in html
    assert f'<a href="{reverse("tournaments:list")}">' in html  # the site's menu
    assert f'<h1 id="api-guide-title">{title}</h1>' in html
    assert key_words in html
    assert "<code>Authorization: Bearer &lt;key&gt;</code>" in html
    assert '<a href="/me/#api-keys">' in html
    assert "<code>http://testserver/api/v1/</code>" in html
    assert '<a href="/api/schema/">' in html
    assert "<code>Accept: application/vnd.oai.openapi+json</code>" in html


def test_the_docs_page_lists_every_operation_of_the_schema_without_script():
    html = page("ru")
    line = (
        r'<span class="api-method api-method-\w+"><code>(\w+)</code></span>\s*'
        r'<code class="api-path">([^<]+)</code>'
    )
    listed = re.findall(line, html)
    operations = schema_operations()
    assert len(operations) >= 15
    assert sorted(listed) == sorted((method, path) for method, path, _ in operations)
    for method, path, operation in operations:
        summary = operation.get("summary") or first_sentence(operation.get("description", ""))
        if summary:
            assert summary.replace("'", "&#x27;").replace('"', "&quot;") in html, (method, path)
    # writes say they need a key; reads do not
    assert html.count('<span class="badge badge-muted">нужен ключ</span>') == sum(
        method != "GET" for method, _, _ in operations
    )


@pytest.mark.parametrize("language", ["ru", "uk", "kk"])
def test_the_guide_has_no_english_but_the_schemas_own_descriptions(language):
    html = page(language)
    # the schema's descriptions are English on purpose (marked lang="en"); everything else is not
    own_words = re.sub(r'<span class="api-summary small" lang="en">[^<]*</span>', "", html)
    assert own_words != html
    assert leaks(own_words, FORMAT_NAMES) == []


def test_the_docs_page_has_no_inline_script_and_its_start_up_script_comes_from_a_file():
    html = page("ru")
    scripts = re.findall(r"<script([^>]*)>", html)
    assert scripts and all(" src=" in attributes for attributes in scripts)
    assert '<script src="/api/docs/?script=" defer></script>' in html
    start_up = Client().get(DOCS + "?script=")
    assert start_up.status_code == 200
    assert start_up["Content-Type"].startswith("application/javascript")
    assert b"SwaggerUIBundle" in start_up.content


def test_the_schemas_security_scheme_is_a_bearer_key_and_says_the_header():
    schema = json_schema()
    scheme = schema["components"]["securitySchemes"]["bearerKey"]
    assert scheme["type"] == "http" and scheme["scheme"] == "bearer"
    assert scheme["bearerFormat"]
    assert scheme["description"].startswith("Send: `Authorization: Bearer <key>`")
    assert "/me/" in scheme["description"]
    assert "/api/docs/" not in schema["paths"]  # the page is not an operation
