"""Club, player and account pages."""

from django.urls import path

from . import views

app_name = "clubs"
urlpatterns = [
    path("", views.home, name="home"),
    path("clubs/", views.club_list, name="club_list"),
    path("clubs/new/", views.club_create, name="club_create"),
    path("players/", views.player_search, name="player_search"),
    path("me/", views.my_profile, name="my_profile"),
]
