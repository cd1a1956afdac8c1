"""Reads for changing a round's pairing: what unpairing the last round removes, whom a swap can move."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from ..models import Match, MatchStatus, Round, Seat, SeatName, Tournament, TournamentStatus
from .events import MATCH_RELATED


@dataclass
class UnpairPreview:
    """What the confirm page shows before the last round is unpaired."""

    round: Round
    matches: list[Match]
    reported: list[Match]
    """Results reported but not confirmed: discarded with the pairing."""
    confirmed: list[Match]
    """Confirmed results: while there is one, the round cannot be unpaired."""
    live_tables: int
    is_last: bool

    @property
    def allowed(self) -> bool:
        finished = self.round.tournament.status == TournamentStatus.FINISHED
        return self.is_last and not self.confirmed and not finished


def editable(rnd: Round) -> bool:
    """Whether the round's pairing may still change by hand (no result of it confirmed)."""
    return (
        rnd.tournament.status != TournamentStatus.FINISHED
        and not rnd.matches.filter(bye=False, status=MatchStatus.CONFIRMED).exists()
    )


def unpair_preview(*, tournament: Tournament, number: int) -> UnpairPreview:
    rnd = tournament.rounds.select_related("tournament").get(number=number)
    matches = list(
        Match.objects.filter(round=rnd).select_related(*MATCH_RELATED).order_by("bye", "table", "game")
    )
    played = [m for m in matches if not m.bye]
    last = tournament.rounds.order_by("-number").values_list("number", flat=True).first()
    return UnpairPreview(
        round=rnd,
        matches=matches,
        reported=[m for m in played if m.status in (MatchStatus.UNCONFIRMED, MatchStatus.DISPUTED)],
        confirmed=[m for m in played if m.status == MatchStatus.CONFIRMED],
        live_tables=sum(1 for m in played if m.live_table),
        is_last=last == number,
    )


def swap_choices(rnd: Round) -> list[tuple[int, str]]:
    """Who a swap can move in the round, each with where he is now: pairs by table (or bye) in a
    pairs event, players by table and seat (or sitting out) in an individual one."""
    if rnd.tournament.is_individual:
        seats = Seat.objects.filter(round=rnd).select_related("entry__player").order_by("table", "seat")
        out = []
        for s in seats:
            where = s.get_seat_display() if s.seat == SeatName.BYE else f"{s.table}{s.seat}"
            out.append((s.entry_id, f"{where} · {s.entry.player.display_name}"))
        return sorted(out, key=lambda c: c[1])
    out = []
    seen = set()
    for m in rnd.matches.select_related(*MATCH_RELATED).order_by("bye", "table", "game"):
        for entry in (m.home, m.away):
            if entry is None or entry.pk in seen:
                continue
            seen.add(entry.pk)
            where = _("bye") if m.bye else str(m.table)
            out.append((entry.pk, f"{where} · {entry.name}"))
    return out


def numbered_tables(rnd: Round) -> list[Match]:
    """The round's tables (the first match of each tie), by number, for renumbering."""
    return list(rnd.matches.filter(bye=False, game=1).select_related(*MATCH_RELATED).order_by("table"))
