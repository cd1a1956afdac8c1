"""Production: everything from the environment, secure by default (passes `check --deploy`)."""

from .base import *  # noqa: F401,F403
from .base import CHANNEL_LAYERS, channel_layer_host, env, redis_cache

DEBUG = False
SECRET_KEY = env("SECRET_KEY")
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS")
# Websockets only from the site's own https pages: BILKA_WS_ORIGINS, else CSRF_TRUSTED_ORIGINS,
# else https:// and each plain name of ALLOWED_HOSTS (no wildcard ones).
BILKA_WS_ORIGINS = env.list(
    "BILKA_WS_ORIGINS",
    default=env.list("CSRF_TRUSTED_ORIGINS", default=[])
    or [f"https://{host}" for host in ALLOWED_HOSTS if host and not host.startswith(".") and "*" not in host],
)

# No silent embedded fallbacks in production: a missing DATABASE_URL is an error, not a SQLite file.
DATABASES = {"default": env.db("DATABASE_URL")}
DATABASES["default"]["CONN_MAX_AGE"] = 0  # ASGI: see base.py
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True

REDIS_URL = env("REDIS_URL", default="redis://127.0.0.1:6379/0")
CHANNEL_LAYERS["default"]["CONFIG"]["hosts"] = [channel_layer_host(REDIS_URL)]
CELERY_BROKER_URL = env("CELERY_BROKER_URL", default=REDIS_URL)
CELERY_RESULT_BACKEND = env("CELERY_RESULT_BACKEND", default=REDIS_URL)
CACHES = redis_cache(REDIS_URL, "bilka")

SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
# Load balancers and monitors probe /health/ over plain HTTP inside the network.
SECURE_REDIRECT_EXEMPT = [r"^health/$"]
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
EMAIL_BACKEND = env("EMAIL_BACKEND", default="django.core.mail.backends.smtp.EmailBackend")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Hashed names so WhiteNoise can serve static files with far-future cache headers.
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

# Web Push: the key pair comes from VAPID_PRIVATE_KEY / VAPID_PUBLIC_KEY (docs/deploy.md); without
# them the "Notify me on this phone" button is not shown and no push is sent.
VAPID_KEY_FILE = None
