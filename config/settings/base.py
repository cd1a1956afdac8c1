"""Settings shared by every environment; everything that differs comes from the environment."""

from datetime import timedelta
from pathlib import Path

import environ

from config import inline_css

BASE_DIR = Path(__file__).resolve().parent.parent.parent

env = environ.Env()
if (BASE_DIR / ".env").exists():
    # A developer's local overrides; the real environment always wins.
    environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

# Local state (SQLite, collected static files, the embedded Redis); a second site runs from its own.
VAR_DIR = Path(env("BILKA_VAR_DIR", default=str(BASE_DIR / "var")))

SECRET_KEY = env("SECRET_KEY", default="dev-only-secret-key-not-for-production-use-0123456789abcdef")
DEBUG = env.bool("DEBUG", default=False)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])
# The only pages whose scripts may open a websocket, each as scheme://host[:port]: scheme and port
# count (config/asgi.py), so a page served by anything else on the same host is refused. Each
# settings module fills it for its own servers; a missing Origin header is always refused.
BILKA_WS_ORIGINS: list[str] = env.list("BILKA_WS_ORIGINS", default=[])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "allauth",
    "allauth.account",
    "axes",
    "csp",
    "channels",
    "django_celery_beat",
    "django_htmx",
    "rest_framework",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "config",
    "clubs",
    "gameplay",
    "archive",
    "ratings",
    "tournaments",
    "webhooks",
    "api",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "clubs.middleware.RememberLanguage",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, as django-axes asks: it turns a refused sign-in into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "tournaments.context_processors.unread_notifications",
            ],
        },
    },
]

# --- Database: PostgreSQL through psycopg 3 when DATABASE_URL is set, else an embedded SQLite file.
DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'bilka.sqlite3'}"),
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Daphne, the Celery worker and beat share one file: WAL, a busy timeout and
    # immediate transactions keep them from "database is locked" (STACK-NOTES.md).
    DATABASES["default"]["OPTIONS"] = {
        "init_command": "PRAGMA journal_mode=WAL;PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
    }
# Under ASGI a persistent connection leaks across threads (STACK-NOTES.md).
DATABASES["default"]["CONN_MAX_AGE"] = 0
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis: channel layer, Celery broker and results. The default is the embedded Redis that
# bin/site starts on its own port (never 6379, where a machine's Redis usually listens).
REDIS_URL = env("REDIS_URL", default="redis://127.0.0.1:6390/0")


def channel_layer_host(url: str) -> dict:
    """One channel-layer host with the socket options the channel layer needs.

    The layer is channels-redis' `RedisPubSubChannelLayer` (below). Its receiver polls
    `PubSub.get_message(timeout=0.1)`, an explicit read timeout, so an idle websocket never
    waits on redis-py 8's default 5 s `socket_timeout` there; the read timeout still bounds the
    replies to PUBLISH/SUBSCRIBE and, should the list layer (`RedisChannelLayer`, which blocks
    5 s in BZPOPMIN, django/channels_redis#422) be configured again, must stay longer than that
    block: 30 s keeps both valid (tests/config/test_notifications.py holds an idle socket 7 s).
    The pool may grow past redis-py's 100 connections (a burst of websocket connects needed more
    with the list layer; the pubsub layer uses two per process).
    """
    return {
        "address": url,
        "socket_timeout": 30,
        "socket_connect_timeout": 5,
        "max_connections": env.int("CHANNELS_MAX_CONNECTIONS", default=1000),
    }


# Pub/sub: one PUBLISH per group message, delivered straight to the processes subscribed, no
# per-channel lists to poll. Measured on 2 cores (bench/ws/load.py, 2,000 sockets): the list
# layer saturated at 50 moves/s, pub/sub kept up. Delivery is at most once and there is no
# channel capacity: numbered events and `sync` let a client recover (gameplay/tables/broadcast.py).
# `group_add` only takes channels of this process (consumers always pass self.channel_name).
CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
        "CONFIG": {
            "hosts": [channel_layer_host(REDIS_URL)],
            "prefix": env("CHANNELS_PREFIX", default="bilka"),
        },
    },
}

CELERY_BROKER_URL = env("CELERY_BROKER_URL", default=REDIS_URL)
CELERY_RESULT_BACKEND = env("CELERY_RESULT_BACKEND", default=REDIS_URL)


def redis_cache(url: str, prefix: str) -> dict:
    """Django's cache in Redis, shared by every process of the site (counters of wrong PINs
    must be seen by all web workers, not kept per process)."""
    return {
        "default": {
            "BACKEND": "config.cache.RedisCache",
            "LOCATION": url,
            "KEY_PREFIX": prefix,
        }
    }


CACHES = redis_cache(REDIS_URL, "bilka")
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
CELERY_TIMEZONE = "UTC"
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_RESULT_EXPIRES = 24 * 3600  # Redis expires results itself; nothing piles up.
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
# A prefork worker child keeps its database connection across tasks (config/celery.py): Celery's
# fix-up closes it every CELERY_DB_REUSE_MAX tasks, Django when it is broken or this many seconds old.
CELERY_DB_REUSE_MAX = 1000
WORKER_CONN_MAX_AGE = 300

# --- Accounts (django-allauth).
AUTH_USER_MODEL = "clubs.User"
AUTHENTICATION_BACKENDS = [
    "clubs.auth_backends.SignInGuardBackend",  # first: a locked pair never reaches a password check
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "username*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "optional"
ACCOUNT_LOGOUT_ON_GET = False
# Django's own check (letters, digits and @.+-_) and one that the name can be read: the Hangul
# fillers count as letters for Django, and a name of only those showed as nothing at all.
ACCOUNT_USERNAME_VALIDATORS = "clubs.text_fields.USERNAME_VALIDATORS"
# Wrong passwords are slowed by django-axes per (account, address) pair, never per account alone:
# a stranger failing on a finalist's name locks only himself out, and the lock lifts by itself
# after the cool-off, a minute (no admin needed on a tournament day). Typing more during the lock
# does not extend it. allauth's own per-account limit would let that stranger lock the finalist out
# everywhere, so only its per-address limit is kept, wide enough for a hall behind one address.
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = timedelta(minutes=1)
AXES_RESET_ON_SUCCESS = True
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_USERNAME_CALLABLE = "clubs.views.lockout.attempt_name"
AXES_LOCKOUT_CALLABLE = "clubs.views.lockout.locked_out"
AXES_CLIENT_IP_CALLABLE = "clubs.addresses.client_address"
AXES_HTTP_RESPONSE_CODE = 429
# allauth counts sign-ins per address (the client's: clubs.adapter) over a sliding minute, enough for
# a hall of 200 phones behind one address each signing in after a typo; no per-account limit (above).
ACCOUNT_ADAPTER = "clubs.adapter.AccountAdapter"
ACCOUNT_RATE_LIMITS = {"login": "500/m/ip", "login_failed": "300/m/ip"}

# The proxies in front of the site, addresses or networks (127.0.0.1,::1 for nginx on this machine):
# only their X-Forwarded-For is believed (clubs/addresses.py, which checks it at start-up). None by
# default: the peer's address is the client's, whatever the request says.
TRUSTED_PROXIES: list[str] = env.list("TRUSTED_PROXIES", default=[])
LOGIN_REDIRECT_URL = "/"
#: The site's own address as the world reaches it: a shared deal's Open Graph tags name their page and
#: picture by absolute addresses, which a link preview needs whatever host the request came by.
SITE_URL = env("SITE_URL", default="http://localhost:8000").rstrip("/")
LOGIN_URL = "account_login"
# Web Push (config/webpush.py): the site's VAPID key pair signs every push to a phone. Unset, a
# pair is made once and kept in VAPID_KEY_FILE (development and tests; production sets the keys).
VAPID_PRIVATE_KEY = env("VAPID_PRIVATE_KEY", default="")
VAPID_PUBLIC_KEY = env("VAPID_PUBLIC_KEY", default="")
VAPID_SUBJECT = env("VAPID_SUBJECT", default="mailto:noreply@bilka.local")
VAPID_KEY_FILE = VAR_DIR / "vapid_private.pem"

DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", default="Bilka <noreply@bilka.local>")
EMAIL_BACKEND = env("EMAIL_BACKEND", default="django.core.mail.backends.console.EmailBackend")

# --- Languages: the players speak Russian, Kazakh and Ukrainian; English for guests.
LANGUAGE_CODE = "ru"
LANGUAGES = [
    ("ru", "Русский"),
    ("kk", "Қазақша"),
    ("uk", "Українська"),
    ("en", "English"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# One way of writing dates and times per language, 24-hour clock everywhere (config/formats/).
FORMAT_MODULE_PATH = ["config.formats"]
TIME_ZONE = env("TIME_ZONE", default="Asia/Almaty")
USE_I18N = True
USE_TZ = True

# What one account may found and invite (clubs/services/limits.py): a few clubs a day, some tens of
# invitations an hour; site staff are not limited.
BILKA_CLUBS_PER_DAY = env.int("BILKA_CLUBS_PER_DAY", default=3)
BILKA_INVITATIONS_PER_HOUR = env.int("BILKA_INVITATIONS_PER_HOUR", default=30)

# Visitors' copies of the public pages answered in front of Django (config/visitors.py); off only
# to compare (bench/web/load.py --no-copies).
VISITOR_COPIES = env.bool("VISITOR_COPIES", default=True)
# On: after a change to a tournament commits, the site's Celery worker works its public pages out
# again (config.fresh); readers get the pages before it for at most a second
# meanwhile. Off (the default): the first reader after the change works them out in the web
# process. Off because on the shared two-core machine the worker, starved of a core by the load
# generator and the server, took longer than that: fresh after 1.2-2.3 s with it, 0.9-1.5 s without
# (README, "Load figures"); to measure again where a core is free for it (bench/web/load.py --refresh).
PUBLIC_PAGES_REFRESH = env.bool("PUBLIC_PAGES_REFRESH", default=False)

# --- Content-Security-Policy (django-csp): scripts and styles only from the site's own files, so a
# name or a chat line that slipped past escaping could never run. No template has inline script or
# event handlers (data blocks are json_script, not executed); `request.csp_nonce` is there for one
# that must. 'self' covers the site's own websockets (ws:/wss: of the same host).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        # and the stylesheets some pages carry inline, by their hashes (config/inline_css.py)
        "style-src": ["'self'", *inline_css.csp_hashes()],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", default="INFO")},
    "loggers": {"django.channels.server": {"level": "WARNING"}},
}

# --- Live tables (gameplay): bots, the move clock, their workers' queues, socket limits.
from .tables import *  # noqa: E402, F403

# --- Tournament day. A table without a result is shown as stuck on the organiser's dashboard (with
# its forfeit buttons) only after its round's deadline, or this many minutes after the round started.
TOURNAMENTS_STUCK_AFTER_MINUTES = env.int("TOURNAMENTS_STUCK_AFTER_MINUTES", default=45)

# --- Ratings. A player appears on the leaderboards after this many rated matches.
RATING_BOARD_MIN_MATCHES = env.int("RATING_BOARD_MIN_MATCHES", default=5)

# --- Backups (config/backups.py, `manage.py backup_database`, the nightly plan in config/schedule.py).
# The folder is on the machine of the worker that runs the nightly task: with workers on several
# machines, name a queue only the backup machine's worker reads (BACKUP_QUEUE) or share the folder.
BACKUP_DIR = Path(env("BACKUP_DIR", default=str(VAR_DIR / "backups")))
BACKUP_KEEP = env.int("BACKUP_KEEP", default=14)  # the newest dumps of the database kept; older ones go
BACKUP_QUEUE = env("BACKUP_QUEUE", default=None)  # the nightly plan's queue (None: Celery's default)

# Webhooks and the event stream (webhooks/, docs/webhooks.md). Hosts (host or host:port) a hook may
# reach over http and on a loopback or private address: for tests and a developer's own receiver,
# never in production, where every hook is https to a public address.
WEBHOOKS_ALLOWED_TEST_HOSTS = env.list("WEBHOOKS_ALLOWED_TEST_HOSTS", default=[])
WEBHOOKS_DISABLE_AFTER = env.int("WEBHOOKS_DISABLE_AFTER", default=20)  # failed attempts in a row
WEBHOOKS_KEEP_DAYS = env.int("WEBHOOKS_KEEP_DAYS", default=30)  # events older than this are forgotten
WEBHOOKS_STREAM_SECONDS = env.int("WEBHOOKS_STREAM_SECONDS", default=600)  # then the client reconnects
WEBHOOKS_STREAM_POLL = 2  # seconds between the stream's looks for new events

# --- The public API (api/): read by anyone as the pages are, results written with a key from the
# account page. Keys are counted per key, every caller per address; the counters live in the Redis
# cache, so all web workers share them.
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["api.authentication.BearerTokenAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["api.permissions.ReadOrWriteScope"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["api.parsers.UntrustedJSONParser"],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "api.pagination.Pages",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_THROTTLE_CLASSES": ["api.throttles.PerToken", "api.throttles.PerAddress"],
    "DEFAULT_THROTTLE_RATES": {
        "token": env("API_RATE_PER_TOKEN", default="600/min"),
        "address": env("API_RATE_PER_ADDRESS", default="1200/min"),
    },
    "EXCEPTION_HANDLER": "api.errors.handle",
    "URL_FORMAT_OVERRIDE": None,  # ?format= is the tournaments' filter (swiss, knockout...), not a renderer
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}
# The largest JSON body the API reads (api/parsers.py); a write's body is a few fields.
API_MAX_BODY_BYTES = env.int("API_MAX_BODY_BYTES", default=65536)
SPECTACULAR_SETTINGS = {
    "TITLE": "Bilka API",
    "DESCRIPTION": (
        "Clubs, players, tournaments with their rounds, pairings and standings, the archive of played "
        "matches and the ratings, as the site's pages show them. Results are entered with a key made "
        "on the account page (`Authorization: Bearer <key>`)."
    ),
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "SCHEMA_PATH_PREFIX": r"/api/v1",
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "api.schema.add_error_responses",
    ],
    "ENUM_NAME_OVERRIDES": {
        "EntryKindEnum": [("pair", "pair"), ("player", "player")],
        "SeriesLengthEnum": [(1, 1), (3, 3), (5, 5)],  # matches per tie (api.organiser_serializers)
        "ByeRequestsEnum": ["half", "zero"],  # what a requested bye scores ("" for none is BlankEnum)
    },
}
