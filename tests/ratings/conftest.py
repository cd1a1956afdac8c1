"""The rating pages are read in English, as the tournaments' are: the same two fixtures."""

from tests.tournaments.conftest import _english, client  # noqa: F401 - fixtures used by name
