"""The API under /api/v1/, its OpenAPI schema at /api/schema/ and its docs at /api/docs/."""

from django.urls import path, re_path
from drf_spectacular.views import SpectacularAPIView

from . import views
from .docs_page import ApiDocsPage

app_name = "api"
urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves its start-up script from ?script, so the page needs no inline script
    # and runs under the site's Content-Security-Policy unchanged.
    path(
        "docs/",
        ApiDocsPage.as_view(url_name="api:schema"),
        name="docs",
    ),
    path("v1/clubs/", views.ClubList.as_view(), name="club_list"),
    path("v1/clubs/<slug:slug>/", views.ClubDetail.as_view(), name="club_detail"),
    path("v1/players/", views.PlayerList.as_view(), name="player_list"),
    path("v1/players/<int:pk>/", views.PlayerDetail.as_view(), name="player_detail"),
    path("v1/ratings/", views.RatingList.as_view(), name="rating_list"),
    path("v1/tournaments/", views.TournamentList.as_view(), name="tournament_list"),
    path("v1/tournaments/<slug:slug>/", views.TournamentDetail.as_view(), name="tournament_detail"),
    path("v1/tournaments/<slug:slug>/rounds/", views.RoundList.as_view(), name="round_list"),
    path("v1/tournaments/<slug:slug>/standings/", views.StandingsView.as_view(), name="standings"),
    path("v1/tournaments/<slug:slug>/entries/", views.TournamentEntries.as_view(), name="entry_list"),
    # An entry inside its event: the event's own kind (a pair, or a player of an individual event).
    path(
        "v1/tournaments/<slug:slug>/entries/<int:pk>/approve/",
        views.EventEntryApprove.as_view(),
        name="event_entry_approve",
    ),
    path(
        "v1/tournaments/<slug:slug>/entries/<int:pk>/withdraw/",
        views.EventEntryWithdraw.as_view(),
        name="event_entry_withdraw",
    ),
    path(
        "v1/tournaments/<slug:slug>/entries/<int:pk>/reinstate/",
        views.EventEntryReinstate.as_view(),
        name="event_entry_reinstate",
    ),
    # Running an event with an organising key (views.events; the event's own PATCH and DELETE and
    # the list's POST are on the read addresses above).
    path("v1/tournaments/<slug:slug>/start/", views.EventStart.as_view(), name="event_start"),
    path("v1/tournaments/<slug:slug>/entries/bulk/", views.EntriesBulk.as_view(), name="entries_bulk"),
    path(
        "v1/tournaments/<slug:slug>/entries/<int:pk>/check-in/",
        views.EventEntryCheckIn.as_view(),
        name="event_entry_check_in",
    ),
    # The first addresses, by the id alone: pairs of pair events only (selectors.pair_entry_by_id).
    path("v1/entries/<int:pk>/approve/", views.EntryApprove.as_view(), name="entry_approve"),
    path("v1/entries/<int:pk>/withdraw/", views.EntryWithdraw.as_view(), name="entry_withdraw"),
    path("v1/matches/<int:pk>/", views.MatchDetail.as_view(), name="match_detail"),
    path("v1/matches/<int:pk>/result/", views.MatchResult.as_view(), name="match_result"),
    path("v1/matches/<int:pk>/confirm/", views.MatchConfirm.as_view(), name="match_confirm"),
    # Running an event's rounds and settling its results (organising keys; a dispute: results keys).
    path("v1/tournaments/<slug:slug>/rounds/next/", views.RoundPairNext.as_view(), name="round_pair_next"),
    path(
        "v1/tournaments/<slug:slug>/rounds/<int:number>/unpair/",
        views.RoundUnpair.as_view(),
        name="round_unpair",
    ),
    path(
        "v1/tournaments/<slug:slug>/rounds/<int:number>/swap/", views.RoundSwap.as_view(), name="round_swap"
    ),
    path("v1/matches/<int:pk>/table/", views.MatchTable.as_view(), name="match_table"),
    path("v1/matches/<int:pk>/correct/", views.MatchCorrect.as_view(), name="match_correct"),
    path("v1/matches/<int:pk>/forfeit/", views.MatchForfeit.as_view(), name="match_forfeit"),
    path("v1/matches/<int:pk>/dispute/", views.MatchDispute.as_view(), name="match_dispute"),
    path("v1/matches/<int:pk>/settle/", views.MatchSettle.as_view(), name="match_settle"),
    path("v1/archive/", views.ArchivedMatchList.as_view(), name="archive_list"),
    path("v1/archive/<int:pk>/", views.ArchivedMatchDetail.as_view(), name="archive_detail"),
    path("v1/archive/<int:pk>/record/", views.ArchivedMatchRecord.as_view(), name="archive_record"),
    # any other address, a line break in it too ("." stops at one)
    re_path(r"^[\s\S]*$", views.not_found, name="not_found"),
]
