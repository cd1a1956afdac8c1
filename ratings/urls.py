"""Pages of the ratings: the boards (everyone, a club, a city), how ratings work, a player's chart."""

from django.urls import path

from ratings import views

app_name = "ratings"
urlpatterns = [
    path("ratings/", views.board, name="board"),
    path("ratings/how/", views.how, name="how"),
    path("ratings/refit/", views.refit, name="refit"),
    path("ratings/club/<slug:slug>/", views.club_board, name="club"),
    path("ratings/city/<str:city>/", views.city_board, name="city"),
    path("ratings/players/<int:pk>/chart.svg", views.chart, name="chart"),
]
