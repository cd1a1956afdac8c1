"""Tournament pages: a club's list, and each tournament under /t/<slug>/."""

from django.urls import path, re_path

from . import day_views, individual_views, views

app_name = "tournaments"
urlpatterns = [
    path("clubs/<slug:club_slug>/tournaments/", views.club_tournaments, name="club_list"),
    path("clubs/<slug:club_slug>/tournaments/new/", views.create, name="create"),
    path("t/<slug:slug>/", views.home, name="home"),
    path("t/<slug:slug>/edit/", views.edit, name="edit"),
    path("t/<slug:slug>/entries/", views.entries, name="entries"),
    path("t/<slug:slug>/entries/bulk/", views.entries_bulk, name="entries_bulk"),
    path("t/<slug:slug>/entries/register/", views.self_register, name="self_register"),
    path("t/<slug:slug>/entries/<int:pk>/substitute/", views.substitute, name="substitute"),
    path("t/<slug:slug>/entries/<int:pk>/<str:action>/", views.entry_action, name="entry_action"),
    path("t/<slug:slug>/pair/", views.pair_next, name="pair_next"),
    path("t/<slug:slug>/rounds/<int:number>/", views.round_view, name="round"),
    path("t/<slug:slug>/rounds/<int:number>/edit/", views.round_edit, name="round_edit"),
    path("t/<slug:slug>/rounds/<int:number>/print/", views.print_pairings, name="print_pairings"),
    path("t/<slug:slug>/rounds/<int:number>/sheets/", views.print_sheets, name="print_sheets"),
    path("t/<slug:slug>/results/", views.results, name="results"),
    path("t/<slug:slug>/standings/", views.standings, name="standings"),
    path("t/<slug:slug>/crosstable/", views.crosstable, name="crosstable"),
    path("t/<slug:slug>/bracket/", views.bracket, name="bracket"),
    re_path(
        r"^t/(?P<slug>[-\w]+)/export/(?P<what>standings|results|seats)\.(?P<fmt>csv|json)$",
        views.export,
        name="export",
    ),
    path("t/<slug:slug>/matches/<int:pk>/", views.match, name="match"),
    path("t/<slug:slug>/players/bulk/", individual_views.players_bulk, name="players_bulk"),
    path("t/<slug:slug>/players/register/", individual_views.player_register, name="player_register"),
    path("t/<slug:slug>/players/<int:pk>/approve/", individual_views.player_approve, name="player_approve"),
    path("t/<slug:slug>/players/<int:pk>/check-in/", individual_views.player_check_in, name="player_check_in"),
    path("t/<slug:slug>/players/<int:pk>/withdraw/", individual_views.player_withdraw, name="player_withdraw"),
    path("t/<slug:slug>/players/<int:pk>/reinstate/", individual_views.player_reinstate, name="player_reinstate"),
    path("t/<slug:slug>/matches/<int:pk>/no-show/", individual_views.no_show, name="no_show"),
    path("me/matches/", views.my_matches, name="my_matches"),
    path("t/<slug:slug>/day/", day_views.dashboard, name="dashboard"),
    path("t/<slug:slug>/day/act/", day_views.dashboard_action, name="dashboard_action"),
    path("t/<slug:slug>/live/", day_views.now_playing, name="now_playing"),
    path("me/notifications/", day_views.my_notifications, name="my_notifications"),
]
