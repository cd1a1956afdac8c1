"""A player's moves without a match of his, as his card and the match page tell them.

Each move comes from a recompute (``ratings.services.moves``); its run says why. The rating is
public, and so is the event a correction was made in; the match itself is linked only for a viewer
who may see it (the archive's one visibility rule), and a removed match has no link at all.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django.db.models import Q
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from archive.selectors import visible_matches
from ratings.models import BILKA_FOUR, NEGLIGIBLE_MOVE, Cause, RatingMove, RatingRun, RunStatus


@dataclass(frozen=True)
class MoveLine:
    """One move of a player's rating by a recompute: when, why, how much."""

    at: datetime.datetime
    before: float
    after: float
    why: str  # "after a corrected result in Spring Swiss, round 2", "" when not known
    link: str  # the match concerned, for a viewer who may see it; else ""
    is_move: bool = True  # the changes list holds matches and moves: the template tells them apart

    @property
    def change(self) -> float:
        return self.after - self.before

    @property
    def amount(self) -> str:
        """The move as the card writes it: +5.9, −0.3 (a real minus, one decimal)."""
        value = round(self.change, 1)
        text = formats.number_format(abs(value), 1)
        return f"−{text}" if value < 0 else f"+{text}"

    @property
    def words(self) -> str:
        """The whole line: "recomputed on 5 Dec after a corrected result in Spring Swiss, round 2"."""
        day = formats.date_format(timezone.localtime(self.at), "j E")
        if self.why:
            return _("recomputed on %(date)s %(why)s") % {"date": day, "why": self.why}
        return _("recomputed on %(date)s") % {"date": day}


def _place(run: RatingRun) -> str:
    if run.about and run.round_number:
        return _("in %(event)s, round %(round)s") % {"event": run.about, "round": run.round_number}
    if run.about:
        return _("in %(event)s") % {"event": run.about}
    if run.source == "upload":
        return _("of an uploaded match")
    if run.source:
        return _("of a casual match")
    return ""


def why_words(run: RatingRun | None) -> str:
    """Why a run moved ratings, in the reader's language ("" for a run that says nothing)."""
    if run is None:
        return ""
    if run.cause == Cause.MERGED:
        text = _("after two records of %(player)s were merged") % {"player": run.about}
    elif run.cause == Cause.REFIT:
        text = _("after the model's parameters were fitted again")
    elif run.cause == Cause.LATE and run.source == "upload":
        text = _("after an upload of a match played earlier")
    elif run.cause in (Cause.CORRECTED, Cause.LATE, Cause.REMOVED):
        place = _place(run)  # the phrase carries it, so each language puts it where it goes
        text = {
            Cause.CORRECTED: _("after a corrected result %(place)s"),
            Cause.LATE: _("after a result entered late %(place)s"),
            Cause.REMOVED: _("after a removed result %(place)s"),
        }[Cause(run.cause)] % {"place": place}
        text = " ".join(text.split())  # no place: no double or trailing space
    else:
        return ""
    if run.others:
        more = ngettext("and %(n)d other change", "and %(n)d other changes", run.others)
        text += " " + more % {"n": run.others}
    return text


def _links(runs: list[RatingRun], viewer: Any) -> dict[int, str]:
    """The address of each run's match concerned that ``viewer`` may see (one query)."""
    refs = {r.match_ref for r in runs if r.match_ref and r.cause != Cause.REMOVED}
    seen = set(visible_matches(viewer).filter(pk__in=refs).values_list("pk", flat=True)) if refs else set()
    return {r.pk: r.about_url for r in runs if r.match_ref in seen and r.about_url}


def move_lines(player_id: int, *, viewer: Any, limit: int | None = 10,
               since: datetime.datetime | None = None, game: str = BILKA_FOUR) -> list[MoveLine]:
    """The player's moves in ``game`` by recomputes, newest first (two queries): the last
    ``limit``, or those after ``since``."""
    qs = (RatingMove.objects.filter(game=game, player_id=player_id)
          .select_related("run").order_by("-at", "-id"))
    if since is not None:
        qs = qs.filter(at__gt=since)
    rows = [m for m in (qs[:limit] if limit is not None else qs) if abs(m.change) >= NEGLIGIBLE_MOVE]
    links = _links([m.run for m in rows if m.run is not None], viewer)
    return [MoveLine(m.at, m.before, m.after, why_words(m.run), links.get(m.run_id or 0, "")) for m in rows]


def recomputed_note(archived: Any) -> str:
    """When and why a recompute last redid this archived match's step, after it was played ("" if
    none did): "Recomputed on 5 Dec after a corrected result in Spring Swiss, round 2"."""
    earlier = Q(concerns_at__lte=archived.played_at) | Q(cause=Cause.REFIT)  # a refit redoes everything
    run = (RatingRun.objects.filter(earlier, status=RunStatus.DONE, finished_at__gt=archived.played_at)
           .exclude(cause=Cause.LATE, match_ref=archived.pk).order_by("-finished_at").first())
    if run is None or run.finished_at is None:
        return ""
    line = MoveLine(run.finished_at, 0.0, 0.0, why_words(run), "")
    return line.words[:1].upper() + line.words[1:]


def with_moves(lines: list[Any], moves: list[MoveLine], limit: int) -> list[Any]:
    """A player's changes list: his matches' lines and his moves, newest first, the first ``limit``."""
    def when(item: Any) -> datetime.datetime:
        return item.at if getattr(item, "is_move", False) else item.played_at

    return sorted([*lines, *moves], key=when, reverse=True)[:limit]
