"""URL configuration."""

from django.contrib import admin
from django.urls import include, path

from config.views import health

handler400 = "config.views.bad_request"
handler500 = "config.views.server_error"

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("health/", health, name="health"),
    path("", include("webhooks.urls")),  # before the API: its event stream lives under /api/v1/
    path("api/", include("api.urls")),
    path("", include("gameplay.urls")),
    path("", include("archive.urls")),
    path("", include("clubs.urls")),
    path("", include("tournaments.urls")),
    path("", include("ratings.urls")),
]
