"""The match page's ratings: each pair's chance and each player's move before the match, exactly
what learning it now would apply; after it, what it did to each player as stored, how it was learnt
(from its result alone, or its deals too) and, when a recompute has redone it since, when and why."""

from __future__ import annotations

from dataclasses import dataclass

from archive.models import ArchivedMatch
from archive.selectors import visible_matches
from ratings.selectors import Prediction, changes_of_match, predict_pairing
from ratings.selectors.moves import recomputed_note


@dataclass(frozen=True)
class Moved:
    """What a played match did to one player's rating."""

    player_id: int
    name: str
    before: float
    after: float
    weight: float

    @property
    def change(self) -> float:
        return self.after - self.before


@dataclass(frozen=True)
class MatchRatings:
    """The match page's rating part, and what happened, in ``state``:

    - "unrated": an unrated event; "before": no result yet, the chances and moves are shown;
    - "waiting": a result waits for confirmation ("disputed": the other pair disputes it);
      "learning": confirmed, the ratings are being worked out from it; "changed": what it did to
      each player (``home_moved``, ``away_moved``);
    - "unmoved": confirmed and learnt, but it moved nobody (a forfeit before the first card, a
      seat without a player); "hidden": confirmed, but the viewer may not see the match yet (its
      round is still running), so the changes are not shown to him (``learnt`` says whether the
      ratings have already changed from it).

    After the match, ``deals`` is how many of its deals were learnt (0: its result alone, as the
    preview reckoned), and ``recomputed`` says when and why a recompute redid it since.
    """

    rated: bool
    prediction: Prediction | None = None
    names: dict[int, str] | None = None
    home_moved: list[Moved] | None = None
    away_moved: list[Moved] | None = None
    state: str = "unrated"
    learnt: bool = False
    deals: int = 0
    recomputed: str = ""


def _moves_nobody(archived: ArchivedMatch) -> bool:
    """An archived match the model does not learn (``recompute.model_match``): a seat without a
    player, or a forfeit before the first card."""
    if archived.reason == "forfeit" and not archived.deal_count:
        return True
    return archived.seats.filter(player=None).exists() or archived.seats.count() < 4


def match_ratings(match: object, viewer: object) -> MatchRatings:
    """Before the match: each pair's chance and each player's win/loss move; after it: the change
    each player got from its archived match, when ``viewer`` may see that match."""
    m = match  # a tournaments Match with home and away loaded
    if not m.tournament.rated or m.bye or m.away_id is None:  # type: ignore[attr-defined]
        return MatchRatings(rated=bool(m.tournament.rated) and not m.bye)  # type: ignore[attr-defined]
    home, away = m.home, m.away  # type: ignore[attr-defined]
    names = {p.pk: p.display_name for p in (home.player_a, home.player_b, away.player_a, away.player_b)}
    archived = ArchivedMatch.objects.filter(tournament_match=m.pk).first()  # type: ignore[attr-defined]
    if archived is not None:
        changes = changes_of_match([archived.pk])
        if not visible_matches(viewer).filter(pk=archived.pk).exists():
            return MatchRatings(True, None, names, state="hidden", learnt=bool(changes))
        if not changes:
            return MatchRatings(True, None, names, state="unmoved" if _moves_nobody(archived) else "learning")

        def moved(ids: tuple[int, int]) -> list[Moved]:
            return [Moved(i, names[i], changes[i].before, changes[i].after, changes[i].weight)
                    for i in ids if i in changes]

        return MatchRatings(True, None, names, moved((home.player_a_id, home.player_b_id)),
                            moved((away.player_a_id, away.player_b_id)), state="changed", learnt=True,
                            deals=archived.deals.exclude(outcome="redeal").count(),
                            recomputed=recomputed_note(archived))
    if m.has_result:  # type: ignore[attr-defined]
        if m.status == "confirmed":  # type: ignore[attr-defined]
            return MatchRatings(True, None, names, state="unmoved")  # confirmed, never archived
        if m.status == "disputed":  # type: ignore[attr-defined]
            return MatchRatings(True, None, names, state="disputed")  # the organiser settles it
        return MatchRatings(True, None, names, state="waiting")  # reported, not confirmed yet
    p = predict_pairing((home.player_a_id, home.player_b_id), (away.player_a_id, away.player_b_id),
                        rules=m.tournament.rules, names=names)  # type: ignore[attr-defined]
    return MatchRatings(True, p, names, state="before")
