"""A round's pairing changed by hand: the last round unpaired, two pairs (or players) swapped, a table moved.

What Swiss Manager and bridge scoring programs let an organiser do before play starts. Each change
is one transaction with its audit row (before → after), allowed only while no result of the round is
confirmed; what hangs on the old pairing follows it: live tables opened for it are called off
through gameplay (and opened anew for the changed matches of a started online round), the plans
written for an unpaired round are cancelled, and the players whose place changed are told their new
one (``pairing_notices``, the same path as the pairing's own notice).
A swap that makes a rematch (or a second bye, or in an individual event a repeated partnership)
is refused with a ``PairingWarning`` until the organiser accepts it.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from ..formats.players import TABLE_SEATS
from ..models import (
    Entry,
    IndividualEntry,
    Match,
    MatchStatus,
    Round,
    Seat,
    SeatName,
    Tournament,
    TournamentStatus,
)
from .common import audit, lock_tournament, require_manager
from .notices import notify, users_of_side
from .online import close_tables, open_tables
from .pairing_notices import tell_round_places
from .plans import plan_tournament, unplan_round


def reported_text() -> str:
    return _("Table %(n)d has a reported result; settle it before changing its pairing.")


class PairingWarning(ValidationError):
    """The change is allowed but breaks a pairing rule (a rematch): done only once accepted."""


def _matches_state(matches) -> list[list]:
    return [[m.pk, m.home_id, m.away_id, m.table] for m in matches]


def _locked_round(actor, rnd: Round, *, last: bool = False) -> tuple[Round, Tournament]:
    """The round and its tournament, locked, once the actor may change it: the tournament still
    running, (``last``) no round after it, and no result of it confirmed."""
    tournament = lock_tournament(rnd.tournament)
    require_manager(actor, tournament)
    rnd = Round.objects.select_for_update().get(pk=rnd.pk)
    if tournament.status == TournamentStatus.FINISHED:
        raise ValidationError(_("The tournament is finished."))
    latest = tournament.rounds.order_by("-number").values_list("number", flat=True).first()
    if last and latest != rnd.number:
        raise ValidationError(
            _("Only the last round can be unpaired: round %(n)d comes after it.") % {"n": latest}
        )
    confirmed = sorted(
        rnd.matches.filter(bye=False, status=MatchStatus.CONFIRMED).values_list("table", flat=True)
    )
    if confirmed:
        raise ValidationError(
            _("Round %(r)d already has confirmed results (tables %(list)s); its pairing stays as it is.")
            % {"r": rnd.number, "list": ", ".join(map(str, confirmed))},
            code="confirmed",
        )
    return rnd, tournament


def _tell(match: Match, *, text, key: str) -> None:
    for side in ("home", "away"):
        for user in users_of_side(match, side):
            notify(user, kind="tournament.pairing_changed", text=text, url=match.get_absolute_url(), key=key)


# --- unpairing -----------------------------------------------------------------------------------


@transaction.atomic
def unpair_round(*, actor, round: Round, discard: frozenset[int] | set[int] = frozenset()) -> int:
    """Delete the last round's pairing so that it can be paired again. ``discard``: the reported,
    unconfirmed results the organiser saw on the confirm page and agreed to lose; one reported
    since is refused, so nothing is discarded unseen. Returns the round's number."""
    rnd, tournament = _locked_round(actor, round, last=True)
    matches = list(
        rnd.matches.select_related("home", "away").prefetch_related(
            "home__substitutions", "away__substitutions"
        )
    )
    reported = [m for m in matches if not m.bye and m.status != MatchStatus.SCHEDULED]
    unseen = sorted(m.table for m in reported if m.pk not in discard)
    if unseen:
        raise ValidationError(
            _("A result was reported at table %(list)s since you looked; look at the round again.")
            % {"list": ", ".join(map(str, unseen))},
            code="reported",
        )
    before = {
        "number": rnd.number,
        "matches": _matches_state(matches),
        "discarded": [{"match": m.pk, "table": m.table, **m.state()} for m in reported],
    }
    close_tables(matches=[m for m in matches if m.live_table])
    values = {"t": tournament.name, "r": rnd.number}
    for m in matches:
        _tell(
            m,
            text=lambda: (
                _("%(t)s: the organiser withdrew round %(r)d's pairings. Wait for the new ones.") % values
            ),
            key=f"unpaired:{m.pk}",
        )
    unplan_round(tournament.pk, rnd.number, tag=f"unpaired-{rnd.pk}")
    partnerships = {e for m in matches for e in (m.home_id, m.away_id) if e and tournament.is_individual}
    Match.objects.filter(pk__in=[m.pk for m in matches]).delete()
    if partnerships:  # an individual event's partnerships of this round (seed 0) go with their tables
        Entry.objects.filter(pk__in=partnerships, seed=0).delete()
    number = rnd.number
    audit(actor=actor, action="round.unpair", obj=rnd, tournament=tournament, before=before, after=None)
    rnd.delete()
    if number == 1:  # back to before the start: the next pairing fixes the field again
        tournament.status = TournamentStatus.REGISTRATION
        tournament.save(update_fields=["status"])
        plan_tournament(tournament)
    return number


# --- swapping ------------------------------------------------------------------------------------


def requested_bye_text() -> str:
    return _("A bye asked for is the asker's own: it is not swapped with anyone who plays.")


def _met_before(tournament: Tournament, rnd: Round, a: int, b: int) -> bool:
    return (
        Match.objects.filter(tournament=tournament, round__number__lt=rnd.number, bye=False)
        .filter(Q(home_id=a, away_id=b) | Q(home_id=b, away_id=a))
        .exists()
    )


def _names(ids) -> str:
    return ", ".join(e.name for e in Entry.objects.filter(pk__in=ids).select_related("player_a", "player_b"))


def _swap_pairs(tournament: Tournament, rnd: Round, first: int, second: int) -> tuple[list[Match], list[str]]:
    """Every match of the round with ``first`` gets ``second`` and the other way round (all
    games of a tie). Returns the changed matches and the rule each breaks."""
    matches = list(
        rnd.matches.select_for_update()
        .filter(Q(home_id__in=(first, second)) | Q(away_id__in=(first, second)))
        .order_by("table", "game")
    )
    found = {e for m in matches for e in (m.home_id, m.away_id)}
    if first not in found or second not in found:
        raise ValidationError(_("Both pairs must play in this round."))
    if any({m.home_id, m.away_id} == {first, second} for m in matches):
        raise ValidationError(_("These two pairs already play each other."))
    if all(m.bye for m in matches):
        raise ValidationError(_("Both pairs have a bye; swapping them changes nothing."))
    if any(m.requested_bye for m in matches):
        raise ValidationError(requested_bye_text())
    swap = {first: second, second: first}
    warnings: list[str] = []
    for m in matches:
        if m.has_result or m.status != MatchStatus.SCHEDULED and not m.bye:
            raise ValidationError(reported_text() % {"n": m.table})
        m.home_id = swap.get(m.home_id, m.home_id)
        m.away_id = swap.get(m.away_id, m.away_id) if m.away_id else None
        if m.bye:
            m.winner_id = m.home_id
            if Match.objects.filter(
                tournament=tournament, round__number__lt=rnd.number, bye=True, home_id=m.home_id
            ).exists():
                warnings.append(_("%(p)s already had a bye.") % {"p": _names([m.home_id])})
        elif _met_before(tournament, rnd, m.home_id, m.away_id) and m.game == 1:
            names = {"a": _names([m.home_id]), "b": _names([m.away_id])}
            warnings.append(_("%(a)s and %(b)s have played each other before.") % names)
        m.save(update_fields=["home", "away", "winner"])
    return matches, warnings


def _partnership_repeated(tournament: Tournament, rnd: Round, a: int, b: int) -> bool:
    """Whether players ``a`` and ``b`` sat on one side of a table (N/S or E/W) in an earlier round."""
    earlier = Seat.objects.filter(
        round__tournament=tournament, round__number__lt=rnd.number, entry_id__in=(a, b), match__isnull=False
    )
    sides: dict[tuple[int, bool], set[int]] = {}
    for entry_id, match_id, seat in earlier.values_list("entry_id", "match_id", "seat"):
        sides.setdefault((match_id, seat in ("N", "S")), set()).add(entry_id)
    return any(len(players) == 2 for players in sides.values())


def _swap_players(
    tournament: Tournament, rnd: Round, first: int, second: int
) -> tuple[list[Match], list[str]]:
    """Two players change seats (a seat at a table, or a bye); each changed table's two
    partnerships are written again from who sits N/S and E/W."""
    seats = {s.entry_id: s for s in rnd.seats.select_for_update().filter(entry_id__in=(first, second))}
    if len(seats) != 2:
        raise ValidationError(_("Both players must be seated in this round."))
    one, two = seats[first], seats[second]
    if one.seat == two.seat == SeatName.BYE:
        raise ValidationError(_("Both players sit out; swapping them changes nothing."))
    if one.requested_bye or two.requested_bye:
        raise ValidationError(requested_bye_text())
    matches = list(
        Match.objects.select_for_update().filter(pk__in={s.match_id for s in (one, two) if s.match_id})
    )
    for m in matches:
        if m.status != MatchStatus.SCHEDULED:
            raise ValidationError(reported_text() % {"n": m.table})
    (one.seat, one.table, one.match_id), (two.seat, two.table, two.match_id) = (
        (two.seat, two.table, two.match_id),
        (one.seat, one.table, one.match_id),
    )
    Seat.objects.bulk_update([one, two], ["seat", "table", "match"])
    warnings: list[str] = []
    for m in matches:
        by_seat = {s.seat: s.entry for s in Seat.objects.filter(match=m).select_related("entry__player")}
        n, s, e, w = (by_seat[name] for name in TABLE_SEATS)
        for entry_id, (a, b) in ((m.home_id, (n, s)), (m.away_id, (e, w))):
            Entry.objects.filter(pk=entry_id).update(player_a=a.player, player_b=b.player)
            if _partnership_repeated(tournament, rnd, a.pk, b.pk):
                warnings.append(_("%(a)s and %(b)s have partnered before.") % {"a": a.name, "b": b.name})
    for moved in (one, two):
        if (
            moved.seat == SeatName.BYE
            and Seat.objects.filter(
                round__tournament=tournament,
                round__number__lt=rnd.number,
                entry_id=moved.entry_id,
                seat=moved.seat,
            ).exists()
        ):
            player = IndividualEntry.objects.select_related("player").get(pk=moved.entry_id)
            warnings.append(_("%(p)s already sat out a round.") % {"p": player.name})
    return [Match.objects.select_related("home", "away").get(pk=m.pk) for m in matches], warnings


@transaction.atomic
def swap_in_round(*, actor, round: Round, first: int, second: int, accept: bool = False) -> list[Match]:
    """Two pairs (in an individual event, two players) change places in the round: tables, sides,
    or a bye. Their live tables are called off and, in a started online round, opened again for
    the new pairing; the players are told. A rematch is a ``PairingWarning`` unless ``accept``."""
    rnd, tournament = _locked_round(actor, round)
    if first == second:
        raise ValidationError(_("Choose two different ones to swap."))
    changer = _swap_players if tournament.is_individual else _swap_pairs
    before = _matches_state(rnd.matches.order_by("table", "game"))
    seats_before = (
        list(rnd.seats.filter(entry_id__in=(first, second)).values_list("entry_id", "seat", "table"))
        if tournament.is_individual
        else None
    )
    matches, warnings = changer(tournament, rnd, first, second)
    if warnings and not accept:
        raise PairingWarning(warnings, code="rematch")
    live = [m for m in matches if m.live_table]
    close_tables(matches=live)
    if live:
        open_tables(round_id=rnd.pk)
    after = {"matches": _matches_state(matches), "accepted": warnings}
    if seats_before is not None:
        after["seats"] = list(
            rnd.seats.filter(entry_id__in=(first, second)).values_list("entry_id", "seat", "table")
        )
    audit(
        actor=actor,
        action="round.swap",
        obj=rnd,
        tournament=tournament,
        before={"matches": [b for b in before if b[0] in {m.pk for m in matches}], "seats": seats_before},
        after=after,
    )
    tell_round_places(round_id=rnd.pk)  # the players whose place changed, and only they
    return matches


# --- table numbers -------------------------------------------------------------------------------


@transaction.atomic
def set_table_number(*, actor, match: Match, table: int) -> Match:
    """Give a match (every game of its tie) another table number; the match that had that
    number takes the old one, so two tables never share a number. The players are told."""
    rnd, tournament = _locked_round(actor, match.round)
    match = Match.objects.select_for_update().get(pk=match.pk, round=rnd)
    if match.bye:
        raise ValidationError(_("A bye has no table."))
    if not 1 <= table <= 999:
        raise ValidationError(_("A table number is a whole number from 1 to 999."))
    old = match.table
    if old == table:
        return match
    moved = list(rnd.matches.select_for_update().filter(bye=False, table__in=(old, table)))
    for m in moved:
        m.table = table if m.table == old else old
        m.save(update_fields=["table"])
    for m in moved:
        rnd.seats.filter(match=m).update(table=m.table)
    audit(
        actor=actor,
        action="round.table_number",
        obj=rnd,
        tournament=tournament,
        before={"matches": [[m.pk, table if m.table == old else old] for m in moved]},
        after={"matches": [[m.pk, m.table] for m in moved]},
    )
    tell_round_places(round_id=rnd.pk)
    match.refresh_from_db()
    return match
