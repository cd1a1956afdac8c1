"""A player's profile as its owner sees it: my profile and API keys, claiming one with a link, editing one."""

from __future__ import annotations

from functools import partial

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from .. import permissions, selectors, services
from ..forms import ApiTokenForm, PlayerForm
from ..models import Player, PlayerInvitation
from .common import refusal_as_message, save_form


@login_required
def player_edit(request, pk):
    """Roster managers correct the name or village of a player without an account."""
    player = get_object_or_404(Player, pk=pk, merged_into__isnull=True)
    if player.user_id == request.user.pk:
        return redirect("clubs:my_profile")
    allowed = player.user_id is None and any(
        permissions.can_manage_roster(request.user, e.club)
        for e in player.roster_entries.select_related("club")
    )
    permissions.require(allowed)
    form = PlayerForm(
        request.POST or None, initial={"display_name": player.display_name, "city": player.city}
    )
    if (
        save_form(request, form, partial(services.update_player, actor=request.user, player=player))
        is not None
    ):
        messages.success(request, _("Saved."))
        return redirect(player)
    return render(request, "clubs/player_edit.html", {"player": player, "form": form})


def claim(request, token):
    invitation = PlayerInvitation.objects.select_related("player", "club").filter(token=token).first()
    if invitation is None:
        raise Http404
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"{reverse('account_login')}?next={request.path}")
        with refusal_as_message(request):
            player = services.claim_player(actor=request.user, token=token)
            messages.success(request, _("This is now your player profile."))
            return redirect(player)
    own = selectors.own_player(user=request.user)
    return render(request, "clubs/claim.html", {"invitation": invitation, "own_player": own})


@login_required
def my_profile(request):
    player = selectors.own_player(user=request.user)
    if request.method == "POST":
        if player is None:
            player = services.ensure_player_for_user(user=request.user)
            messages.success(request, _("Your player profile is created."))
            return redirect("clubs:my_profile")
        form = PlayerForm(request.POST)
        if (
            save_form(request, form, partial(services.update_player, actor=request.user, player=player))
            is not None
        ):
            messages.success(request, _("Saved."))
            return redirect("clubs:my_profile")
    else:
        form = (
            PlayerForm(initial={"display_name": player.display_name, "city": player.city}) if player else None
        )
    return _profile_page(request, player=player, form=form)


def _profile_page(request, *, player, form, token_form=None, new_key: str = "", status: int = 200):
    """The account page: the player profile, the clubs, and the API keys (a new key shown once)."""
    context = {
        "player": player,
        "form": form,
        "memberships": selectors.clubs_of_user(user=request.user),
        "invitations": selectors.invitations_for(user=request.user),
        "tokens": selectors.api_tokens(user=request.user),
        "token_form": token_form or ApiTokenForm(clubs=selectors.member_clubs(user=request.user)),
        "new_key": new_key,
    }
    return render(request, "clubs/my_profile.html", context, status=status)


def _player_form(player):
    return PlayerForm(initial={"display_name": player.display_name, "city": player.city}) if player else None


@login_required
@require_POST
def api_token_create(request):
    """A new API key, shown on this one answer and never again (only its digest is kept)."""
    player = selectors.own_player(user=request.user)
    form = ApiTokenForm(request.POST, clubs=selectors.member_clubs(user=request.user))
    if form.is_valid():
        try:
            _token, key = services.create_token(actor=request.user, **form.cleaned_data)
        except (ValidationError, PermissionDenied) as e:
            form.add_error(None, e.messages if isinstance(e, ValidationError) else str(e))
        else:
            messages.success(request, _("The key is made. Copy it now: it is shown only this once."))
            return _profile_page(
                request, player=player, form=_player_form(player), new_key=key
            )
    return _profile_page(request, player=player, form=_player_form(player), token_form=form, status=400)


@login_required
@require_POST
def api_token_revoke(request, pk):
    """The owner revokes one of his keys; another account's key is not found."""
    try:
        services.revoke_token(actor=request.user, token_id=pk)
    except PermissionDenied:
        raise Http404 from None
    messages.success(request, _("The key is revoked."))
    return redirect("clubs:my_profile")
