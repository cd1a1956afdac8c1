"""Club, player and account pages."""

app_name = "clubs"
urlpatterns: list = []
