"""The text tidier alone (``clubs.text``): what a reader sees is kept, what no one sees is not, and
names that look the same have one key. Pure functions: no database."""

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from clubs import text

ZERO_WIDTH = "\u200b\u200c\u200d\u2060\ufeff"
BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"
FILLERS = "\u3164\uffa0\u115f\u1160"
BRAILLE_BLANK = "\u2800"


def test_invisible_only_names_tidy_to_nothing():
    for typed in (ZERO_WIDTH, "\u200b" * 40, "\u3164", "\u3164\u3164 \u3164", BRAILLE_BLANK * 3, BIDI):
        assert text.line(typed) == ""
        assert not text.has_letters(text.line(typed))


def test_control_characters_are_dropped_and_tabs_and_breaks_are_spaces():
    assert text.line("Асель\x00\x07\x1b[31m Жумабаева") == "Асель[31m Жумабаева"
    assert text.line("Нұрлан\tАхметов\r\nУспенка") == "Нұрлан Ахметов Успенка"


def test_an_unclosed_right_to_left_override_goes():
    assert text.line("\u202eАсель") == "Асель"
    assert text.line("Успенка\u202e, Павлодар") == "Успенка, Павлодар"
    assert text.text("Играем по пятницам\u202e\nв клубе \u2067Иртыш") == "Играем по пятницам\nв клубе Иртыш"


def test_a_lone_surrogate_from_a_json_body_goes():
    assert text.line("Асель\ud800") == "Асель"


def test_nfc_and_single_spaces():
    decomposed = "И\u0306ван  \u00a0Жума\u0301баев "
    assert text.line(decomposed) == unicodedata.normalize("NFC", "Йван Жума\u0301баев")


def test_stacked_marks_are_cut_to_a_readable_few():
    zalgo = "A" + "\u0301\u0300\u0302\u0303\u0304\u0306\u0307\u0308" * 5
    assert len(text.line(zalgo)) == 1 + text.MAX_MARKS


def test_prose_keeps_its_lines_and_emoji_sequences_but_not_stray_joiners():
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    heart = "\u2764\ufe0f"
    typed = f"Играем\u200b по пятницам {family} {heart}\r\n\r\n\r\n\r\nЗвоните:\u200d Асель\n\n"
    assert text.text(typed) == f"Играем по пятницам {family} {heart}\n\nЗвоните: Асель"


def test_names_that_differ_by_invisible_characters_or_case_are_one_name():
    assert text.name_keys("Alpha A1") == text.name_keys("Alpha A1\u200b") == text.name_keys("ALPHA\u2060 a1")
    assert text.same_name("Alpha A1", "alpha a1\u200b")
    assert not text.same_name("Alpha A1", "Alpha A2")


def test_names_that_look_alike_across_scripts_are_one_name():
    latin_a = "A\u0441\u0435\u043b\u044c"  # "Aсель": a Latin A, then Cyrillic
    assert latin_a != "Асель"
    assert text.name_key(latin_a) == text.name_key("Асель")
    assert text.same_name("Рора", "Popa")  # every letter Cyrillic, then every Latin
    assert text.same_name("НОРА", "hopa")  # "НОРА" and "HOPA" look alike; "нора" and "hopa" do not
    assert not text.same_name("Асель", "Әсел")
    assert not text.same_name("Aila", "Alla")  # a capital I looks like an l, a small i does not


def test_the_skeleton_follows_unicode_examples():
    # UTS #39's own example pair, and mathematical letters that read as plain ones
    assert text.skeleton("\u0440\u0430\u0443\u0440\u0430\u04cf") == text.skeleton("paypal")
    assert text.skeleton("\U0001d400lpha") == text.skeleton("Alpha")


# --- properties -------------------------------------------------------------------------------

CYRILLIC = "АБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯабвгдеёжзийклмнопрстуфхцчшщъыьэюя"
KAZAKH = "ӘәҒғҚқҢңӨөҰұҮүҺһІі"
UKRAINIAN = "ЄєІіЇїҐґ"
LATIN = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyzÇçŞşÖöÜüĞğİı"
WORD = st.text(alphabet=CYRILLIC + KAZAKH + UKRAINIAN + LATIN + "'’-", min_size=1, max_size=12).filter(
    lambda w: any(c.isalpha() for c in w)
)
NAMES = st.lists(WORD, min_size=1, max_size=4).map(" ".join)
INVISIBLE = st.sampled_from(ZERO_WIDTH + BIDI + FILLERS + "\x00\x01\x07\x1b\x7f\u00ad\u180e")
ANY_TEXT = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=()), max_size=60) | st.text(
    max_size=60
)


def _forbidden_in_a_name(ch: str) -> bool:
    return unicodedata.category(ch) in ("Cc", "Cf", "Cs") or ch in FILLERS + BRAILLE_BLANK + BIDI


@given(ANY_TEXT)
def test_tidying_twice_changes_nothing(value):
    assert text.line(text.line(value)) == text.line(value)
    assert text.text(text.text(value)) == text.text(value)
    assert text.name_keys(text.line(value)) == text.name_keys(value)


@given(ANY_TEXT)
def test_a_tidied_name_has_no_control_format_or_bidi_character(value):
    tidied = text.line(value)
    assert not any(_forbidden_in_a_name(ch) for ch in tidied)
    assert tidied == tidied.strip() and "  " not in tidied and "\n" not in tidied
    assert unicodedata.is_normalized("NFC", tidied)


@given(ANY_TEXT)
def test_tidied_prose_has_no_control_or_bidi_character_and_joins_only_symbols(value):
    tidied = text.text(value)
    for i, ch in enumerate(tidied):
        if ch == "\n":
            continue
        if ch == "\u200d":  # an emoji sequence's joiner: never beside a letter
            assert not tidied[i - 1].isalpha() and not tidied[i + 1].isalpha()
            continue
        assert unicodedata.category(ch) not in ("Cc", "Cs") and ch not in BIDI
        assert not (unicodedata.category(ch) == "Cf")


@given(NAMES)
def test_ordinary_names_are_kept_as_typed(name):
    assert text.line(name) == unicodedata.normalize("NFC", name)
    assert text.has_letters(text.line(name))


@given(NAMES, st.lists(st.tuples(st.integers(min_value=0), INVISIBLE), max_size=6))
def test_invisible_characters_inside_a_name_change_neither_it_nor_its_key(name, inserts):
    typed = name
    for at, ch in inserts:
        at %= len(typed) + 1
        typed = typed[:at] + ch + typed[at:]
    assert text.line(typed) == text.line(name)
    assert text.name_keys(typed) == text.name_keys(name)


@given(NAMES)
def test_a_name_with_look_alike_latin_letters_is_the_cyrillic_name(name):
    look_alikes = str.maketrans("АВЕКМНОРСТХаеорсух", "ABEKMHOPCTXaeopcyx")
    assert text.same_name(name.translate(look_alikes), name)
