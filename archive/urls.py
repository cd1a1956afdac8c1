"""Pages of the archive: finding matches, one match, a player's matches, records in and out, puzzles."""

from django.urls import path

from archive.views import fairplay, matches, pictures, puzzles, records

app_name = "archive"
urlpatterns = [
    path("archive/", matches.archive_list, name="list"),
    path("archive/<int:pk>/", matches.archived_match, name="match"),
    path("archive/<int:pk>/share/", matches.share_match, name="share"),
    # A position's picture, for a shared link's preview (?deal=&card=).
    path("archive/<int:pk>/position.svg", pictures.position_svg, name="position_svg"),
    path("archive/<int:pk>/position.png", pictures.position_png, name="position_png"),
    path("archive/players/<int:pk>/", matches.player_archive, name="player"),
    # A player's fair-play review: the site's staff only (a 404 to anyone else).
    path("archive/players/<int:pk>/fairplay/", fairplay.fairplay_player, name="fairplay_player"),
    # The archived match of a live table (its page links here once the match is kept).
    path("tables/<int:pk>/archived/", matches.table_archived, name="table_match"),
    # Records in and out of the archive.
    path("archive/upload/", records.archive_upload, name="upload"),
    path("archive/<int:pk>/record.json", records.archived_record, name="record"),
    path("archive/<int:pk>/sheet.csv", records.archived_sheet_csv, name="sheet_csv"),
    path("archive/<int:pk>/sheet.json", records.archived_sheet_json, name="sheet_json"),
    # Puzzles from real play: the daily one and the list; one puzzle (GET the position, POST a card).
    path("puzzles/", puzzles.puzzle_index, name="puzzles"),
    path("puzzles/<int:pk>/", puzzles.puzzle_page, name="puzzle"),
]
