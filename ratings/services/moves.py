"""Why a rating moved without a match: what each recompute concerns, and the moves it made.

A recompute relearns the whole history, so a correction, a late result, a removal, a merge or a
refit of the model moves players who did not play the match concerned (a filter replayed in
order carries every change forward). People must be told: each run keeps what it concerns
(``Why``: the cause, the event, round and archived match, or the merged player), and every
player whose current rating it moved, beyond what his own newly learnt matches did, gets a
``RatingMove`` row his card lists ("recomputed on 5 Dec after a corrected result in Spring Swiss,
round 2: +5.9"). Moves under ``NEGLIGIBLE_MOVE`` are rounding, not news, and are not kept.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.db.models import Exists, OuterRef, Q
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from archive.models import ArchivedMatch
from ratings.core.model import RatingState
from ratings.models import (
    NEGLIGIBLE_MOVE,
    Cause,
    PairRating,
    PlayerRating,
    RatedGame,
    RatingChange,
    RatingMove,
    RatingRun,
    RunStatus,
)


@dataclass(frozen=True)
class Why:
    """What a recompute concerns, as its run keeps it (``RatingRun``'s fields of the same names)."""

    cause: str = Cause.OTHER
    about: str = ""  # the event's name, or for a merge the player's
    about_url: str = ""
    source: str = ""
    round_number: int | None = None
    match_ref: int | None = None
    concerns_at: datetime.datetime | None = None

    def fields(self) -> dict[str, Any]:
        return {"cause": self.cause, "about": self.about[:200], "about_url": self.about_url[:300],
                "source": self.source[:12], "round_number": self.round_number, "match_ref": self.match_ref,
                "concerns_at": self.concerns_at}


#: The refit of the model's parameters: ``request_recompute(reason=..., why=REFIT)``.
REFIT = Why(cause=Cause.REFIT)


def why_of_notice(match_id: int, change: str, about: dict[str, Any] | None) -> Why:
    """The archive's notice (``archive.services.match_changed``) as the run's ``Why``: a created
    match that is not the latest is a late result, an updated one a correction (or a merge, when
    the notice says so), a removed one a removal."""
    about = about or {}
    if about.get("cause") == "merged":
        return Why(cause=Cause.MERGED, about=str(about.get("player", "")))
    if change == "created" and not _learnt_late(match_id):
        return Why()  # the latest match, waiting behind a recompute already asked for: not news
    cause = {"created": Cause.LATE, "removed": Cause.REMOVED}.get(change, Cause.CORRECTED)
    played = about.get("played_at")
    at = parse_datetime(played) if isinstance(played, str) else None
    number = about.get("round")
    return Why(cause=cause, about=str(about.get("event") or ""), about_url=str(about.get("url") or ""),
               source=str(about.get("source") or ""),
               round_number=number if isinstance(number, int) else None, match_ref=match_id, concerns_at=at)


def _learnt_late(match_id: int) -> bool:
    """A rated match played before one the ratings already hold (the model's order: time played,
    then id)."""
    m = ArchivedMatch.objects.filter(pk=match_id).values_list("played_at", flat=True).first()
    if m is None:
        return False
    later = Q(played_at__gt=m) | Q(played_at=m, pk__gt=match_id)
    return ArchivedMatch.objects.filter(later, rated=True).exists()


def answer_for(run: RatingRun) -> RatingRun:
    """The run that does the work also answers the requests it superseded since the last run done:
    it takes the earliest of them as what it concerns (a merge's many notices are one merge) and
    counts the other changes among them in ``others``."""
    last_done = (RatingRun.objects.filter(status=RunStatus.DONE, pk__lt=run.pk).order_by("-pk")
                 .values_list("pk", flat=True).first()) or 0
    answered = list(RatingRun.objects.filter(pk__gt=last_done, pk__lte=run.pk)
                    .exclude(status=RunStatus.FAILED).order_by("pk"))
    kinds = {(r.cause, r.about if r.cause == Cause.MERGED else r.match_ref) for r in answered
             if r.cause != Cause.OTHER}
    known = [r for r in answered if r.cause != Cause.OTHER] or [run]
    first = min(known, key=lambda r: (r.concerns_at is None, r.concerns_at or run.requested_at, r.pk))
    if first.pk != run.pk:
        for name, value in Why(**{k: getattr(first, k) for k in Why.__dataclass_fields__}).fields().items():
            setattr(run, name, value)
    run.others = max(0, len(kinds) - 1)
    RatingRun.objects.filter(pk=run.pk).update(others=run.others, **Why(
        **{k: getattr(run, k) for k in Why.__dataclass_fields__}).fields())
    return run


def player_merging(sender: object, source: Any, target: Any, **kwargs: Any) -> None:
    """Receiver of ``clubs.services.merging.players_merging``: the merged record's ratings, pair
    ratings and changes are worked out from the archive, so they are dropped rather than repointed
    onto the survivor's (which they would collide with); the recompute the merge asks for (the
    archive's notices) rebuilds them under the survivor. His old rating is kept as the survivor's
    "before" only if the survivor had none."""
    for game in PlayerRating.objects.filter(player=source).values_list("game", flat=True):  # each game's
        rows = PlayerRating.objects.filter(game=game)
        if not rows.filter(player=target).exists():
            rows.filter(player=source).update(player=target)
    PlayerRating.objects.filter(player=source).delete()
    PairRating.objects.filter(Q(player_a=source) | Q(player_b=source)).delete()
    RatingChange.objects.filter(player=source).delete()


class MoveTracker:
    """Watches a recompute: the ratings before it, and what the matches it learns for the first
    time do to each player; at the end the rest of each player's move is a ``RatingMove``."""

    def __init__(self, game: RatedGame) -> None:
        self.game = game.key
        self.before = dict(PlayerRating.objects.filter(game=game.key).values_list("player_id", "rating"))
        learnt = RatingChange.objects.filter(game=game.key, match=OuterRef("pk"))
        self.new_matches = set(ArchivedMatch.objects.filter(rated=True).filter(~Exists(learnt))
                               .values_list("pk", flat=True))
        self.own: dict[str, float] = defaultdict(float)

    def learnt(self, match_id: int, deltas: dict[str, Any]) -> None:
        """Called for each match learnt, with its deltas."""
        if match_id in self.new_matches:
            for pid, d in deltas.items():
                self.own[pid] += d.change

    def write(self, state: RatingState, run: RatingRun | None) -> int:
        """Keep each move of a player rated before and after that his own new matches do not
        explain; the number kept."""
        now = timezone.now()
        rows = []
        for pid, r in state.players.items():
            old = self.before.get(int(pid))
            if old is None:
                continue
            new = state.display(pid, r.day)[0]
            move = new - old - self.own.get(pid, 0.0)
            if abs(move) >= NEGLIGIBLE_MOVE:
                rows.append(RatingMove(player_id=int(pid), game=self.game, run=run, at=now,
                                       before=new - move, after=new))
        RatingMove.objects.bulk_create(rows, batch_size=5000)
        return len(rows)
