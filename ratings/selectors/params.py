"""The parameters the model runs with on this site: the newest fit on the archive, else the defaults."""

from __future__ import annotations

from django.core.cache import cache

from ratings.core.fitting import params_from_json
from ratings.core.model import ModelParams
from ratings.models import BILKA_FOUR, RATED_GAMES, ModelFit, RatedGame

#: The model's defaults, in use until the first fit on the archive (``ratings.services.fitting``).
PARAMS = ModelParams()
PARAMS_KEY = "bilka:ratings:params"


def params_key(game: str = BILKA_FOUR) -> str:
    """Where a game's parameters are cached (a new fit of the game clears it)."""
    return PARAMS_KEY if game == BILKA_FOUR else f"{PARAMS_KEY}:{game}"


def model_params(game: str = BILKA_FOUR) -> ModelParams:
    """The parameters a game's ratings are computed with: its newest fit on the archive, else the
    defaults (a new site, or a game with no rated match yet). Cached briefly; a new
    fit clears the cache."""
    key = params_key(game)
    data = cache.get(key)
    if data is None:
        row = ModelFit.objects.filter(game=game).values_list("params", flat=True).first()
        data = row or {}
        cache.set(key, data, 300)
    return params_from_json(data) if data else PARAMS


def latest_fits() -> list[tuple[RatedGame, ModelFit | None]]:
    """Each rated game with the fit its ratings use (None: the defaults, no rated match fitted yet)."""
    newest: dict[str, ModelFit] = {}
    rows = ModelFit.objects.filter(game__in=[g.key for g in RATED_GAMES])
    for fit in rows.order_by("game", "-fitted_at", "-pk"):
        newest.setdefault(fit.game, fit)
    return [(game, newest.get(game.key)) for game in RATED_GAMES]
