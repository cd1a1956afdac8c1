"""The live table's words: a hand's size with its plural, and card ranks that agree with the
legend's mark of the jack (a Russian legend said "В♣" beside cards reading "J")."""

from django.utils import translation

from gameplay.texts import lobby_texts, table_texts


def test_hand_sizes_take_their_plural_in_each_language():
    with translation.override("en"):
        texts = table_texts()
        assert (texts["cards_1"], texts["cards_2"]) == ("1 card", "2 cards")
    with translation.override("ru"):
        texts = table_texts()
        assert [texts[f"cards_{n}"] for n in (1, 2, 5, 0)] == ["1 карта", "2 карты", "5 карт", "0 карт"]
    with translation.override("uk"):
        assert table_texts()["cards_3"] == "3 карти"


def test_the_cards_ranks_agree_with_the_jacks_mark():
    for language in ("en", "ru", "uk", "kk"):
        with translation.override(language):
            texts = table_texts()
            assert texts["jack_short"] == texts["rank_J"] + "♣", language
    with translation.override("ru"):
        texts = table_texts()
        assert [texts[f"rank_{r}"] for r in "JQKA"] == ["В", "Д", "К", "Т"]


def test_the_live_lobby_names_seats_and_bots_in_the_readers_language():
    """The lobby's live frames are one for every reader (made in whatever language the sending
    process had): the page names the seats and bots itself, from its own words."""
    with translation.override("en"):
        texts = lobby_texts()
        assert texts["bot_named"] % {"seat": texts["seat_E"]} == "Bot E"
    with translation.override("ru"):
        texts = lobby_texts()
        assert texts["bot_named"] % {"seat": texts["seat_E"]} == "Бот В"
