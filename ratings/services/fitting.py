"""The model's parameters fitted on the archive (``ratings.core.fitting`` through
``ratings.core.learner.fit_params``), stored as a ``ModelFit`` row, then every rating recomputed
with them. Run nightly by beat (``config.schedule``) and when staff ask (``manage.py
refit_ratings``, the button on the ratings' explanation page); never at a single correction, so
a corrected result moves ratings by what it says, not by a new scale.
"""

from __future__ import annotations

from django.core.cache import cache
from django.db import transaction

from archive.models import ArchivedMatch
from ratings.core.fitting import params_to_json
from ratings.core.learner import REPLAY_LIMIT, fit_params, replay
from ratings.core.model import Match
from ratings.models import BILKA_FOUR, BILKA_GAME, ModelFit
from ratings.selectors import PARAMS_KEY, day_of, model_params
from ratings.services import moves, recompute

#: The Celery name of the refit task (``ratings.tasks``; config.schedule plans it nightly).
REFIT_TASK = "ratings.refit_model"


def latest_matches(limit: int = REPLAY_LIMIT) -> list[Match]:
    """The latest ``limit`` rated matches of Bilka as the model reads them, oldest first (with the
    farming guard's weights, its memory starting at the first of them). The fit is Bilka's: the
    other games' ratings run on the defaults (docs/ratings.md)."""
    bilka = recompute.of_game(ArchivedMatch.objects.filter(rated=True), BILKA_GAME)
    newest = list(bilka.order_by("-played_at", "-pk")
                  .values_list("pk", flat=True)[:limit])
    farming = recompute.Farming()
    out: list[Match] = []
    for m, seats, deals in recompute.batches(ArchivedMatch.objects.filter(pk__in=newest)):
        day = day_of(m.played_at)
        weight = farming.weight(m, seats, day) if all(seats) else 1.0
        match = recompute.model_match(m, seats, deals, weight)
        if match is not None:
            out.append(match)
    return out


def refit(*, reason: str, queue_recompute: bool = True) -> ModelFit:
    """Fit the parameters on the latest matches, store them, and ask for a recompute with them
    (``queue_recompute``; a caller that recomputes itself says False)."""
    matches = latest_matches()
    params, _ = fit_params(matches, model_params())
    _, loss, _ = replay(matches, params) if matches else (None, None, None)
    with transaction.atomic():
        fit = ModelFit.objects.create(game=BILKA_FOUR, matches=len(matches), params=params_to_json(params),
                                      log_loss=loss, reason=reason[:200])
        transaction.on_commit(lambda: cache.delete(PARAMS_KEY))
        if queue_recompute:
            recompute.request_recompute(reason=f"refit:{fit.pk}", why=moves.REFIT)
    cache.delete(PARAMS_KEY)
    return fit
