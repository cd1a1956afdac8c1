"""The parameters the model runs with on this site: the newest fit on the archive, else the defaults."""

from __future__ import annotations

from django.core.cache import cache

from ratings.core.fitting import params_from_json
from ratings.core.model import ModelParams
from ratings.models import BILKA_FOUR, ModelFit

#: The model's defaults, in use until the first fit on the archive (``ratings.services.fitting``).
PARAMS = ModelParams()
PARAMS_KEY = "bilka:ratings:params"


def model_params(game: str = BILKA_FOUR) -> ModelParams:
    """The parameters a game's ratings are computed with: its newest fit on the archive, else the
    defaults (a new site; Kozyol and Bilka for two, which are not refitted). Cached briefly; a new
    fit clears the cache."""
    key = PARAMS_KEY if game == BILKA_FOUR else f"{PARAMS_KEY}:{game}"
    data = cache.get(key)
    if data is None:
        row = ModelFit.objects.filter(game=game).values_list("params", flat=True).first()
        data = row or {}
        cache.set(key, data, 300)
    return params_from_json(data) if data else PARAMS


def latest_fit() -> ModelFit | None:
    """The fit in use (None on a new site, which runs on the defaults)."""
    return ModelFit.objects.filter(game=BILKA_FOUR).first()
