"""Each player's place in a round told once: when it is paired, and again only when his place changes.

One path for the first pairing and every change by hand (a swap, a moved bye, a table renumbered):
``tell_round_places`` works out every player's place from the round as it stands (table, N/S or
E/W, partner, opponents, or a bye) and tells a player with an account only when that place differs
from the last one he was told for this round. The notice's key is the round, how many places he was
told before, and a digest of the place, so a retried task finds the same key and tells nobody twice,
a swap tells exactly the players it moved, and a swap undone tells them again. Unpairing deletes the
round; the next pairing is a new round, so its places are told afresh.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from clubs.models import Player
from gameplay.words import pair_name

from .. import permissions
from ..models import Match, Notification, Round
from .notices import notify

PAIRED_KIND = "tournament.round_paired"
CHANGED_KIND = "tournament.pairing_changed"


@dataclass(frozen=True)
class Place:
    """Where one player sits in a round: ``table`` 0 and ``side`` "" for a bye."""

    table: int
    side: str  # "NS" (the home pair) or "EW"; "" for a bye
    partner: int | None  # the partner's player id (changes only in an individual event)
    opponents: tuple[int, ...]

    @property
    def bye(self) -> bool:
        return not self.side

    def digest(self) -> str:
        data = [self.table, self.side, self.partner, sorted(self.opponents)]
        return hashlib.sha256(json.dumps(data).encode()).hexdigest()[:16]


def key_prefix(round_id: int) -> str:
    return f"pairing:{round_id}:"


def places_of(rnd: Round) -> tuple[dict[int, Place], dict[int, Match]]:
    """Every seated player's place (by player id) and his match, substitutes counted for the round."""
    places: dict[int, Place] = {}
    match_of: dict[int, Match] = {}
    matches = rnd.matches.select_related("home", "away").prefetch_related(
        "home__substitutions", "away__substitutions"
    )
    for m in matches.order_by("table", "game"):
        home, away = permissions.side_players(m, "home"), permissions.side_players(m, "away")
        for side, mine, theirs in (("NS", home, away), ("EW", away, home)):
            if m.bye and side == "EW":
                continue
            for pid in mine:
                if pid in places:  # a tie of several games: the first game's table tells the place
                    continue
                partner = next(iter(mine - {pid}), None)
                places[pid] = Place(
                    table=0 if m.bye else m.table,
                    side="" if m.bye else side,
                    partner=partner,
                    opponents=tuple(sorted(theirs)),
                )
                match_of[pid] = m
    return places, match_of


def _last_told(rnd: Round) -> dict[int, tuple[int, str]]:
    """Per user: how many places he was told for this round, and the digest of the last one."""
    told: dict[int, tuple[int, str]] = {}
    rows = Notification.objects.filter(key__startswith=key_prefix(rnd.pk)).order_by("id")
    for user_id, key in rows.values_list("user_id", "key"):
        count, _last = told.get(user_id, (0, ""))
        told[user_id] = (count + 1, key.rsplit(":", 1)[-1])
    return told


def _wording(rnd: Round, place: Place, names: dict[int, str], *, changed: bool):
    """The notice's text, worded later in the reader's language (``notify`` calls it)."""
    values = {
        "t": rnd.tournament.name,
        "r": rnd.number,
        "n": place.table,
        "them": " & ".join(names.get(p, "?") for p in place.opponents),
        "partner": names.get(place.partner, "") if place.partner else "",
    }
    individual = rnd.tournament.is_individual

    def text() -> str:
        if place.bye:
            if changed:
                return _("%(t)s, round %(r)d was changed: you now have a bye.") % values
            return _("%(t)s, round %(r)d: you have a bye.") % values
        side = {"side": pair_name(place.side)}
        if individual and changed:
            return _(
                "%(t)s, round %(r)d was changed: table %(n)d, %(side)s, with %(partner)s, against %(them)s."
            ) % {**values, **side}
        if individual:
            return _("%(t)s, round %(r)d: table %(n)d, %(side)s, with %(partner)s, against %(them)s.") % {
                **values,
                **side,
            }
        if changed:
            return _("%(t)s, round %(r)d was changed: table %(n)d, %(side)s, against %(them)s.") % {
                **values,
                **side,
            }
        return _("%(t)s, round %(r)d: table %(n)d, %(side)s, against %(them)s.") % {**values, **side}

    return text


@transaction.atomic
def tell_round_places(*, round_id: int) -> int:
    """Tell every player with an account whose place in the round he has not been told yet.

    Run by the pairing's task and inside each change by hand; the round's row is locked so that two
    runs for one round take turns and the second finds the first one's notices. Returns how many
    players were told. Only the round's row: a lock through the join would take the event's row
    too, which a result being entered holds before it updates the round (each waited for the other)."""
    rounds = Round.objects.select_for_update(of=("self",)).select_related("tournament")
    rnd = rounds.filter(pk=round_id).first()
    if rnd is None:
        return 0
    places, match_of = places_of(rnd)
    players = {
        p.pk: p
        for p in Player.objects.filter(
            pk__in={pid for pl in places.values() for pid in pl.opponents} | set(places)
        ).select_related("user")
    }
    names = {pid: p.display_name for pid, p in players.items()}
    told = _last_told(rnd)
    sent = 0
    for pid, place in places.items():
        player = players.get(pid)
        if player is None or player.user_id is None:
            continue
        count, last = told.get(player.user_id, (0, ""))
        digest = place.digest()
        if last == digest:
            continue
        notify(
            player.user,
            kind=CHANGED_KIND if count else PAIRED_KIND,
            text=_wording(rnd, place, names, changed=bool(count)),
            url=match_of[pid].get_absolute_url(),
            key=f"{key_prefix(rnd.pk)}{count + 1}:{digest}",
            title=rnd.tournament.name,
        )
        sent += 1
    return sent
