"""Founding, editing, joining and leaving a club, and the owners' changes of roles and members
(their page of members and invitations is ``joining``)."""

from __future__ import annotations

from functools import partial

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import NON_FIELD_ERRORS
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from .. import permissions, services
from ..confirm import Question, ask_first
from ..forms import ClubForm, RoleForm
from .common import club_for, club_or_404, refusal_as_message, save_form

# --- clubs ---------------------------------------------------------------------------------------


@login_required
def club_create(request):
    """Found a club; over the day's allowance the form comes back as typed with the reason (429)."""
    form = ClubForm(request.POST or None)
    club = save_form(request, form, partial(services.create_club, actor=request.user))
    if club is not None:
        messages.success(request, _("The club is created. You are its owner."))
        return redirect(club)
    limited = form.is_bound and form.has_error(NON_FIELD_ERRORS, code=services.RATE_LIMITED)
    return render(
        request, "clubs/club_form.html", {"form": form, "creating": True}, status=429 if limited else 200
    )


@login_required
def club_edit(request, slug):
    club = club_for(request, slug, permissions.can_edit_club)
    initial = {"name": club.name, "city": club.city, "description": club.description}
    form = ClubForm(request.POST or None, initial=initial)
    saved = save_form(request, form, partial(services.update_club, actor=request.user, club=club))
    if saved is not None:
        messages.success(request, _("Saved."))
        return redirect(saved)
    return render(request, "clubs/club_form.html", {"form": form, "club": club, "creating": False})


@login_required
@require_POST
def club_join(request, slug):
    club = club_or_404(slug)
    services.join_club(actor=request.user, club=club)
    messages.success(request, _("You are now a member of %(club)s.") % {"club": club.name})
    return redirect(club)


@login_required
def club_leave(request, slug):
    """Leave a club: asks first (``clubs.confirm``)."""
    club = club_or_404(slug)
    asked = ask_first(
        request,
        Question(
            title=_("Leave %(club)s?") % {"club": club.name},
            button=_("Leave the club"),
            back=club.get_absolute_url(),
            effects=[_("Your role in the club ends; an owner can add you again.")],
        ),
    )
    if asked is not None:
        return asked
    with refusal_as_message(request):
        services.remove_member(actor=request.user, club=club, user=request.user)
        messages.success(request, _("You have left %(club)s.") % {"club": club.name})
    return redirect(club)


# --- members and roles (owners) ----------------------------------------------------------------


def _club_and_account(request, slug: str, user_id: int):
    """The club, once the user is found to be its owner, and the account the owner acts on: one of
    the club's members, never any account by its id (whose name the confirm page would show)."""
    club = club_for(request, slug, permissions.can_manage_members)
    return club, get_object_or_404(get_user_model(), pk=user_id, memberships__club=club)


@login_required
@require_POST
def member_role(request, slug, user_id):
    club, user = _club_and_account(request, slug, user_id)
    form = RoleForm(request.POST)
    if form.is_valid():
        with refusal_as_message(request):
            services.set_member_role(actor=request.user, club=club, user=user, role=form.cleaned_data["role"])
            messages.success(request, _("Role of %(user)s changed.") % {"user": user.get_username()})
    return redirect("clubs:members", slug=club.slug)


@login_required
def member_remove(request, slug, user_id):
    """An owner removes a member: asks first (``clubs.confirm``)."""
    club, user = _club_and_account(request, slug, user_id)
    asked = ask_first(
        request,
        Question(
            title=_("Remove %(user)s from the club?") % {"user": user.get_username()},
            button=_("Remove"),
            back=reverse("clubs:members", kwargs={"slug": club.slug}),
            effects=[_("The account loses its role in the club; its player stays on the roster.")],
        ),
    )
    if asked is not None:
        return asked
    with refusal_as_message(request):
        services.remove_member(actor=request.user, club=club, user=user)
        messages.success(request, _("%(user)s removed from the club.") % {"user": user.get_username()})
    return redirect("clubs:members", slug=club.slug)
