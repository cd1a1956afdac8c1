"""A list of pairs (or players) entered at once by a program, each at the seed it asks for.

The organiser's paste (``entries.register_entries_bulk``) reads names and enters the lines it can;
a program that sends player ids wants all or nothing instead: every line is checked, each refusal
is named by its place in the list (``entries.3.player_b``), and one refusal enters none. Each line
is entered by the service that enters one pair or player from the entries page, so its checks,
audit row and seed are the page's. A seed places the entry in the seeding order, as the page's
arrows do, which is why seeds are taken only where the page shows the arrows: an event seeded by
hand, before round 1 is paired.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from clubs.models import Player

from ..models import EntryStatus, Seeding, Tournament, TournamentStatus
from .common import audit, lock_tournament, require_manager
from .entries import merged_refusal, register_entry, taken_players, taken_refusal
from .players import register_player


@dataclass(frozen=True)
class Line:
    """One line of the list: a pair's two players (``player_b`` None for a player of an individual
    event) and the seed asked for, if any."""

    player_a: Player
    player_b: Player | None = None
    seed: int | None = None


def _field(number: int, name: str = "") -> str:
    return f"entries.{number}.{name}" if name else f"entries.{number}"


def _seed_refusals(tournament: Tournament, lines: list[Line], total: int) -> dict[str, list[str]]:
    """Why the seeds asked for cannot be given: not an event seeded by hand before round 1, a seed
    asked twice, or past the end of the list."""
    errors: dict[str, list[str]] = {}
    by_hand = tournament.seeding == Seeding.MANUAL and tournament.status == TournamentStatus.REGISTRATION
    first: dict[int, int] = {}
    for number, line in enumerate(lines):
        if line.seed is None:
            continue
        if not by_hand:
            errors[_field(number, "seed")] = [
                _("Seeds are given by hand only in an event seeded by hand, before round 1 is paired.")
            ]
        elif line.seed in first:
            errors[_field(number, "seed")] = [
                _("Seed %(seed)d is already asked for in entries.%(line)d.")
                % {"seed": line.seed, "line": first[line.seed]}
            ]
        elif line.seed > total:
            errors[_field(number, "seed")] = [
                _("There will be %(n)d entries, so a seed is at most %(n)d.") % {"n": total}
            ]
        first.setdefault(line.seed, number)
    return errors


def _player_refusals(tournament: Tournament, lines: list[Line]) -> dict[str, list[str]]:
    """Each player who cannot enter, by his field: merged, entered already, or twice in the list."""
    errors: dict[str, list[str]] = {}
    if tournament.is_individual:
        entered = set(
            tournament.individual_entries.exclude(status=EntryStatus.WITHDRAWN).values_list(
                "player_id", flat=True
            )
        )
        taken: dict = {}
    else:
        entered, taken = set(), taken_players(tournament)
    seen: dict[int, int] = {}
    for number, line in enumerate(lines):
        names = ("player_a", "player_b") if line.player_b is not None else ("player",)
        for name, player in zip(names, (line.player_a, line.player_b), strict=False):
            refusal = merged_refusal(player) or taken_refusal(player, taken)
            if not refusal and player.pk in entered:
                refusal = _("%(name)s is already registered in this tournament.") % {
                    "name": player.display_name
                }
            if not refusal and player.pk in seen:
                refusal = _("%(name)s is already in entries.%(line)d.") % {
                    "name": player.display_name,
                    "line": seen[player.pk],
                }
            if refusal:
                errors[_field(number, name)] = [refusal]
            seen.setdefault(player.pk, number)
        if line.player_b is not None and line.player_a.pk == line.player_b.pk:
            errors[_field(number, "player_b")] = [_("A pair is two different players.")]
    return errors


def _place(tournament: Tournament, rows, wanted: dict[int, int]) -> dict[int, int]:
    """Put each entry of ``wanted`` at its seed, the others keeping their order around them, and
    number the list from 1 as the page's arrows do (withdrawn entries are out of it)."""
    order = [
        pk
        for pk in rows.exclude(status=EntryStatus.WITHDRAWN)
        .order_by("seed", "id")
        .values_list("pk", flat=True)
    ]
    slots: list[int | None] = [None] * len(order)
    for pk, seed in wanted.items():
        slots[seed - 1] = pk
    rest = iter(pk for pk in order if pk not in wanted)
    final = [pk if pk is not None else next(rest) for pk in slots]
    for seed, pk in enumerate(final, start=1):
        rows.filter(pk=pk).exclude(seed=seed).update(seed=seed)
    return {pk: seed for seed, pk in enumerate(final, start=1)}


@transaction.atomic
def register_seeded(*, actor, tournament: Tournament, lines: list[Line]) -> list:
    """Enter every line (pairs, or the players of an individual event) or none; answer the new
    entries in the order of the lines, each at the seed it asked for."""
    tournament = lock_tournament(tournament)
    require_manager(actor, tournament)
    if not lines:
        raise ValidationError({"entries": [_("The list is empty.")]})
    rows = tournament.individual_entries if tournament.is_individual else tournament.entries
    total = rows.exclude(status=EntryStatus.WITHDRAWN).count() + len(lines)
    errors = _player_refusals(tournament, lines) | _seed_refusals(tournament, lines, total)
    if errors:
        raise ValidationError(errors)
    created = []
    for number, line in enumerate(lines):
        try:
            if tournament.is_individual:
                created.append(register_player(actor=actor, tournament=tournament, player=line.player_a))
            else:
                created.append(
                    register_entry(
                        actor=actor, tournament=tournament, player_a=line.player_a, player_b=line.player_b
                    )
                )
        except ValidationError as error:  # a full or finished event, a late entry refused
            raise ValidationError({_field(number): error.messages}) from None
    wanted = {
        entry.pk: line.seed for entry, line in zip(created, lines, strict=True) if line.seed is not None
    }
    if wanted:
        seeds = _place(tournament, rows, wanted)
        audit(
            actor=actor,
            action="individual.seed" if tournament.is_individual else "entry.seed",
            obj=tournament,
            tournament=tournament,
            after={"seeds": {str(pk): seeds[pk] for pk in wanted}},
        )
    for entry in created:
        entry.refresh_from_db()
    return created
