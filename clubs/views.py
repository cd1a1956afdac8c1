"""Club, player and account pages (placeholder while the app is built)."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import render


def home(request):
    return render(request, "clubs/home.html")


def club_list(request):
    return render(request, "clubs/home.html")


@login_required
def club_create(request):
    return render(request, "clubs/home.html")


def player_search(request):
    return render(request, "clubs/home.html")


@login_required
def my_profile(request):
    return render(request, "clubs/home.html")
