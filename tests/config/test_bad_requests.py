"""A request the site cannot read is never a server error, even behind the CSRF check, which
reads every form before the view does; where Django refuses it outright, the 400 page says so in
the reader's language."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

TOKEN = "csrfcsrfcsrfcsrfcsrfcsrfcsrfcsrf"
PATHS = ["/tables/verify/", "/accounts/login/", "/i18n/setlang/"]


def _post(path: str, body: bytes, content_type: str):
    """As a browser posts: the CSRF check on, its cookie and header sent, reading Russian."""
    client = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE="ru", raise_request_exception=False)
    client.cookies["csrftoken"] = TOKEN
    return client.generic("POST", path, body, content_type=content_type, HTTP_X_CSRFTOKEN=TOKEN)


@pytest.mark.parametrize("path", PATHS)
def test_a_urlencoded_form_in_another_charset_is_the_400_page(path):
    """Django refuses such a form on every read: in the CSRF check, then again in its own 400 page
    (which checks the token first), then in its 500 page, so the exception reached the server."""
    response = _post(path, "record=жж".encode(), "application/x-www-form-urlencoded; charset=utf-16")
    assert response.status_code == 400
    page = response.content.decode()
    assert "Сайт не смог прочитать этот запрос" in page and 'lang="ru"' in page


@pytest.mark.parametrize(
    ("body", "content_type"),
    [
        (b"--x\r\nContent-Dis", "multipart/form-data; boundary=x"),
        (b"--x\r\n\r\n", "multipart/form-data"),
        (b"a=1&" * 1100, "application/x-www-form-urlencoded"),  # over DATA_UPLOAD_MAX_NUMBER_FIELDS
        (b"a=" + b"x" * 3_000_000, "application/x-www-form-urlencoded"),  # over DATA_UPLOAD_MAX_MEMORY_SIZE
        (b"a=%C3%A9", "application/x-www-form-urlencoded; charset=x-no-such-charset"),
    ],
    ids=["multipart that does not end", "multipart without a boundary", "too many fields", "too large",
         "a charset that is not one"],
)
@pytest.mark.parametrize("path", PATHS)
def test_other_unreadable_forms_are_no_server_error(path, body, content_type):
    assert _post(path, body, content_type).status_code < 500
