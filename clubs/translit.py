"""Turn a name typed in Cyrillic (Russian, Kazakh, Ukrainian) or Latin letters into one Latin search key.

Pure Python, no Django: a player entered as "Нұрлан" must be found by someone typing "Nurlan",
and "Жанар", "Zhanar" and "Janar" must meet. The key is deliberately lossy (it merges spellings
people actually use for the same name); it is only ever compared with another key.
"""

from __future__ import annotations

import re
import unicodedata

# Cyrillic letters (Russian, Kazakh, Ukrainian) to a plain, readable Latin spelling.
CYRILLIC_TO_LATIN: dict[str, str] = {
    "а": "a",
    "б": "b",
    "в": "v",
    "г": "g",
    "д": "d",
    "е": "e",
    "ё": "yo",
    "ж": "zh",
    "з": "z",
    "и": "i",
    "й": "y",
    "к": "k",
    "л": "l",
    "м": "m",
    "н": "n",
    "о": "o",
    "п": "p",
    "р": "r",
    "с": "s",
    "т": "t",
    "у": "u",
    "ф": "f",
    "х": "kh",
    "ц": "ts",
    "ч": "ch",
    "ш": "sh",
    "щ": "shch",
    "ъ": "",
    "ы": "y",
    "ь": "",
    "э": "e",
    "ю": "yu",
    "я": "ya",
    # Kazakh
    "ә": "a",
    "ғ": "g",
    "қ": "q",
    "ң": "n",
    "ө": "o",
    "ұ": "u",
    "ү": "u",
    "һ": "h",
    "і": "i",
    # Ukrainian (і is shared with Kazakh)
    "ї": "yi",
    "є": "ye",
    "ґ": "g",
}

# Latin letters that NFKD would not reduce to ASCII, or reduce wrongly for our purposes
# (Kazakh Latin alphabets of 2017-2021, Turkish-style letters).
LATIN_SPECIALS: dict[str, str] = {
    "ş": "sh",
    "ç": "ch",
    "ı": "i",
    "ə": "a",
    "ß": "ss",
    "æ": "ae",
    "ø": "o",
    "đ": "d",
    "ł": "l",
}

_APOSTROPHES = "'’ʼ`´‘"
_NON_KEY = re.compile(r"[^a-z0-9]+")
_REPEATS = re.compile(r"([a-z0-9])\1+")
# "i" that only marks iotation at the start of a word, before a vowel
# ("Yerlan" -> "erlan" like "Ерлан"; "Юрий"/"Yuriy"/"Iurii" -> "uri").
_IOTATION = re.compile(r"(?<![^ ])i(?=[aeou])")
_LONE_H = re.compile(r"(?<![sc])h")

# Applied in order; each maps variant spellings of one sound onto one spelling.
_VARIANTS: tuple[tuple[str, str], ...] = (
    ("shch", "sh"),
    ("sch", "sh"),
    ("kh", "h"),
    ("zh", "j"),
    ("dj", "j"),
    ("x", "ks"),
    ("q", "k"),
    ("w", "v"),
    ("y", "i"),
)


def to_latin(text: str) -> str:
    """A readable Latin spelling of ``text`` (for slugs); keeps case of the first letter only loosely."""
    text = unicodedata.normalize("NFC", text)
    out = []
    for ch in text:
        low = ch.lower()
        latin = CYRILLIC_TO_LATIN.get(low)
        if latin is None:
            latin = LATIN_SPECIALS.get(low)
        if latin is None:
            out.append(ch)
        else:
            out.append(latin.capitalize() if ch != low else latin)
    decomposed = unicodedata.normalize("NFKD", "".join(out))
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _latin_stage(text: str) -> str:
    for old, new in _VARIANTS:
        text = text.replace(old, new)
    text = _LONE_H.sub("g", text)  # Ukrainian "Oleh" = Russian "Oleg"; "Khasen" = "Hasen" = "Гасен"
    text = _REPEATS.sub(r"\1", text)
    text = _IOTATION.sub("", text)
    return _REPEATS.sub(r"\1", text)


def search_key(text: str) -> str:
    """The normalised Latin key of ``text``: lowercase ASCII letters, digits and single spaces.

    Both the stored name and the typed query go through this function, so only the classes of
    spellings it merges matter, not the exact letters it picks.
    """
    text = unicodedata.normalize("NFC", text).casefold()
    for ch in _APOSTROPHES:
        text = text.replace(ch, "")
    text = to_latin(text).lower()
    text = _NON_KEY.sub(" ", text).strip()
    # Run the variant rules to a fixed point so that search_key(search_key(x)) == search_key(x).
    for _ in range(8):
        new = _latin_stage(text)
        if new == text:
            break
        text = new
    return text
