"""Text that people can read: every name and text people type is tidied here before it is kept.

Pure Python, no Django (the fields that apply it at every door are ``clubs.text_fields``). What a
person sees is what is kept; what no one can see is dropped:

- Unicode NFC, so "й" typed as "и" and a combining breve is the one letter it looks like.
- Characters no one sees are removed, not refused (phones and copy-paste bring them in without the
  writer knowing): control characters, every format character (zero-width space, joiners, the
  byte-order mark, soft hyphen, tags), the bidirectional embeddings, overrides, isolates and marks
  (an unclosed right-to-left override turned the rest of a page's line backwards), and Unicode's
  other default-ignorable characters (the Hangul fillers, variation selectors). Our writers use
  Cyrillic and Latin letters, which need no joiner; only prose (``text``) keeps a zero-width joiner
  or a variation selector inside an emoji sequence (a family, a flag, a coloured heart).
- Blank-looking characters (the braille blank, every Unicode space) are spaces; runs of spaces are
  one, and a name is one line.
- A letter carries at most ``MAX_MARKS`` combining marks: enough for any language, not for the
  stacked "zalgo" marks that spill over the lines above and below.

``has_letters`` says whether a tidied name can be read at all (a name of only fillers or blanks
tidies to nothing). ``name_key`` is what duplicate checks compare: two names whose keys are equal
look the same to a reader — they differ in case, in invisible characters, or in letters of
another script that look alike ("Aсель" with a Latin A beside "Асель"), by Unicode's confusable
skeletons (UTS #39) over ``clubs/unicode/confusables.txt``.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache
from pathlib import Path

MAX_MARKS = 4
"""Combining marks kept on one letter (Vietnamese stacks two; no language we know of needs five)."""

CONFUSABLES = Path(__file__).with_name("unicode") / "confusables.txt"

# Every character no reader sees, by Unicode 17.0.0 (DerivedGeneralCategory.txt and
# DerivedCoreProperties.txt): written out rather than read from Python's own tables, which are
# older (14.0) and slow to scan at start-up.
_INVISIBLE = (
    (0x0000, 0x001F),  # C0 controls (tabs and line breaks are turned into spaces first)
    (0x007F, 0x009F),  # DEL and C1 controls
    (0x00AD, 0x00AD),  # soft hyphen
    (0x034F, 0x034F),  # combining grapheme joiner
    (0x0600, 0x0605),  # Arabic prepended number marks
    (0x061C, 0x061C),  # Arabic letter mark (bidi)
    (0x06DD, 0x06DD),
    (0x070F, 0x070F),
    (0x0890, 0x0891),
    (0x08E2, 0x08E2),
    (0x115F, 0x1160),  # Hangul choseong and jungseong fillers
    (0x17B4, 0x17B5),  # Khmer inherent vowels
    (0x180B, 0x180F),  # Mongolian variation selectors and vowel separator
    (0x200B, 0x200F),  # zero-width space, non-joiner, joiner; left-to-right and right-to-left marks
    (0x202A, 0x202E),  # bidi embeddings, overrides and their pop
    (0x2060, 0x206F),  # word joiner, invisible operators, bidi isolates, deprecated format controls
    (0x3164, 0x3164),  # Hangul filler
    (0xD800, 0xDFFF),  # surrogates (a JSON body can carry a lone one; no database takes it)
    (0xFDD0, 0xFDEF),  # noncharacters
    (0xFE00, 0xFE0F),  # variation selectors
    (0xFEFF, 0xFEFF),  # byte-order mark, zero-width no-break space
    (0xFFA0, 0xFFA0),  # halfwidth Hangul filler
    (0xFFF0, 0xFFFB),  # reserved default-ignorables, interlinear annotation
    (0x110BD, 0x110BD),
    (0x110CD, 0x110CD),
    (0x13430, 0x1343F),  # Egyptian hieroglyph format controls
    (0x1BCA0, 0x1BCA3),  # shorthand format controls
    (0x1D173, 0x1D17A),  # musical format controls
    (0xE0000, 0xE0FFF),  # tags, variation selectors 17-256, reserved
    *((plane + 0xFFFE, plane + 0xFFFF) for plane in range(0, 0x110000, 0x10000)),  # noncharacters
)


_BEYOND_BMP = re.compile("[\U00010000-\U0010ffff]")


class _Chars:
    """Finds characters of ``ranges`` quickly: the regex engine looks a class of the first plane
    up at once, but searches a class reaching beyond it range by range, so the other planes (where
    few texts have a character at all) get a class of their own, tried only when needed."""

    def __init__(self, ranges) -> None:
        ranges = list(ranges)
        bmp = [(low, min(high, 0xFFFF)) for low, high in ranges if low <= 0xFFFF]
        astral = [(max(low, 0x10000), high) for low, high in ranges if high > 0xFFFF]
        self.bmp = re.compile(self._class(bmp))
        # each character of the first plane passes over the one-range look-ahead at once
        self.astral = re.compile("(?=[\\U00010000-\\U0010ffff])" + self._class(astral)) if astral else None
        self.any = re.compile(f"(?:{self._class(bmp)}|{self._class(astral)})" if astral else self._class(bmp))

    @staticmethod
    def _class(ranges) -> str:
        return "[" + "".join(f"\\U{low:08x}-\\U{high:08x}" for low, high in ranges) + "]"

    def _beyond_bmp(self, value: str) -> bool:
        return self.astral is not None and not value.isascii() and bool(_BEYOND_BMP.search(value))

    def found_in(self, value: str) -> bool:
        return bool(self.bmp.search(value) or (self._beyond_bmp(value) and self.astral.search(value)))

    def sub(self, repl, value: str) -> str:
        value = self.bmp.sub(repl, value)
        return self.astral.sub(repl, value) if self._beyond_bmp(value) else value


INVISIBLE = _Chars(_INVISIBLE)
"""All of them, so that long texts are cleaned at the regex engine's speed."""

_BLANKS = "\u2800"  # braille pattern blank: drawn as an empty cell
_ZWJ = "\u200d"
_VARIATION_SELECTORS = frozenset({"\ufe0e", "\ufe0f"})
_NEWLINES = re.compile(r"\r\n|[\r\n\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")
_MANY_BLANK_LINES = re.compile(r"\n{3,}")


def _is_symbol(ch: str) -> bool:
    """Part of an emoji: a symbol, a skin tone, a keycap's digit or sign."""
    return unicodedata.category(ch) in ("So", "Sk", "Sm", "Me", "Nd") or ch in "#*"


def _glue_or_nothing(found: re.Match[str]) -> str:
    """An invisible character of prose: kept when it holds an emoji sequence together (a variation
    selector after a symbol; a joiner between symbols), else removed."""
    ch, at, whole = found.group(), found.start(), found.string
    before = whole[at - 1] if at else ""
    if ch in _VARIATION_SELECTORS:
        return ch if before and _is_symbol(before) else ""
    if ch == _ZWJ and at + 1 < len(whole) and _is_symbol(whole[at + 1]):
        if before in _VARIATION_SELECTORS:  # kept only if the selector itself is
            before = whole[at - 2] if at > 1 else ""
        return ch if before and _is_symbol(before) else ""
    return ""


def _keep_emoji_glue(text: str) -> str:
    """Prose without invisible characters, but with the zero-width joiners and variation selectors
    that hold an emoji sequence together (between or after symbols, never beside a letter)."""
    return INVISIBLE.sub(_glue_or_nothing, text) if INVISIBLE.found_in(text) else text


@cache
def _marks() -> _Chars:
    """Every combining mark (all are in the first two planes; found once, in about 0.1 s)."""
    marks = [
        code
        for code in range(0x20000)
        if unicodedata.combining(chr(code)) or unicodedata.category(chr(code)) in ("Mn", "Me")
    ]
    ranges, first, last = [], marks[0], marks[0]
    for code in [*marks[1:], -1]:
        if code == last + 1:
            last = code
            continue
        ranges.append((first, last))
        first = last = code
    return _Chars(ranges)


@cache
def _mark_runs() -> re.Pattern[str]:
    return re.compile(f"(?:{_marks().any.pattern}){{{MAX_MARKS + 1},}}")


def _cap_marks(text: str) -> str:
    """At most ``MAX_MARKS`` combining marks in a row."""
    if text.isascii() or not _marks().found_in(text):
        return text
    return _mark_runs().sub(lambda run: run.group()[:MAX_MARKS], text)


def _tidy_row(value: str, strip) -> str:
    """One line: whitespace of every kind (tabs too) a space, the invisible removed by ``strip``,
    blanks spaces, NFC, marks capped, single spaces, none at either end."""
    value = strip(" ".join(value.split())).replace(_BLANKS, " ")
    return " ".join(_cap_marks(unicodedata.normalize("NFC", value)).split())


def _strip_invisible(value: str) -> str:
    return INVISIBLE.sub("", value)


def line(value: str | None) -> str:
    """A name or a title as it is kept: one line, nothing invisible, single spaces, NFC."""
    return _tidy_row(value or "", _strip_invisible)


def text(value: str | None) -> str:
    """Prose as it is kept (a description, a note): its lines, each tidied as ``line`` tidies a
    name except for emoji sequences, at most one empty line in a row, none at either end."""
    rows = _NEWLINES.sub("\n", value or "").split("\n")
    joined = "\n".join(_tidy_row(row, _keep_emoji_glue) for row in rows)
    return _MANY_BLANK_LINES.sub("\n\n", joined).strip("\n")


def has_letters(value: str) -> bool:
    """Whether a tidied name has something to read: a letter or a digit of any script."""
    return any(unicodedata.category(ch)[0] in "LN" for ch in value)


@cache
def _prototypes() -> dict[str, str]:
    """confusables.txt: each character that looks like another (or several) → its prototype."""
    table: dict[str, str] = {}
    with CONFUSABLES.open(encoding="utf-8-sig") as data:
        for row in data:
            fields = row.split("#", 1)[0].split(";")
            if len(fields) < 2 or not fields[0].strip():
                continue
            source = chr(int(fields[0], 16))
            table[source] = "".join(chr(int(code, 16)) for code in fields[1].split())
    return table


def skeleton(value: str) -> str:
    """UTS #39's skeleton: NFD, default-ignorable characters removed, each character replaced by
    its prototype, NFD again. Two strings with one skeleton are confusable."""
    prototypes = _prototypes()
    value = INVISIBLE.sub("", unicodedata.normalize("NFD", value))
    return unicodedata.normalize("NFD", "".join(prototypes.get(ch, ch) for ch in value))


KEY_LENGTH = 300
"""A stored key is cut here (a prototype may be several characters); names are far shorter."""


def name_keys(value: str) -> tuple[str, str]:
    """What duplicate checks compare: the skeletons of the tidied name in small letters and in
    capitals. Two names are one (``same_name``) when either key is equal: the small letters catch
    "Aсель" beside "Асель" and "гора" beside "ropa", the capitals "НОРА" beside "HOPA" (whose small
    letters "нора" and "hopa" do not look alike, though the names differ only in case)."""
    tidied = line(value)
    return skeleton(tidied.casefold())[:KEY_LENGTH], skeleton(tidied.upper())[:KEY_LENGTH]


def name_key(value: str) -> str:
    """The small letters' key of ``name_keys``: case, invisible characters and look-alike letters
    aside."""
    return name_keys(value)[0]


def same_name(a: str, b: str) -> bool:
    """Whether two names read the same to a reader: they differ only in case, spaces, invisible
    characters or letters of another script that look alike."""
    return any(x == y for x, y in zip(name_keys(a), name_keys(b), strict=True))
