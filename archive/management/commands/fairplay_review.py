"""Review the online matches a user may see for fair play, and print per player the decisions, the
statistic, its p-value and the decisions that weighed most."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from archive.fairplay_selectors import review_players
from gameplay.engine import fairplay


class Command(BaseCommand):
    help = (
        "Compares each player's cards with the real hidden hands and with layouts he could not tell "
        "from them (docs/fairplay.md), over the finished online matches with records that the user "
        "given by --as may see. Prints per player the decisions reviewed, how many told anything, "
        "Z, the one-sided p-value and the heaviest decisions with their replay positions, most "
        "suspect first. A small p is a reason to look at the games, never a verdict."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--as", dest="username", required=True,
                            help="review what this user may see in the archive (staff: every match)")
        parser.add_argument("--tournament", type=int, help="only this tournament's matches")
        parser.add_argument("--club", type=int, help="only this club's matches")
        parser.add_argument("--player", type=int, help="only this player (by his player id)")
        parser.add_argument("--samples", type=int, default=fairplay.SAMPLES,
                            help="layouts drawn per decision")
        parser.add_argument("--partner-known", action="store_true",
                            help="draw only the opponents' hands (tests a partnership for sharing cards)")
        parser.add_argument("--bots", action="store_true", help="review the bots' seats too (a check)")
        parser.add_argument("--alpha", type=float, default=0.05,
                            help="family-wise level; the threshold is alpha / players reviewed")
        parser.add_argument("--margin", type=float, default=fairplay.MARGIN,
                            help="flag only an effect beyond this many standard deviations per decision "
                                 "(0: the plain test, which also flags players who read the play well)")
        parser.add_argument("--top", type=int, default=5, help="heaviest decisions shown per player")

    def handle(self, *args: Any, username: str, tournament: int | None = None, club: int | None = None,
               player: int | None = None, samples: int = fairplay.SAMPLES, partner_known: bool = False,
               bots: bool = False, alpha: float = 0.05, margin: float = fairplay.MARGIN, top: int = 5,
               **options: Any) -> None:
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"there is no user {username!r}")
        if samples < 1:
            raise CommandError("--samples must be at least 1")
        if not 0 < alpha < 1:
            raise CommandError("--alpha must be between 0 and 1")
        if margin < 0:
            raise CommandError("--margin must not be negative")
        reviews, skipped = review_players(user, tournament=tournament, club=club, player=player,
                                          samples=samples, partner_known=partner_known, bots=bots,
                                          margin=margin)
        reviews = [r for r in reviews if r.decisions]
        if not reviews:
            self.stdout.write("No decision to review: no finished online match with a record is visible "
                              "to this user under these filters.")
            return
        threshold = alpha / len(reviews)
        test = "the partner's hand known" if partner_known else "the plain test"
        self.stdout.write(f"{len(reviews)} players, {samples} layouts per decision, {test}; "
                          f"effect margin {margin}; threshold p < {alpha} / {len(reviews)} = {threshold:.2g}"
                          + (f"; {skipped} matches whose record does not replay skipped" if skipped else ""))
        for review in reviews:
            v = review.verdict
            assert v is not None  # noqa: S101 - set by review_players
            mark = "  below the threshold: look at the games" if v.p < threshold else ""
            self.stdout.write(f"{review.name} [{review.key}]: {len(review.matches)} matches, "
                              f"{v.decisions} decisions ({v.informative} telling), Z = {v.z:.2f}, "
                              f"effect = {v.effect:.2f}, "
                              f"p = {v.p:.2g}{mark}")
            for h in review.heaviest(top):
                d = h["decision"]
                self.stdout.write(f"    match {h['match']} deal {d.deal} card {d.ply + 1} "
                                  f"({d.seat} {d.card}): "
                                  f"lost {d.real_loss} on the real hands, {h['sample_mean']:.1f} on average "
                                  f"on the layouts; weight {h['weight']:.2f}  {h['url']}")
