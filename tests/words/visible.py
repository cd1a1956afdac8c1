"""What a reader sees of a page: its text nodes and visible attributes, and the English words in them.

Visible text is every text node outside <script>, <style>, <template> and <kbd> (a key cap),
plus the attributes a browser shows or reads aloud (title, placeholder, aria-label, alt, and the
value of a button input). A Latin word in it is English left on a Russian, Kazakh or Ukrainian
page, unless it is a name from the data (a username, an e-mail address, a web address), a card
code, or on the short list of words that stay the same in every language.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

#: Words that are the same on a page in any language: the site's name, formats of files, the
#: machine names a reader types or copies. Keep this list short; a word here is never checked.
ALLOWED = frozenset({
    "Bilka", "English",  # the site's name; the language menu names each language in itself
    "CSV", "JSON", "PDF", "A4", "PIN",  # formats and codes as printed on screens and paper
    "WhatsApp", "Telegram", "SMS",  # where an invitation link is sent
    "Elo", "TrueSkill", "OpenSkill", "ECE",  # rating systems and a measure, named on the ratings page
    "SHA",  # SHA-256, the hash a fair shuffle's fingerprint is made with
    "API",  # the site's programming interface, the word its docs and keys go by in every language
    "QR",  # a QR code ("QR-код") is called so in every language of the site
    "p", "Z",  # a statistic's letters (the p-value, the Z score), written so in every language
})  # fmt: skip
#: Phrases that are English on purpose: the examples of typing a name in Latin letters, and the
#: names of the dealing schemes and the record format (identifiers a verifier types as they are).
ALLOWED_PHRASES = ("«Nurlan»", "«Janar»", "«Nurlan A.»", "Nurlan…", "bilka-shuffle/1", "kozyol-shuffle/1",
                   "bilka-2-shuffle/1",
                   "bilka-record/1")

#: Not read for words: scripts and styles, and <kbd>, the name of a key as its cap prints it
#: (Shift, Page Up, Home: Latin on the keyboards of every language of the site).
#: <code> is machine text: an API key's random first characters.
HIDDEN_TAGS = frozenset({"script", "style", "template", "kbd", "code"})
VOID_TAGS = frozenset({
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr",
})  # fmt: skip
SHOWN_ATTRIBUTES = ("title", "placeholder", "aria-label", "alt")
BUTTON_INPUTS = frozenset({"submit", "button", "reset"})

EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
URL = re.compile(r"(?:https?|wss?)://\S+|(?<!\w)/[\w./?=&%-]*")
CARD = re.compile(r"^(?:[6-9]|10|[TJQKA])[CDHS]$")
TOKEN = re.compile(r"[A-Za-z0-9]+(?:['’][A-Za-z]+)*")
LATIN = re.compile(r"[A-Za-z]")
#: Seeds and fingerprints of a fair shuffle: long hex strings a reader copies, not words.
HEX = re.compile(r"^[0-9a-f]{16,}$")


class VisibleText(HTMLParser):
    """Collects (where, text) pieces: "text" for text nodes, the attribute's name for attributes."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.pieces: list[tuple[str, str]] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        if tag in HIDDEN_TAGS:
            self._hidden += 1
            return
        for name in SHOWN_ATTRIBUTES:
            if values.get(name):
                self.pieces.append((f"{tag}[{name}]", values[name]))
        if tag == "input" and values.get("type", "text") in BUTTON_INPUTS and values.get("value"):
            self.pieces.append(("input[value]", values["value"]))

    def handle_endtag(self, tag: str) -> None:
        if tag in HIDDEN_TAGS and self._hidden:
            self._hidden -= 1

    def handle_data(self, data: str) -> None:
        if not self._hidden and data.strip():
            self.pieces.append(("text", " ".join(data.split())))


def visible_pieces(html: str) -> list[tuple[str, str]]:
    parser = VisibleText()
    parser.feed(html)
    parser.close()
    return parser.pieces


def english_words(text: str, names: frozenset[str]) -> list[str]:
    """The Latin words of ``text`` that are neither names, addresses, card codes nor allowed."""
    for phrase in ALLOWED_PHRASES:
        text = text.replace(phrase, " ")
    text = URL.sub(" ", EMAIL.sub(" ", text))
    found = []
    for bare in TOKEN.findall(text):
        if not LATIN.search(bare):
            continue
        if bare in ALLOWED or bare in names or bare.lower() in names or CARD.match(bare) or HEX.match(bare):
            continue
        found.append(bare)
    return found


def leaks(html: str, names: frozenset[str]) -> list[str]:
    """Each visible piece of the page with English in it, as 'where: «text» (words)'."""
    out = []
    for where, text in visible_pieces(html):
        words = english_words(text, names)
        if words:
            out.append(f"{where}: «{text[:160]}» ({', '.join(dict.fromkeys(words))})")
    return list(dict.fromkeys(out))
