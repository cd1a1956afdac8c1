"""Pairs entered from a pasted list ("Name A & Name B" a line): the roster's names matched in any
alphabet, new names added to the roster only for the lines entered, one audit row for the paste.
The checks each pair passes are the entries' own (``services.entries``)."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.db import transaction

from clubs.models import Player

from ..models import Entry, EntryStatus, Tournament
from .common import audit, lock_tournament, require_manager
from .entries import check_can_enter, entry_state, new_entry, taken_players, taken_refusal
from .paste import RosterNames, line_error, parse_pair_lines


@dataclass
class BulkEntries:
    entries: list[Entry]
    new_players: list[Player]
    skipped: list[str] = field(default_factory=list)
    """A message for each line left out: a player repeated in the list, or already entered."""


@transaction.atomic
def register_entries_bulk(*, actor, tournament: Tournament, text: str) -> BulkEntries:
    """Paste "Name A & Name B" lines. Names on the club's roster are matched in any alphabet;
    other names become new roster players. A line with a player already entered (earlier in the list,
    or before) is reported by line and the rest entered, as the roster's paste does; any other bad
    line refuses the whole paste."""
    tournament = lock_tournament(tournament)
    require_manager(actor, tournament)
    lines = parse_pair_lines(text)
    roster = RosterNames(tournament.club)
    taken = taken_players(tournament)
    result = BulkEntries([], [])
    errors: list[str] = []
    for number, name_a, name_b in lines:
        found = _found(roster, number, (name_a, name_b), errors)
        if found is None:
            continue
        known = [p for _name, p in found if p is not None]
        repeated = [refusal for refusal in (taken_refusal(p, taken) for p in known) if refusal]
        if repeated:  # a line left out adds no one to the roster
            result.skipped.append(line_error(number, ValidationError(repeated)))
            continue
        players = _with_new_players(actor, roster, number, found, errors, result.new_players)
        if players is None:
            continue
        try:
            late = check_can_enter(tournament, players[0], players[1], taken=taken)
        except ValidationError as error:
            errors.append(line_error(number, error))
            continue
        entry = new_entry(actor, tournament, players[0], players[1], EntryStatus.APPROVED, late=late)
        taken[players[0].pk] = taken[players[1].pk] = entry
        result.entries.append(entry)
    if errors:
        raise ValidationError(errors)  # the atomic block drops the players and pairs made above
    audit(
        actor=actor,
        action="entry.bulk_create",
        obj=tournament,
        tournament=tournament,
        after={
            "entries": [entry_state(e) for e in result.entries],
            "new_players": [p.pk for p in result.new_players],
        },
    )
    return result


def _found(roster, number: int, names, errors: list) -> list[tuple[str, Player | None]] | None:
    """A pasted line's players as the roster has them (None for a name it does not have yet), or
    None when a name could be several of them (the error is added)."""
    found = []
    for name in names:
        player, unknown = roster.find(number=number, name=name, errors=errors)
        if player is None and not unknown:
            return None
        found.append((name, player))
    return found


def _with_new_players(actor, roster, number: int, found, errors: list, new_players: list) -> list | None:
    """The line's two players, those the roster lacked added to it now that the line is entered
    (a name written twice on the line is found the second time, not added twice)."""
    players = []
    for name, player in found:
        if player is None:
            player, _unknown = roster.find(number=number, name=name, errors=errors)
        if player is None:
            player = roster.add(actor=actor, number=number, name=name, errors=errors)
            if player is None:
                return None
            new_players.append(player)
        players.append(player)
    return players
