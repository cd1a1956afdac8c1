"""Pages of the live tables."""

from django.urls import path

from gameplay import guide, views

app_name = "gameplay"
urlpatterns = [
    path("rules/", guide.rules_page, name="rules"),
    path("rules/kozyol/", guide.kozyol_rules_page, name="rules_kozyol"),
    path("rules/bilka-2/", guide.bilka2_rules_page, name="rules_bilka2"),
    path("help/", guide.help_page, name="help"),
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
]
