"""The fair-play review read from the archive: the finished online matches with records that a
user may see (the archive's one visibility rule), each seat's decisions reviewed by the engine's
statistic (`gameplay.engine.fairplay`), and the decisions combined per player.

Only matches played online (a live table or a tournament's online table) and kept with their
record are reviewed: an uploaded record or an over-the-board result says nothing of what a seat
could see. A player's verdict is a p-value for organisers and staff to look at, never a verdict:
the note in docs/fairplay.md says what it can and cannot show.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import QuerySet
from django.urls import reverse

from archive.models import ArchivedMatch, FairPlayReview, FairPlayRow, MatchSource, SeatKind
from archive.selectors import seat_name, visible_matches
from gameplay.engine import fairplay
from gameplay.engine.cards import SEATS
from gameplay.engine.errors import EngineError
from gameplay.words import SUIT_SYMBOL, rank_words, seat_letter

ONLINE = (MatchSource.TABLE, MatchSource.TOURNAMENT)


@dataclass
class PlayerReview:
    """One player's decisions over the reviewed matches, and their combined verdict."""

    key: str
    name: str
    matches: set[int] = field(default_factory=set)
    decisions: list[tuple[int, fairplay.Decision]] = field(default_factory=list)
    verdict: fairplay.Verdict | None = None

    def heaviest(self, n: int = 5) -> list[dict[str, Any]]:
        """The decisions that pushed the statistic most towards "sees the cards", each with the
        address of its replay position."""
        verdict = self.verdict or fairplay.combine([d for _, d in self.decisions])
        match_of = {id(d): m for m, d in self.decisions}
        out = []
        for d in fairplay.heaviest([d for _, d in self.decisions], verdict, n):
            match_id = match_of[id(d)]
            url = reverse("archive:match", args=[match_id]) + f"?deal={d.deal}&card={d.ply}"
            out.append({"match": match_id, "decision": d, "url": url, "weight": d.weight(verdict.sd),
                        "sample_mean": sum(d.sample_losses) / len(d.sample_losses)})
        return out


def reviewable_matches(user: Any, *, tournament: int | None = None, club: int | None = None,
                       player: int | None = None) -> QuerySet[ArchivedMatch]:
    """The finished online matches of Bilka with records that `user` may see, oldest first (the
    review replays each through Bilka's solver: another game's match, whose rules name it, is left out)."""
    matches = (visible_matches(user).filter(source__in=ONLINE, has_record=True).exclude(record=None)
               .exclude(rules__has_key="game"))
    if tournament is not None:
        matches = matches.filter(tournament=tournament)
    if club is not None:
        matches = matches.filter(club_id=club)
    if player is not None:
        matches = matches.filter(seats__player_id=player)
    return matches.order_by("played_at", "pk").prefetch_related("seats__player")


def _seat_key(seat: Any) -> str | None:
    if seat.kind == SeatKind.PLAYER and seat.player_id is not None:
        return f"player:{seat.player_id}"
    if seat.kind == SeatKind.BOT:
        return f"bot:{seat.bot_level or '-'}"
    return None  # a guest has no identity to gather his matches under


def review_players(user: Any, *, tournament: int | None = None, club: int | None = None,
                   player: int | None = None, samples: int = fairplay.SAMPLES, partner_known: bool = False,
                   bots: bool = False, margin: float = fairplay.MARGIN) -> tuple[list[PlayerReview], int]:
    """Every player's review over the matches `user` may see (bots too with `bots`: they are
    honest by construction, a check of the statistic on the archive's own games), most suspect
    first; and the number of matches skipped because their record does not replay."""
    reviews: dict[str, PlayerReview] = {}
    skipped = 0
    for match in reviewable_matches(user, tournament=tournament, club=club, player=player):
        wanted: dict[str, str] = {}
        for seat in match.seats.all():
            key = _seat_key(seat)
            if key is None or (key.startswith("bot:") and not bots):
                continue
            if player is not None and key != f"player:{player}":
                continue
            wanted[SEATS[seat.seat]] = key
            reviews.setdefault(key, PlayerReview(key=key, name=seat_name(seat)))
        if not wanted:
            continue
        try:
            decisions = fairplay.review_record(match.record, seats="".join(wanted),
                                               key=match.record_hash or str(match.pk), samples=samples,
                                               partner_known=partner_known)
        except (EngineError, ValueError):
            skipped += 1
            continue
        for d in decisions:
            review = reviews[wanted[d.seat]]
            review.matches.add(match.pk)
            review.decisions.append((match.pk, d))
    for review in reviews.values():
        review.verdict = fairplay.combine([d for _, d in review.decisions], margin=margin)
    return sorted(reviews.values(), key=lambda r: r.verdict.p if r.verdict else 1.0), skipped


def is_review_staff(user: Any) -> bool:
    """The site's staff who may review any player: those who see every archived match."""
    return bool(user is not None and user.is_authenticated and user.is_staff
                and user.has_perm("archive.view_archivedmatch"))


def has_online_matches(*, tournament: int) -> bool:
    """Whether an event has any match played online and kept with its record (a review has
    something to read)."""
    return ArchivedMatch.objects.filter(tournament=tournament, source__in=ONLINE, has_record=True).exists()


def stored_review(*, tournament: int | None = None, club: int | None = None,
                  player: int | None = None) -> FairPlayReview | None:
    """The stored review of one scope, if one was ever asked for."""
    given = {"tournament": tournament, "club_id": club, "player_id": player}
    scope = next((f"{k.removesuffix('_id')}:{v}" for k, v in given.items() if v is not None), None)
    return FairPlayReview.objects.filter(scope_key=scope).first() if scope else None


def _shown(rows: list[FairPlayRow], viewer: Any) -> list[FairPlayRow]:
    """The rows with each one's heaviest decisions cut to the matches `viewer` may see (the review
    was read as the person who asked for it; another organiser or staff member may see less)."""
    wanted = {h["match"] for row in rows for h in row.heaviest}
    visible = set(visible_matches(viewer).filter(pk__in=wanted).values_list("pk", flat=True))
    ranks = rank_words()
    for row in rows:
        row.p_text, row.p_holm_text = f"{row.p:.2g}", f"{row.p_holm:.2g}"  # type: ignore[attr-defined]
        row.p_partner_text = "—" if row.p_partner is None else f"{row.p_partner:.2g}"  # type: ignore[attr-defined]
        row.shown = [h for h in row.heaviest if h["match"] in visible]  # type: ignore[attr-defined]
        row.hidden = len(row.heaviest) - len(row.shown)  # type: ignore[attr-defined]
        for h in row.shown:  # type: ignore[attr-defined]
            h["card_number"] = h["ply"] + 1
            h["seat_name"] = seat_letter(h["seat"])
            # as the replay draws it: the rank in the reader's words and the suit's sign
            h["card_name"] = f"{ranks[h['card'][0]]}{SUIT_SYMBOL[h['card'][1]]}"
    return rows


def review_rows(review: FairPlayReview, viewer: Any) -> list[FairPlayRow]:
    """A stored review's players, most suspect first, as `viewer` may see their decisions."""
    return _shown(list(review.rows.select_related("player")), viewer)


def player_rows(player: int, viewer: Any) -> list[FairPlayRow]:
    """One player's rows in every stored review, the newest first, as `viewer` may see them."""
    rows = (FairPlayRow.objects.filter(player_id=player).exclude(review__finished_at=None)
            .select_related("review", "review__club").order_by("-review__finished_at", "review__pk"))
    return _shown(list(rows), viewer)
