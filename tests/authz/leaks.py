"""What no answer may hold for a person who may not see it: a card still in another player's hand,
a live table's secret shuffle seed, a match's PINs, an e-mail address, the private table or the
private archived match. The matrix scans every answer it gets with `leaks`."""

from __future__ import annotations

import re

from gameplay import services
from gameplay.engine.cards import card_to_str, mask_cards
from tests.authz.world import World

CARD_RE = re.compile(r"(?<![A-Za-z0-9])([6789TJQKA][CDHS])(?![A-Za-z0-9])")
EMAIL_RE = re.compile(rb"[\w.+-]+@example\.com")
#: The pages about a live table in play: the only ones where a card in notation is a card of its
#: deal (archived matches, the rules and the verifier show cards of their own).
LIVE_PAGES = ("gameplay:table@", "gameplay:invite@", "gameplay:state_json@", "gameplay:replay@",
              "gameplay:verify_table@", "gameplay:lobby", "tournaments:now_playing")
MANAGERS = ("organiser", "owner")


def _secret_cards(world: World, role: str, target: str) -> set[str]:
    """The unplayed cards a page about one table may not show the role: every hand there but his
    own. A list of tables (the lobby, "Now playing") shows no hand at all, his own included."""
    which = target.rpartition("@")[2]
    tables = {"private": [world.private_table], "public": [world.public_table]}.get(
        which, [world.private_table, world.public_table])
    cards = set()
    for table in tables:
        state = services.load_state(table)
        mine = services.seat_for(table, user=world.user(role), session_key="") if "@" in target else None
        for seat in range(4):
            if seat != mine:
                cards |= {card_to_str(c) for c in mask_cards(state.hands[seat])}
    return cards


def _device_link(text: str, at: int) -> bool:
    """Whether the path found at ``at`` is a tournament's table device (/t/<slug>/tables/<n>/…), a
    hall table's number, not a live table's id."""
    return re.search(r"/t/[-\w]+$", text[max(0, at - 120):at]) is not None


def leaks(world: World, role: str, target: str, body: bytes) -> list[str]:
    found = []
    text = body.decode("utf-8", errors="replace")
    if target.startswith(LIVE_PAGES):
        if shown := set(CARD_RE.findall(text)) & _secret_cards(world, role, target):
            found.append(f"cards of another hand: {sorted(shown)}")
    for table in (world.private_table, world.public_table):
        if table.shuffle_seed in text:
            found.append(f"the secret shuffle seed of table {table.pk}")
    if role not in MANAGERS and (world.match.home_pin in text or world.match.away_pin in text):
        found.append("a match's PIN")
    own = (world.user(role).email.encode() if world.user(role) else b"")
    if emails := {e.decode() for e in EMAIL_RE.findall(body) if e != own}:
        found.append(f"e-mail addresses {sorted(emails)}")
    if role != "seated":
        for path in (f"/tables/{world.private_table.pk}/", f"/archive/{world.private_archived.pk}/"):
            if any(not _device_link(text, at.start()) for at in re.finditer(re.escape(path), text)):
                found.append(f"a link to {path}")
    return found
