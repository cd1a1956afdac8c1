"""The Content-Security-Policy allows no inline script or style attribute; no template may need one.

The browser test (tests/e2e/test_csp.py) visits the main pages; this scan covers every template and
script, including pages it does not open (the printable sheets' "Print" button).
"""

import re
from pathlib import Path

import pytest
from django.conf import settings

TEMPLATES = sorted((Path(settings.BASE_DIR) / "templates").rglob("*.html"))
SCRIPTS = sorted((Path(settings.BASE_DIR) / "static").rglob("*.js"))
HANDLER = re.compile(r"<[^>]*\son[a-z]+\s*=", re.IGNORECASE)
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.IGNORECASE)
STYLE_ATTR = re.compile(r"<[^>]*\sstyle\s*=", re.IGNORECASE)


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: str(p.relative_to(settings.BASE_DIR)))
def test_template_has_no_inline_script_handler_or_style(path):
    text = path.read_text(encoding="utf-8")
    assert not HANDLER.search(text), "inline event handler: the CSP blocks it; listen from a static file"
    assert not INLINE_SCRIPT.search(text), "inline <script>: the CSP blocks it; use a static file"
    assert not STYLE_ATTR.search(text), "style attribute: the CSP blocks it; use a class"


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: str(p.relative_to(settings.BASE_DIR)))
def test_script_writes_no_style_attribute_into_markup(path):
    assert not STYLE_ATTR.search(path.read_text(encoding="utf-8"))


@pytest.mark.django_db
def test_pages_carry_the_policy(client):
    policy = client.get("/")["Content-Security-Policy"]
    assert "script-src 'self'" in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    assert "object-src 'none'" in policy
