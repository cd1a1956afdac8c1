"""The webhooks' addresses: a club's hooks page, and the event stream beside the API's tournament routes.

Included from config/urls.py before the API, so ``/api/v1/tournaments/<slug>/events/`` is served
here while the API app knows nothing of it.
"""

from django.urls import path

from . import views

app_name = "webhooks"
urlpatterns = [
    path("clubs/<slug:slug>/webhooks/", views.hooks, name="hooks"),
    path("clubs/<slug:slug>/webhooks/<int:pk>/toggle/", views.hook_toggle, name="hook_toggle"),
    path("clubs/<slug:slug>/webhooks/<int:pk>/delete/", views.hook_delete, name="hook_delete"),
    path("api/v1/tournaments/<slug:slug>/events/", views.tournament_events, name="stream"),
]
