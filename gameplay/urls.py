"""Pages of the live tables."""

from django.urls import path

from gameplay import archive_views, record_views, views

app_name = "gameplay"
urlpatterns = [
    path("tables/", views.lobby, name="lobby"),
    path("tables/new/", views.create, name="create"),
    path("tables/play-now/", views.play_now, name="play_now"),
    path("tables/verify/", views.verify_upload, name="verify"),
    path("tables/<int:pk>/", views.table, name="table"),
    path("tables/<int:pk>/join/<str:token>/", views.table, name="invite"),
    path("tables/<int:pk>/sit/", views.sit, name="sit"),
    path("tables/<int:pk>/bots/", views.bots, name="bots"),
    path("tables/<int:pk>/client-seed/", views.client_seed, name="client_seed"),
    path("tables/<int:pk>/verify/", views.verify_table, name="verify_table"),
    path("tables/<int:pk>/state.json", views.state_json, name="state_json"),
    path("tables/<int:pk>/record.json", views.record_json, name="record_json"),
    path("tables/<int:pk>/replay/", views.replay, name="replay"),
    path("tables/<int:pk>/archived/", archive_views.table_archived, name="table_archived"),
    path("archive/", archive_views.archive_list, name="archive"),
    path("archive/<int:pk>/", archive_views.archived_match, name="archived_match"),
    path("archive/players/<int:pk>/", archive_views.player_archive, name="player_archive"),
    # Records in and out of the archive (kept together, at the end).
    path("archive/upload/", record_views.archive_upload, name="archive_upload"),
    path("archive/<int:pk>/record.json", record_views.archived_record, name="archived_record"),
    path("archive/<int:pk>/sheet.csv", record_views.archived_sheet_csv, name="archived_sheet_csv"),
    path("archive/<int:pk>/sheet.json", record_views.archived_sheet_json, name="archived_sheet_json"),
]
