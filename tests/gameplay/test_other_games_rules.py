"""The rules pages of Kozyol khvalyony (/rules/kozyol/) and Bilka for two (/rules/bilka-2/), after
docs/other-games.md: public in every language with the games' own words, the trump order drawn with
the table's cards, every house rule the engine knows listed with its default, and both linked from
Bilka's rules page."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from gameplay.engine import games
from tests.gameplay.test_guide import text_of

#: Words a reader must meet on each page in his language.
KOZYOL_TERMS = {
    "en": ("Kozyol khvalyony", "shamok", "shamka", "diamonds are always the trump suit", "4 eyes",
           "ace of diamonds"),
    "ru": ("Козла хвалёного", "шамок", "шамка", "всегда бубны", "4 глаза", "туз бубен"),
    "uk": ("Козла хваленого", "шамок", "шамка", "завжди бубни", "4 ока", "туз бубнів"),
    "kk": ("Хвалёный козёл", "шамок", "шамка", "әрқашан қиық", "4 көз", "қиық тұзы"),
}
BILKA2_TERMS = {
    "en": ("Bilka for two", "stock", "clubs", "last card played in the deal before", "1 eye", "no redeal"),
    "ru": ("Белки на двоих", "прикуп", "трефы", "последней карты, сыгранной в предыдущей раздаче", "1 глаз",
           "Пересдачи нет"),
    "uk": ("Білки на двох", "прикуп", "хрести", "останньої карти, зіграної в попередній роздачі", "1 око",
           "Перездачі немає"),
    "kk": ("Екі адамдық Белка", "прикуп", "шыбын", "алдыңғы таратуда ойналған соңғы картаның", "1 көз",
           "Қайта тарату жоқ"),
}
PAGES = {"/rules/kozyol/": KOZYOL_TERMS, "/rules/bilka-2/": BILKA2_TERMS}


def ladders(html: str) -> list[list[str]]:
    """The card rows drawn as trump ladders, each as the cards' labels (rank and suit)."""
    return [
        re.findall(r'class="bt-card[^"]*" role="img" aria-label="([^"]+)"', part.split("</div>")[0])
        for part in html.split('class="guide-cards guide-ladder"')[1:]
    ]


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "ru", "uk", "kk"])
@pytest.mark.parametrize("path", sorted(PAGES))
def test_each_page_speaks_its_games_words_in_every_language(path, language):
    page = Client(HTTP_ACCEPT_LANGUAGE=language).get(path)
    assert page.status_code == 200
    assert page.headers["Content-Language"] == language
    text = text_of(page.content.decode())
    missing = [w for w in PAGES[path][language] if w.lower() not in text.lower()]
    assert not missing, f"{path} in {language} lacks {missing}"


@pytest.mark.django_db
def test_kozyol_draws_its_trump_order_six_queens_jacks_then_diamonds():
    html = Client(HTTP_ACCEPT_LANGUAGE="en").get("/rules/kozyol/").content.decode()
    permanent, diamonds = ladders(html)
    assert permanent == ["6 clubs", "Q clubs", "Q spades", "Q hearts", "Q diamonds",
                         "J clubs", "J spades", "J hearts", "J diamonds"]
    assert diamonds == ["A diamonds", "10 diamonds", "K diamonds", "9 diamonds", "8 diamonds",
                        "7 diamonds", "6 diamonds"]  # the ten above the king, no queen or jack
    # in the catch and the worked deal the card that takes each trick is the one marked
    winners = re.findall(r'class="bt-card[^"]* guide-win" role="img" aria-label="([^"]+)"', html)
    assert winners == ["6 clubs", "Q clubs", "6 clubs"]


@pytest.mark.django_db
def test_bilka_for_two_draws_the_jacks_then_the_first_deals_clubs():
    html = Client(HTTP_ACCEPT_LANGUAGE="en").get("/rules/bilka-2/").content.decode()
    jacks, clubs = ladders(html)
    assert jacks == ["J clubs", "J spades", "J hearts", "J diamonds"]
    assert clubs == ["A clubs", "10 clubs", "K clubs", "Q clubs", "9 clubs", "8 clubs", "7 clubs"]


def _house_rules(html: str) -> dict[str, str]:
    table = html.split('id="house-rules"')[1].split("</table>")[0]
    row = r"<tr><td><code>([a-z_0-9]+)</code></td><td>.*?</td><td><code>([^<]+)</code></td></tr>"
    return dict(re.findall(row, table))


@pytest.mark.django_db
@pytest.mark.parametrize(("path", "game"), [("/rules/kozyol/", "kozyol"), ("/rules/bilka-2/", "bilka-2")])
def test_every_house_rule_of_the_engine_is_listed_with_its_default(path, game):
    listed = _house_rules(Client().get(path).content.decode())
    engine = {p.name: str(p.default).lower() for p in games.parameters(game)}
    assert listed == engine


@pytest.mark.django_db
def test_bilkas_rules_page_links_both_and_they_link_back():
    html = Client(HTTP_ACCEPT_LANGUAGE="en").get("/rules/").content.decode()
    other = html.split('id="other-games"')[1].split("</section>")[0]
    assert 'href="/rules/kozyol/"' in other and 'href="/rules/bilka-2/"' in other
    for path in PAGES:
        assert 'href="/rules/"' in Client().get(path).content.decode()


@pytest.mark.django_db
def test_the_pages_are_read_only():
    assert Client().post("/rules/kozyol/").status_code == 405
    assert Client().post("/rules/bilka-2/").status_code == 405
