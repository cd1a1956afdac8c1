"""The rating pages are read in English, as the tournaments' are: the same two fixtures; and
``deliver``, which runs the tasks a service queues on commit as the broker and a worker would."""

import pytest
from celery.canvas import Signature

from archive.tasks import match_changed_task
from ratings.services import recompute as ratings
from tests.tournaments.conftest import _english, client  # noqa: F401 - fixtures used by name


class Delivery:
    """What the broker and a worker do with the tasks a service queues on commit."""

    def __init__(self, monkeypatch, capture) -> None:
        self.queued: list[tuple[str, tuple, dict]] = []
        self.capture = capture
        monkeypatch.setattr(Signature, "apply_async",
                            lambda sig, *a, **k: self.queued.append((sig.task, tuple(sig.args),
                                                                     dict(sig.kwargs))))

    def __call__(self, action, *args, **kwargs):
        """Run ``action`` in its transaction, then every task it queued (and those they queue)."""
        with self.capture(execute=True):
            out = action(*args, **kwargs)
        while self.queued:
            task, args_, kwargs_ = self.queued.pop(0)
            with self.capture(execute=True):
                if task == "gameplay.match_changed":
                    match_changed_task.run(*args_, **kwargs_)
                elif task == ratings.RECOMPUTE_TASK:
                    ratings.run_recompute(run_id=args_[0])
        return out


@pytest.fixture
def deliver(monkeypatch, django_capture_on_commit_callbacks):
    return Delivery(monkeypatch, django_capture_on_commit_callbacks)
