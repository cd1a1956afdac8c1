"""The CSV/JSON exports: standings as each format shows them, every result, every seat of a player."""

from __future__ import annotations

from collections.abc import Iterator

from ..formats import format_of
from ..models import Format, Seat, SeatName, Tournament
from .brackets import double_elim_view, groups_view
from .prizes import entry_prizes
from .rounds import results
from .standings import standings

PAIR_COLUMNS = (
    "place", "shared", "pair", "entry_id", "match_points", "played", "wins", "losses", "byes", "eyes_for",
    "eyes_against", "eye_difference", "buchholz", "sonneborn_berger", "lucy", "withdrawn", "prize",
    "requested_byes",
)  # fmt: skip
PLAYER_COLUMNS = (
    "place", "shared", "player", "player_id", "match_points", "played", "wins", "losses", "byes", "forfeits",
    "eyes_for", "eyes_against", "eye_difference", "buchholz", "sonneborn_berger", "withdrawn", "prize",
    "requested_byes",
)  # fmt: skip
WHO = {
    "pair": lambda entry: entry.name,
    "entry_id": lambda entry: entry.pk,
    "player": lambda entry: entry.player.display_name,
    "player_id": lambda entry: entry.player_id,
}
"""Columns that name the pair (an ``Entry``) or the player (an ``IndividualEntry``) of a line."""


def _line_rows(tournament: Tournament, columns: tuple[str, ...]) -> Iterator[dict]:
    """One row a standings line: who, the line's figures, the prize."""
    for line in standings(tournament=tournament).lines:
        yield {
            c: WHO[c](line.entry) if c in WHO else line.prize if c == "prize" else getattr(line.row, c)
            for c in columns
        }


def _bracket_rows(tournament: Tournament) -> Iterator[dict]:
    """Places (and, for groups, each pair's group line)."""
    won = entry_prizes(tournament)
    if tournament.format == Format.DOUBLE_ELIM:
        view = double_elim_view(tournament=tournament)
        places = view.places if view else []
        shared = {p for p, _e in places if sum(q == p for q, _e in places) > 1}
        for place, entry in places:
            yield {
                "place": place,
                "shared": place in shared,
                "pair": entry.name,
                "entry_id": entry.pk,
                "prize": won.get(entry.pk, ""),
            }
        return
    gview = groups_view(tournament=tournament)
    if gview is None:
        return
    final_place = {entry.pk: place for place, entry in gview.places}
    for group in gview.groups:
        for line in group.lines:
            r = line.row
            place = final_place.get(line.entry.pk)
            yield {
                "group": group.letter,
                "group_place": r.place,
                "pair": line.entry.name,
                "entry_id": line.entry.pk,
                "match_points": r.match_points,
                "played": r.played,
                "eye_difference": r.eye_difference,
                "eyes_for": r.eyes_for,
                "withdrawn": r.withdrawn,
                "playoff_place": place,
                "prize": won.get(line.entry.pk, ""),
            }


def standings_rows(*, tournament: Tournament) -> list[dict]:
    """The standings export, in the shape of the format's standings page."""
    page = format_of(tournament).standings_page
    if page == "bracket":
        return list(_bracket_rows(tournament))
    return list(_line_rows(tournament, PLAYER_COLUMNS if tournament.is_individual else PAIR_COLUMNS))


def result_rows(*, tournament: Tournament) -> list[dict]:
    return [
        {
            "round": m.round.number,
            "table": m.table,
            "slot": m.slot,
            "game": m.game,
            "home": m.home.name,
            "away": m.away.name if m.away else "",
            "home_eyes": m.home_eyes,
            "away_eyes": m.away_eyes,
            "winner": (m.home.name if m.winner_id == m.home_id else m.away.name if m.away else "")
            if m.winner_id
            else "",
            "bye": m.bye,
            "requested_bye": m.requested_bye,
            "forfeit": m.forfeit,
            "status": m.status,
        }
        for m in results(tournament=tournament)
    ]


def seat_rows(*, tournament: Tournament):
    """Every seat of the event, for the CSV/JSON export: round, table, seat, player, result."""
    seats = (
        Seat.objects.filter(round__tournament=tournament)
        .select_related("round", "entry__player", "match")
        .order_by("round__number", "table", "seat")
    )
    for s in seats:
        m = s.match
        ours = theirs = None
        if m is not None and m.has_result:
            home = s.seat in (SeatName.NORTH, SeatName.SOUTH)
            ours, theirs = (m.home_eyes, m.away_eyes) if home else (m.away_eyes, m.home_eyes)
        yield {
            "round": s.round.number,
            "table": s.table,
            "seat": s.seat,
            "player": s.entry.player.display_name,
            "player_id": s.entry.player_id,
            "eyes_for": ours,
            "eyes_against": theirs,
            "won": None if ours is None else ours > theirs,
            "no_show": s.absent and bool(m and m.forfeit),
            "status": m.status if m else "bye",
            "requested_bye": s.requested_bye,
        }
