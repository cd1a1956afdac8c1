"""The site's model parameters come from its own archive: fitted on a schedule, stored, used."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django_celery_beat.models import PeriodicTask

from config.schedule import REFIT_TASK, REFIT_TASK_NAME, ensure_periodic_tasks
from ratings.core.fitting import params_from_json
from ratings.core.model import ModelParams
from ratings.models import ModelFit, PlayerRating, RatingRun
from ratings.selectors import model_params, rating_state
from ratings.services import fitting
from ratings.services import recompute as ratings
from tests.ratings.test_ratings_site import _season, players  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db


def test_a_new_site_runs_on_the_defaults() -> None:
    assert model_params() == ModelParams()


def test_a_refit_is_stored_used_and_asks_for_a_recompute(players, django_capture_on_commit_callbacks):  # noqa: F811
    _season(players, n=12)
    with django_capture_on_commit_callbacks(execute=False):
        fit = fitting.refit(reason="asked by the test")
    assert fit.matches == 12 and fit.log_loss is not None
    assert RatingRun.objects.filter(reason=f"refit:{fit.pk}").exists()
    params = params_from_json(fit.params)
    assert model_params() == params
    assert rating_state().params == params
    ratings.recompute()
    assert PlayerRating.objects.count() == 8


def test_the_command_fits_and_rebuilds(players, capsys):  # noqa: F811
    _season(players, n=6)
    call_command("refit_ratings")
    assert ModelFit.objects.count() == 1
    assert "fitted on 6 matches" in capsys.readouterr().out


def test_the_nightly_refit_is_planned() -> None:
    ensure_periodic_tasks()
    plan = PeriodicTask.objects.get(name=REFIT_TASK_NAME)
    assert plan.task == REFIT_TASK and plan.crontab is not None


def test_only_staff_may_ask_for_a_refit(client, django_user_model) -> None:
    page = client.get("/ratings/how/")
    assert "Refit the model now" not in page.content.decode()
    assert client.post("/ratings/refit/").status_code == 302  # the sign-in page
    client.force_login(django_user_model.objects.create_user("player", password="x"))
    assert client.post("/ratings/refit/").status_code == 403
    staff = django_user_model.objects.create_user("staff", password="x", is_staff=True)
    client.force_login(staff)
    assert "Refit the model now" in client.get("/ratings/how/").content.decode()
    answer = client.post("/ratings/refit/")
    assert answer.status_code == 302 and answer["Location"].endswith("?refit=queued#model")
    assert "The refit is queued" in client.get(answer["Location"]).content.decode()


def test_each_game_is_fitted_on_its_own_matches(players, client):  # noqa: F811
    """Kozyol and Bilka for two get fits of their own, from their own matches, once they have any;
    every game's ratings are then computed with its own parameters."""
    from ratings.models import BILKA_FOUR, BILKA_TWO, KOZYOL
    from tests.clubs.factories import PlayerFactory
    from tests.ratings.other_games import BILKA_TWO as TWO_RULES
    from tests.ratings.other_games import KOZYOL as KOZYOL_RULES
    from tests.ratings.other_games import archive

    _season(players, n=6)
    people = [PlayerFactory(display_name=f"Козёл {i}") for i in range(4)]
    for seed in range(3):
        archive(KOZYOL_RULES, people, seed=seed, day=seed)
    fitting.refit(reason="asked by the test", queue_recompute=False)
    fits = {f.game: f for f in ModelFit.objects.all()}
    assert set(fits) == {BILKA_FOUR, KOZYOL}  # no Bilka for two played yet: it keeps the defaults
    assert (fits[BILKA_FOUR].matches, fits[KOZYOL].matches) == (6, 3)
    assert model_params(KOZYOL) == params_from_json(fits[KOZYOL].params)
    assert model_params(BILKA_TWO) == ModelParams()
    page = client.get("/ratings/how/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Каждая игра подбирается по своим матчам." in page
    assert "Белка: последний подбор" in page and "по 6 матчам" in page
    assert "Козёл хвалёный: последний подбор" in page and "по 3 матчам" in page
    assert "Белка на двоих: ещё не подобрано" in page
    for seed in range(2):
        archive(TWO_RULES, people[:2], seed=10 + seed, day=5 + seed)
    fitting.refit(reason="again", queue_recompute=False)
    two = ModelFit.objects.filter(game=BILKA_TWO).get()
    assert two.matches == 2 and model_params(BILKA_TWO) == params_from_json(two.params)
    assert ModelFit.objects.filter(game=KOZYOL).count() == 2
