"""Error pages are the site's own, in the visitor's language, and fit the site (DEBUG is off in tests)."""

import pytest
from django.test import Client, RequestFactory
from django.utils import translation
from django.views.defaults import server_error

pytestmark = pytest.mark.django_db


def test_a_missing_page_is_the_sites_own_404_in_the_visitors_language():
    response = Client().get("/no-such-page/", HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 404
    page = response.content.decode()
    assert "Страница не найдена" in page and 'href="/tables/"' in page and 'class="site-header"' in page


def test_a_refusal_shows_its_reason_on_the_sites_own_403():
    client = Client()
    response = client.get("/no-such-page/", HTTP_ACCEPT_LANGUAGE="en")
    assert "There is no page at this address" in response.content.decode()
    from django.contrib.auth import get_user_model

    from tests.clubs.factories import ClubFactory

    club = ClubFactory()
    stranger = get_user_model().objects.create_user(username="stranger", password="pw-for-tests-only")
    client.force_login(stranger)
    response = client.get(f"/clubs/{club.slug}/edit/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 403
    page = response.content.decode()
    assert "Not allowed" in page and 'class="site-header"' in page


def test_the_500_page_needs_neither_database_nor_request_context():
    with translation.override("uk"):
        response = server_error(RequestFactory().get("/"))
    assert response.status_code == 500
    assert "Щось пішло не так" in response.content.decode()
