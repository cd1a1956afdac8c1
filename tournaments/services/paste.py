"""Lists pasted by an organiser: "Name A & Name B" pairs or one name a line, matched to the club's roster.

A numbered list keeps the names without their numbers ("1. Марат Бектуров", "2) Иван", "3 - Олег").
"""

from __future__ import annotations

import re
from collections import defaultdict

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from clubs import services as club_services
from clubs.models import Club, ClubPlayer, Player
from clubs.text import line, name_keys
from clubs.text_fields import NAME_LENGTH
from clubs.translit import search_key

PAIR_SEPARATORS = re.compile(r"\s*(?:&|\+|/|;|\s[иіі]\s|\sжәне\s|\sand\s)\s*", re.IGNORECASE)


def parse_pair_lines(text: str) -> list[tuple[int, str, str]]:
    """Pasted lines "Name A & Name B" → (line number, name A, name B); raises for a line without two
    names."""
    pairs, errors = [], []
    for number, raw in enumerate((text or "").splitlines(), start=1):
        tidied = line(club_services.without_list_number(raw))
        if not tidied:
            continue
        parts = [p.strip(" ,") for p in PAIR_SEPARATORS.split(tidied) if p.strip(" ,")]
        if len(parts) != 2:
            errors.append(
                _("Line %(n)d: write two names joined by “&”, e.g. “Нурлан Ахметов & Асель Жумабаева”.")
                % {"n": number}
            )
            continue
        pairs.append((number, parts[0][:NAME_LENGTH], parts[1][:NAME_LENGTH]))
    if errors:
        raise ValidationError(errors)
    if not pairs:
        raise ValidationError(_("Paste at least one pair, one per line."))
    return pairs


def parse_name_lines(text: str) -> list[tuple[int, str]]:
    """Pasted lines of one name each → (line number, name); raises when there is none."""
    lines = enumerate((text or "").splitlines(), 1)
    names = [(n, line(club_services.without_list_number(raw))[:NAME_LENGTH].strip()) for n, raw in lines]
    names = [(n, name) for n, name in names if name]
    if not names:
        raise ValidationError(_("Paste at least one name, one per line."))
    return names


def line_error(number: int, error: ValidationError) -> str:
    return _("Line %(n)d: %(error)s") % {"n": number, "error": " ".join(error.messages)}


class RosterNames:
    """The club's active roster, to find the players of a pasted list by name."""

    def __init__(self, club: Club) -> None:
        self.club = club
        self.exact: dict[tuple[int, str], Player] = {}  # by either of the name's keys
        self.by_key: dict[str, list[Player]] = defaultdict(list)
        for row in ClubPlayer.objects.filter(club=club, active=True).select_related("player"):
            # "As written": the same to a reader (case, invisible characters, look-alike letters).
            self._remember(row.player.display_name, row.player)
            self.by_key[search_key(row.player.display_name)].append(row.player)

    def _remember(self, name: str, player: Player) -> None:
        for key in enumerate(name_keys(name)):
            self.exact.setdefault(key, player)

    def find(self, *, number: int, name: str, errors: list) -> tuple[Player | None, bool]:
        """The name as written first; else the one roster player whose key matches (any alphabet).
        Returns (player, False) when found, (None, True) for a name the roster does not have, and
        (None, False) with the line's error added to ``errors`` when it could be several players."""
        player = next((self.exact[k] for k in enumerate(name_keys(name)) if k in self.exact), None)
        if player is not None:
            return player, False
        similar = self.by_key.get(search_key(name), [])
        if len(similar) > 1:
            errors.append(
                _("Line %(n)d: “%(name)s” could be %(who)s; write the name as it is on the roster.")
                % {"n": number, "name": name, "who": ", ".join(p.display_name for p in similar)}
            )
            return None, False
        return (similar[0], False) if similar else (None, True)

    def add(self, *, actor, number: int, name: str, errors: list) -> Player | None:
        """A new roster player of that name (None, with the line's error, for a name it refuses)."""
        try:
            player = club_services.add_player(actor=actor, club=self.club, display_name=name).player
        except ValidationError as error:  # a name with nothing to read, say
            errors.append(line_error(number, error))
            return None
        self._remember(name, player)
        return player

    def find_or_add(self, *, actor, number: int, name: str, errors: list) -> tuple[Player | None, bool]:
        """``find``, else a new roster player. Returns (player, whether new); (None, False) with
        the line's error added to ``errors`` when the name could be several roster players."""
        player, unknown = self.find(number=number, name=name, errors=errors)
        if not unknown:
            return player, False
        player = self.add(actor=actor, number=number, name=name, errors=errors)
        return player, player is not None
