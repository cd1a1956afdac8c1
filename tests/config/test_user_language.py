"""The site remembers the language a signed-in user uses it in (clubs.middleware.RememberLanguage)."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

pytestmark = pytest.mark.django_db


def test_the_language_a_user_reads_the_site_in_is_kept_on_his_account():
    user = get_user_model().objects.create_user(username="aigul", password="pw-for-tests-only")
    client = Client()
    client.force_login(user)
    client.get("/", HTTP_ACCEPT_LANGUAGE="kk")
    user.refresh_from_db()
    assert user.language == "kk"

    client.post("/i18n/setlang/", {"language": "uk", "next": "/"})  # he switches in the menu
    client.get("/")
    user.refresh_from_db()
    assert user.language == "uk"


def test_once_saved_it_is_not_written_again_on_every_page():
    user = get_user_model().objects.create_user(username="bolat", password="pw-for-tests-only")
    client = Client()
    client.force_login(user)
    client.get("/", HTTP_ACCEPT_LANGUAGE="ru")
    get_user_model().objects.filter(pk=user.pk).update(language="")  # changed behind its back
    client.get("/", HTTP_ACCEPT_LANGUAGE="ru")  # same session, same language: not looked at again
    user.refresh_from_db()
    assert user.language == ""


def test_visitors_who_are_not_signed_in_are_left_alone():
    assert Client().get("/", HTTP_ACCEPT_LANGUAGE="uk").status_code == 200
