"""Local development: the embedded defaults (SQLite, embedded Redis) unless the environment says otherwise."""

from .base import *  # noqa: F401,F403
from .base import env

DEBUG = env.bool("DEBUG", default=True)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]"])
# The site bin/site serves on its PORT, under each name ALLOWED_HOSTS gives it.
_port = env.int("PORT", default=8000)
BILKA_WS_ORIGINS = env.list("BILKA_WS_ORIGINS", default=[f"http://{host}:{_port}" for host in ALLOWED_HOSTS])
