"""The record of a pairing's match, played elsewhere, attached by the organiser: checked by the
engine and against the tournament's rules, its four chairs said by the organiser, then its
result entered through the one result path (``results.enter_result``, or ``correct_result`` when
it replaces a confirmed result), so confirmation, corrections and the archive work as for any
other result.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from archive import services as archive
from archive.selectors import finished_state, same_name
from clubs.models import Player
from gameplay.engine import EngineError
from gameplay.engine.cards import SEATS
from gameplay.engine.games import AnyMatch
from gameplay.engine.sheets import WIN_SCORE

from .. import permissions
from ..core.games import normalised_rules
from ..models import Match, MatchStatus
from .common import require_manager
from .results import correct_result, enter_result

#: An early end of the record: the pair of its seat loses the match, 12:0 as any forfeit.
EARLY_ENDS = ("resign", "timeout", "forfeit")


@dataclass(frozen=True)
class CheckedRecord:
    """A record that may be attached to the match: its replay, and the chairs pre-filled."""

    state: AnyMatch
    chairs: dict[str, int | None]


def pairing_players(match: Match) -> tuple[list[Player], list[Player]]:
    """The home pair's and the away pair's players in this round (substitutes in place)."""
    out = []
    for side in ("home", "away"):
        ids = sorted(permissions.side_players(match, side))
        rows = Player.objects.in_bulk(ids)
        out.append([rows[pid] for pid in ids if pid in rows])
    return out[0], out[1]


def _same_rules(state, tournament_rules: dict) -> bool:
    """Was the record's match played by the tournament's game and rules (`state`: its replay)?"""
    try:
        return state.rules.to_json() == normalised_rules(tournament_rules)
    except EngineError:
        return False


def check_record(*, match: Match, record: dict) -> CheckedRecord:
    """Refuse a record that the engine refuses, that does not finish its match, that was played
    under other rules than the tournament's, or whose match is already in the archive as
    another one; otherwise give its replay and the chairs by the record's names."""
    state, refusal = finished_state(record, any_game=True)  # a Kozyol event's records are Kozyol's
    if state is None:
        raise ValidationError(refusal)
    if not _same_rules(state, match.tournament.rules):
        raise ValidationError(_("This record was played under other rules than the tournament's."))
    twin = archive.archived_with_record(record)
    if twin is not None and twin.tournament_match != match.pk:
        raise ValidationError(_("This record is already in the archive (#%(id)d).") % {"id": twin.pk})
    return CheckedRecord(state=state, chairs=prefilled_chairs(match, record))


def prefilled_chairs(match: Match, record: dict) -> dict[str, int | None]:
    """Who sat where by the record's names (case and spaces aside); a chair no name settles
    falls back to the home pair at N and S, the away pair at E and W."""
    home, away = pairing_players(match)
    names = record.get("players") if isinstance(record.get("players"), dict) else {}
    chairs: dict[str, int | None] = {}
    for letter in SEATS:
        name = str(names.get(letter) or "")
        found = [p for p in home + away if name and same_name(p.display_name, name)]
        chairs[letter] = found[0].pk if len(found) == 1 and found[0].pk not in chairs.values() else None
    if all(chairs.values()):
        return chairs
    fallback = dict(zip("NSEW", [p.pk for p in home[:2]] + [p.pk for p in away[:2]], strict=False))
    return {letter: fallback.get(letter) for letter in SEATS}


def _home_seats(match: Match, chairs: dict[str, int]) -> str:
    """Where the home pair sat, "NS" or "EW"; partners must sit opposite each other."""
    home, away = pairing_players(match)
    home_ids, away_ids = {p.pk for p in home}, {p.pk for p in away}
    given = [chairs.get(letter) for letter in SEATS]
    if None in given or len(set(given)) != 4 or set(given) != home_ids | away_ids:
        raise ValidationError(
            _("Say who sat at each of the four seats: each of the match's four players once.")
        )
    ns, ew = {chairs["N"], chairs["S"]}, {chairs["E"], chairs["W"]}
    if ns == home_ids and ew == away_ids:
        return "NS"
    if ns == away_ids and ew == home_ids:
        return "EW"
    raise ValidationError(_("Partners sit opposite each other: one pair at N and S, the other at E and W."))


def attach_record(*, actor, match: Match, record: dict, chairs: dict[str, int], reason: str = "") -> Match:
    """Enter the result of the record for the match, with the record and its chairs; replaces a
    confirmed result as a correction (``reason`` as ``correct_result`` asks for it)."""
    require_manager(actor, match.tournament)
    if match.bye or match.away_id is None:
        raise ValidationError(_("A bye has no result to enter."))
    state = check_record(match=match, record=record).state
    home_seats = _home_seats(match, chairs)
    home_pair = 0 if home_seats == "NS" else 1
    home_won = state.winner == home_pair
    early = bool(state.end) and state.end[0] in EARLY_ENDS
    if early:
        home_eyes, away_eyes = (WIN_SCORE, 0) if home_won else (0, WIN_SCORE)
    else:
        score = state.capped_score
        home_eyes, away_eyes = score[home_pair], score[1 - home_pair]
    chairs = {letter: int(chairs[letter]) for letter in SEATS}
    result = {"home_eyes": home_eyes, "away_eyes": away_eyes, "forfeit": early, "record": record,
              "record_chairs": chairs}
    if match.status == MatchStatus.CONFIRMED:
        return correct_result(actor=actor, match=match, reason=reason, **result)
    return enter_result(actor=actor, match=match, **result)
