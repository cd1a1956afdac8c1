"""The parameters the model runs with on this site: the newest fit on the archive, else the defaults."""

from __future__ import annotations

from django.core.cache import cache

from ratings.core.fitting import params_from_json
from ratings.core.model import ModelParams
from ratings.models import BILKA_FOUR, ModelFit

#: The model's defaults, in use until the first fit on the archive (``ratings.services.fitting``).
PARAMS = ModelParams()
PARAMS_KEY = "bilka:ratings:params"


def model_params() -> ModelParams:
    """The parameters every rating is computed with: the newest fit on the archive, else the
    defaults (a new site). Cached briefly; a new fit clears the cache."""
    data = cache.get(PARAMS_KEY)
    if data is None:
        row = ModelFit.objects.filter(game=BILKA_FOUR).values_list("params", flat=True).first()
        data = row or {}
        cache.set(PARAMS_KEY, data, 300)
    return params_from_json(data) if data else PARAMS


def latest_fit() -> ModelFit | None:
    """The fit in use (None on a new site, which runs on the defaults)."""
    return ModelFit.objects.filter(game=BILKA_FOUR).first()
