"""The menu links to the signed-in user's notices and shows how many are unread."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import translation

from tournaments.models import Notification

pytestmark = pytest.mark.django_db


def _signed_in(username: str) -> tuple[Client, object]:
    user = get_user_model().objects.create_user(username=username, password="pw-for-tests-only")
    client = Client()
    client.force_login(user)
    return client, user


def test_the_menu_counts_unread_notices_until_the_page_is_opened():
    client, user = _signed_in("asel")
    Notification.objects.create(user=user, text="Round 2 starts at 18:00")
    Notification.objects.create(user=user, text="Your table is ready")
    other, _ = _signed_in("oleh")

    page = client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'href="/me/notifications/"' in page and "2 new" in page
    assert "2 new" not in other.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()  # his own count only

    notices = client.get("/me/notifications/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Round 2 starts at 18:00" in notices
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'href="/me/notifications/"' in page and " new</span>" not in page


def test_the_count_is_translated_with_plural_forms():
    client, user = _signed_in("ivan")
    for i in range(5):
        Notification.objects.create(user=user, text=f"notice {i}")
    with translation.override("ru"):
        page = client.get("/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "5 новых" in page


def test_no_link_for_a_visitor_who_is_not_signed_in():
    assert 'href="/me/notifications/"' not in Client().get("/").content.decode()
