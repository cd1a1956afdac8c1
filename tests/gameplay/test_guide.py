"""The rules and help pages: public in every language with the game's own words, every house rule
of the open-a-table form explained on /rules/ where the form links it, and both linked from the
footer and the table."""

from __future__ import annotations

import re
from dataclasses import fields

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from gameplay import guide
from gameplay.engine.rules import Rules
from gameplay.models import Table

#: Words a reader must meet on /rules/ in his language: eyes, Lucy, eggs, on duty, redeal.
KEY_TERMS = {
    "en": ("eyes", "Lucy", "Eggs", "on duty", "redeal", "rout"),
    "ru": ("глаз", "Люся", "Яйца", "на обязанности", "пересдач", "разгром"),
    "uk": ("оч", "Люся", "Яйця", "на обов'язку", "перездач", "розгром"),
    "kk": ("көз", "Люся", "Жұмыртқа", "міндетті", "қайта тарату", "талқандау"),
}
HELP_TERMS = {
    "en": ("redeal question", "PIN", "bots"),
    "ru": ("пересдач", "PIN", "бот"),
    "uk": ("перездач", "PIN", "бот"),
    "kk": ("қайта тарату", "PIN", "бот"),
}


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("&#x27;", "'")


@pytest.mark.django_db
@pytest.mark.parametrize("language", sorted(KEY_TERMS))
def test_the_rules_page_speaks_the_games_words_in_every_language(language):
    page = Client(HTTP_ACCEPT_LANGUAGE=language).get("/rules/")
    assert page.status_code == 200
    text = text_of(page.content.decode())
    missing = [w for w in KEY_TERMS[language] if w.lower() not in text.lower()]
    assert not missing, f"/rules/ in {language} lacks {missing}"


@pytest.mark.django_db
@pytest.mark.parametrize("language", sorted(HELP_TERMS))
def test_the_help_page_answers_in_every_language(language):
    page = Client(HTTP_ACCEPT_LANGUAGE=language).get("/help/")
    assert page.status_code == 200
    html = page.content.decode()
    text = text_of(html)
    missing = [w for w in HELP_TERMS[language] if w.lower() not in text.lower()]
    assert not missing, f"/help/ in {language} lacks {missing}"
    assert 'href="/rules/"' in html


@pytest.mark.django_db
def test_every_house_rule_of_the_form_is_explained_where_the_form_links_it():
    rules_page = Client().get("/rules/").content.decode()
    form = Client().get(reverse("gameplay:create")).content.decode()
    for name in (f.name for f in fields(Rules)):
        assert f'id="rule-{name}"' in rules_page, f"/rules/ does not explain {name}"
        assert f'href="/rules/#rule-{name}"' in form, f"the form does not link {name} to /rules/"
        section = rules_page.split(f'id="rule-{name}"')[1].split("</section>")[0]
        assert str(escape(guide.RULE_GUIDE[name])) in section
    assert set(guide.RULE_GUIDE) == {f.name for f in fields(Rules)}, "an explanation of no parameter"


@pytest.mark.django_db
def test_the_rules_page_draws_the_jack_ladder_with_the_tables_cards():
    html = Client(HTTP_ACCEPT_LANGUAGE="en").get("/rules/").content.decode()
    ladder = html.split('class="guide-cards guide-ladder"')[1].split("</div>")[0]
    labels = re.findall(r'class="bt-card[^"]*" role="img" aria-label="([^"]+)"', ladder)
    assert labels == ["J clubs", "J spades", "J hearts", "J diamonds"]
    assert 'class="bt-card bt-red"' in ladder  # the red jacks in the table's red
    # in each trick of the examples the card that takes it is marked, as the rules say it wins
    winners = re.findall(r'class="bt-card[^"]* guide-win" role="img" aria-label="([^"]+)"', html)
    assert winners == ["7 clubs", "J clubs"]


@pytest.mark.django_db
def test_the_help_page_gives_the_redeal_questions_default_time():
    text = text_of(Client(HTTP_ACCEPT_LANGUAGE="en").get("/help/").content.decode())
    seconds = Table._meta.get_field("redeal_seconds").default
    assert f"You have {seconds} seconds to answer" in text


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/", "/tables/", "/archive/"])
def test_the_footer_links_the_rules_and_the_help(path):
    html = Client().get(path).content.decode()
    footer = html.split('<footer class="site-footer')[1]
    assert 'href="/rules/"' in footer and 'href="/help/"' in footer


@pytest.mark.django_db
def test_the_table_page_links_the_rules_and_the_help_and_carries_its_first_visit_note():
    table = Table.objects.create(rules=Rules(move_seconds=120).to_json(), redeal_seconds=20)
    html = Client(HTTP_ACCEPT_LANGUAGE="en").get(f"/tables/{table.pk}/").content.decode()
    guide_links = html.split('id="table-guide"')[1].split("</p>")[0]
    assert 'href="/rules/"' in guide_links and 'href="/help/"' in guide_links
    note = text_of(html.split('id="table-first-help"')[1].split("</aside>")[0])
    assert "You have 20 seconds to answer" in note and "each move has 120 seconds" in note


@pytest.mark.django_db
def test_the_pages_are_read_only():
    assert Client().post("/rules/").status_code == 405
    assert Client().post("/help/").status_code == 405
