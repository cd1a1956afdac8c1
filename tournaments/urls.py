"""Tournament pages: every club's events, a club's list, and each tournament under /t/<slug>/."""

from django.urls import path, re_path

from .views import audit, day, entries, events, listing, match_record, matches, rounds, standings

app_name = "tournaments"
urlpatterns = [
    path("tournaments/", listing.tournament_list, name="list"),
    path("clubs/<slug:club_slug>/tournaments/", events.club_tournaments, name="club_list"),
    path("clubs/<slug:club_slug>/tournaments/new/", events.create, name="create"),
    path("t/<slug:slug>/", events.home, name="home"),
    path("t/<slug:slug>/edit/", events.edit, name="edit"),
    path("t/<slug:slug>/entries/", entries.entries, name="entries"),
    path("t/<slug:slug>/entries/bulk/", entries.entries_bulk, name="entries_bulk"),
    path("t/<slug:slug>/entries/register/", entries.self_register, name="self_register"),
    path("t/<slug:slug>/entries/<int:pk>/substitute/", entries.substitute, name="substitute"),
    path("t/<slug:slug>/entries/<int:pk>/<str:action>/", entries.entry_action, name="entry_action"),
    path("t/<slug:slug>/pair/", rounds.pair_next, name="pair_next"),
    path("t/<slug:slug>/rounds/<int:number>/", rounds.round_view, name="round"),
    path("t/<slug:slug>/rounds/<int:number>/edit/", rounds.round_edit, name="round_edit"),
    path("t/<slug:slug>/rounds/<int:number>/unpair/", rounds.unpair, name="unpair"),
    path("t/<slug:slug>/rounds/<int:number>/swap/", rounds.swap, name="swap"),
    path("t/<slug:slug>/rounds/<int:number>/table/", rounds.table_number, name="table_number"),
    path("t/<slug:slug>/rounds/<int:number>/print/", rounds.print_pairings, name="print_pairings"),
    path("t/<slug:slug>/rounds/<int:number>/sheets/", rounds.print_sheets, name="print_sheets"),
    path("t/<slug:slug>/results/", rounds.results, name="results"),
    path("t/<slug:slug>/standings/", standings.standings, name="standings"),
    path("t/<slug:slug>/crosstable/", standings.crosstable, name="crosstable"),
    path("t/<slug:slug>/bracket/", standings.bracket, name="bracket"),
    re_path(
        r"^t/(?P<slug>[-\w]+)/export/(?P<what>standings|results|seats)\.(?P<fmt>csv|json)$",
        standings.export,
        name="export",
    ),
    path("t/<slug:slug>/matches/<int:pk>/", matches.match, name="match"),
    path("t/<slug:slug>/matches/<int:pk>/record/", match_record.match_record, name="match_record"),
    path("t/<slug:slug>/players/bulk/", entries.players_bulk, name="players_bulk"),
    path("t/<slug:slug>/players/register/", entries.player_register, name="player_register"),
    path("t/<slug:slug>/players/<int:pk>/substitute/", entries.player_substitute, name="player_substitute"),
    path(
        "t/<slug:slug>/players/<int:pk>/approve/",
        entries.player_action,
        {"action": "approve"},
        name="player_approve",
    ),
    path(
        "t/<slug:slug>/players/<int:pk>/check-in/",
        entries.player_action,
        {"action": "check-in"},
        name="player_check_in",
    ),
    path(
        "t/<slug:slug>/players/<int:pk>/withdraw/",
        entries.player_action,
        {"action": "withdraw"},
        name="player_withdraw",
    ),
    path(
        "t/<slug:slug>/players/<int:pk>/ask-withdraw/",
        entries.player_action,
        {"action": "ask-withdraw"},
        name="player_ask_withdraw",
    ),
    path(
        "t/<slug:slug>/players/<int:pk>/reinstate/",
        entries.player_action,
        {"action": "reinstate"},
        name="player_reinstate",
    ),
    path("t/<slug:slug>/matches/<int:pk>/no-show/<int:entry>/", rounds.no_show, name="no_show"),
    path("me/matches/", matches.my_matches, name="my_matches"),
    path("t/<slug:slug>/day/", day.dashboard, name="dashboard"),
    path("t/<slug:slug>/audit/", audit.audit_log, name="audit"),
    path("t/<slug:slug>/day/act/", day.dashboard_action, name="dashboard_action"),
    path(
        "t/<slug:slug>/day/asks/<int:pk>/<str:answer>/",
        day.withdrawal_answer,
        name="withdrawal_answer",
    ),
    path("t/<slug:slug>/matches/<int:pk>/forfeit/<int:loser>/", matches.forfeit, name="forfeit"),
    path("t/<slug:slug>/live/", day.now_playing, name="now_playing"),
    path("me/notifications/", day.my_notifications, name="my_notifications"),
]
