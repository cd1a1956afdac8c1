"""Every page of the site in Russian, Kazakh and Ukrainian shows no English.

Each case of `cases.CASES` is requested on one realistic site (`scene.build_scene`) in each
language, and the visible text of the page it ends on (`visible.leaks`) must hold no Latin word
but names, card codes and the short allow-list. Every URL pattern needs a case or a reason to
be skipped, so a page added later is checked too.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from clubs.models import ApiToken

from .cases import CASES, LATER, SKIPPED
from .scene import build_scene
from .visible import leaks

LANGUAGES = ("ru", "kk", "uk")


def pattern_names(patterns=None, namespace: str = "") -> set[str]:
    """Every named URL pattern of the site, "namespace:name" as `reverse` takes it."""
    names: set[str] = set()
    for p in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(p, URLResolver):
            inner = namespace + (f"{p.namespace}:" if p.namespace else "")
            names |= pattern_names(p.url_patterns, inner)
        elif isinstance(p, URLPattern):
            names.add(namespace + (p.name or f"<unnamed {p.pattern}>"))
    return names


def skipped(name: str) -> bool:
    return name in SKIPPED or any(k.endswith("*") and name.startswith(k[:-1]) for k in SKIPPED)


def test_every_page_has_a_case():
    covered = {case.name for case in CASES}
    missing = sorted(n for n in pattern_names() if n not in covered and not skipped(n))
    assert not missing, "pages without a words case (add one to tests/words/cases.py): " + ", ".join(missing)


def test_every_case_names_a_page():
    unknown = sorted({c.name for c in CASES} - pattern_names() - LATER)
    assert not unknown, "cases of pages the site does not have: " + ", ".join(unknown)


def render(client: Client, case, scene) -> tuple[int, str]:
    path = case.path(scene)
    if case.post is None:
        response = client.get(path, follow=True)
    else:
        response = client.post(path, case.post(scene), follow=True)
    return response.status_code, response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_no_english_on_any_page(language):
    scene = build_scene()
    problems = []
    present = pattern_names()
    for case in (c for c in CASES if c.name in present):
        client = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE=language)
        if case.who:
            client.force_login(scene.user(case.who))
        status, html = render(client, case, scene)
        if status >= 500:
            problems.append(f"{case}: status {status}")
            continue
        # An API key's first characters are data the page shows, like a username.
        found = leaks(html, scene.names | set(ApiToken.objects.values_list("prefix", flat=True)))
        if found:
            problems.append(f"{case} [{status}]:\n    " + "\n    ".join(found))
    assert not problems, f"English on {language} pages:\n" + "\n".join(problems)
