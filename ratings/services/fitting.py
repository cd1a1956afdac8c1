"""The model's parameters fitted on the archive (``ratings.core.fitting`` through
``ratings.core.learner.fit_params``), each game's on its own matches, stored as ``ModelFit``
rows, then every rating recomputed with them. Run nightly by beat (``config.schedule``) and when
staff ask (``manage.py refit_ratings``, the button on the ratings' explanation page); never at a
single correction, so a corrected result moves ratings by what it says, not by a new scale.
"""

from __future__ import annotations

from django.core.cache import cache
from django.db import transaction

from archive.models import ArchivedMatch
from ratings.core.fitting import params_to_json
from ratings.core.learner import REPLAY_LIMIT, fit_params, replay
from ratings.core.model import Match
from ratings.models import BILKA_GAME, RATED_GAMES, ModelFit, RatedGame
from ratings.selectors import day_of, model_params, params_key
from ratings.services import moves, recompute

#: The Celery name of the refit task (``ratings.tasks``; config.schedule plans it nightly).
REFIT_TASK = "ratings.refit_model"


def latest_matches(limit: int = REPLAY_LIMIT, game: RatedGame = BILKA_GAME) -> list[Match]:
    """The latest ``limit`` rated matches of ``game`` as the model reads them, oldest first (with the
    farming guard's weights, its memory starting at the first of them)."""
    rated = recompute.of_game(ArchivedMatch.objects.filter(rated=True), game)
    newest = list(rated.order_by("-played_at", "-pk").values_list("pk", flat=True)[:limit])
    farming = recompute.Farming()
    out: list[Match] = []
    for m, seats, deals in recompute.batches(ArchivedMatch.objects.filter(pk__in=newest), game=game):
        day = day_of(m.played_at)
        players = recompute.in_play(seats, game)
        weight = farming.weight(m, players, day) if all(players) else 1.0
        match = recompute.model_match(m, seats, deals, weight)
        if match is not None:
            out.append(match)
    return out


def refit(*, reason: str, queue_recompute: bool = True) -> ModelFit:
    """Fit each game's parameters on its own latest matches, store them, and ask for a recompute
    with them (``queue_recompute``; a caller that recomputes itself says False). Bilka's fit is
    returned; Kozyol and Bilka for two are fitted too once they have rated matches (until then
    they run on the defaults), so each game's ratings learn their own spread, drift and deals."""
    fitted: list[ModelFit] = []
    for game in RATED_GAMES:  # the fits first, outside the transaction: it only writes their rows
        matches = latest_matches(game=game)
        if not matches and game.key != BILKA_GAME.key:
            continue
        params, _ = fit_params(matches, model_params(game.key))
        _, loss, _ = replay(matches, params) if matches else (None, None, None)
        fitted.append(ModelFit(game=game.key, matches=len(matches), params=params_to_json(params),
                               log_loss=loss, reason=reason[:200]))
    with transaction.atomic():
        for fit in fitted:
            fit.save()
        keys = [params_key(fit.game) for fit in fitted]
        transaction.on_commit(lambda: cache.delete_many(keys))
        if queue_recompute:
            recompute.request_recompute(reason=f"refit:{fitted[0].pk}", why=moves.REFIT)
    cache.delete_many(keys)
    return fitted[0]
