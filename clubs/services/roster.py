"""A club's roster: registering players one by one or from a pasted list, taking them off and back."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from ..models import Club, ClubPlayer, Player
from ..text import has_letters, line, name_keys, same_name
from ..text_fields import NAME_LENGTH, NO_LETTERS
from ..translit import search_key
from .common import audit, clean_city, clean_name, player_state, require_roster_manager, without_list_number

BULK_LIMIT = 300  # a village championship is dozens of players; thousands is a mistake


@transaction.atomic
def add_player(*, actor, club: Club, display_name: str, city: str = "") -> ClubPlayer:
    """An owner or organiser registers a player (usually one without an account) on the roster."""
    require_roster_manager(actor, club)
    name = clean_name(display_name)
    city = clean_city(city)
    on_roster = [e.player for e in ClubPlayer.objects.filter(club=club, active=True).select_related("player")]
    twin = next((p for p in on_roster if _looks_the_same(name, city, p)), None)
    if twin is not None:
        raise ValidationError(
            _(
                "%(name)s is already on the roster. If this is another person, add the village or"
                " something else that tells them apart."
            )
            % {"name": str(twin)}
        )
    player = Player.objects.create(display_name=name, city=city, created_by=actor)
    entry = ClubPlayer.objects.create(club=club, player=player, added_as=name, added_by=actor)
    audit(actor=actor, action="roster.add", obj=entry, club=club, after=player_state(player))
    return entry


@transaction.atomic
def add_to_roster(*, actor, club: Club, player: Player) -> ClubPlayer:
    """Put an existing player (say, a member with an account) on the roster; no-op if already there."""
    require_roster_manager(actor, club)
    player = Player.objects.get(pk=player.pk)  # the caller's copy may predate a rename
    if player.merged_into_id is not None:
        raise ValidationError(_("This record was merged into another one."))
    entry = ClubPlayer.objects.filter(club=club, player=player, active=True).first()
    if entry is not None:
        return entry
    entry = ClubPlayer.objects.create(club=club, player=player, added_as=player.display_name, added_by=actor)
    audit(actor=actor, action="roster.add_existing", obj=entry, club=club, after=player_state(player))
    return entry


@dataclass
class BulkAddResult:
    created: list[ClubPlayer] = field(default_factory=list)
    duplicates: list[tuple[str, Player]] = field(default_factory=list)  # (line as typed, player on roster)
    repeated: list[str] = field(default_factory=list)  # lines repeated inside the pasted list
    blank_lines: int = 0


def parse_player_lines(text: str) -> tuple[list[tuple[str, str]], int]:
    """Split pasted text into (name, city) pairs: one per line, an optional ", city" after the name;
    a numbered list's numbers ("1.", "2)", "3 -") are not part of the name. Each is tidied as every
    name is (``clubs.text``): a line of only invisible characters is a blank line; a name with
    nothing to read (only symbols) refuses the paste, by line number."""
    rows, blanks, unreadable = [], 0, []
    for number, raw in enumerate((text or "").splitlines(), start=1):
        tidied = line(without_list_number(raw))
        if not tidied:
            blanks += 1
            continue
        name, _sep, city = tidied.partition(",")
        name, city = name.strip()[:NAME_LENGTH].strip(), city.strip()[:NAME_LENGTH].strip()
        if not name:
            blanks += 1
            continue
        if not has_letters(name) or (city and not has_letters(city)):
            unreadable.append(number)
            continue
        rows.append((name, city))
    if unreadable:
        raise ValidationError(
            [_("Line %(n)d: %(error)s") % {"n": n, "error": NO_LETTERS} for n in unreadable]
        )
    return rows, blanks


def _same_words(a: str, b: str) -> bool:
    """Two names (or villages) are one when they read the same (``name_key``: case, invisible
    characters and look-alike letters of another script aside) or spell the same sounds in
    another alphabet (``search_key``: "Жанар", "Zhanar", "Janar")."""
    return same_name(a, b) or search_key(a) == search_key(b)


def _looks_the_same(name: str, city: str, player: Player) -> bool:
    """A single addition is refused only for a name that reads the same; another spelling of
    the same sounds may be another person, and the organiser typed it on purpose."""
    if not same_name(player.display_name, name):
        return False
    return not city or not player.city or same_name(city, player.city)


def _same_person(name: str, city: str, player: Player) -> bool:
    if not _same_words(player.display_name, name):
        return False
    # Two "Нурлан"s from different villages are two people; a missing city matches any.
    return not city or not player.city or _same_words(city, player.city)


@transaction.atomic
def bulk_add_players(*, actor, club: Club, text: str) -> BulkAddResult:
    """Paste a list of names; players already on the roster are reported, not created twice."""
    require_roster_manager(actor, club)
    rows, blanks = parse_player_lines(text)
    if len(rows) > BULK_LIMIT:
        raise ValidationError(
            _("At most %(limit)d players at a time, please; this list has %(count)d.")
            % {"limit": BULK_LIMIT, "count": len(rows)}
        )
    result = BulkAddResult(blank_lines=blanks)
    on_roster = [e.player for e in ClubPlayer.objects.filter(club=club, active=True).select_related("player")]
    seen: set[tuple[str, str, str]] = set()
    for name, city in rows:
        small, capitals = zip(name_keys(name), name_keys(city), strict=True)
        keys = {("sounds", search_key(name), search_key(city)), ("small", *small), ("capitals", *capitals)}
        if keys & seen:
            result.repeated.append(name if not city else f"{name}, {city}")
            continue
        seen |= keys
        twin = next((p for p in on_roster if _same_person(name, city, p)), None)
        if twin is not None:
            result.duplicates.append((name if not city else f"{name}, {city}", twin))
            continue
        player = Player.objects.create(display_name=name, city=city, created_by=actor)
        result.created.append(
            ClubPlayer.objects.create(club=club, player=player, added_as=name, added_by=actor)
        )
    audit(
        actor=actor,
        action="roster.bulk_add",
        obj=club,
        club=club,
        after={
            "created": [player_state(e.player) for e in result.created],
            "duplicates": [{"line": line, "player_id": p.pk} for line, p in result.duplicates],
            "repeated": result.repeated,
        },
    )
    return result


@transaction.atomic
def set_roster_active(*, actor, club: Club, entry: ClubPlayer, active: bool) -> ClubPlayer:
    """Take a player off the roster (the row stays, marked inactive) or put them back."""
    require_roster_manager(actor, club)
    entry = ClubPlayer.objects.select_for_update().get(pk=entry.pk, club=club)
    if entry.active == active:
        return entry
    if active and ClubPlayer.objects.filter(club=club, player=entry.player_id, active=True).exists():
        return entry
    entry.active = active
    entry.save(update_fields=["active"])
    audit(
        actor=actor,
        action="roster.activate" if active else "roster.deactivate",
        obj=entry,
        club=club,
        before={"active": not active},
        after={"active": active},
    )
    return entry
