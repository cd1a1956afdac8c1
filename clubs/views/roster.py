"""The roster pages of owners and organisers: adding, pasting, inviting, retiring and merging players."""

from __future__ import annotations

from functools import partial

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponseNotAllowed
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from .. import permissions, selectors, services
from ..audit_labels import describe
from ..confirm import Question, ask_first
from ..forms import BulkPlayersForm, MergeForm, PlayerForm
from ..models import ClubPlayer, Player, PlayerInvitation
from .common import club_for, refusal_as_message, save_form


def _roster_context(club, **extra):
    entries = selectors.club_roster(club=club, include_inactive=True)
    invitations = selectors.open_invitations(club=club)
    for entry in entries:
        entry.open_invitation = invitations.get(entry.player_id)
    return {
        "club": club,
        "roster": entries,
        "members_off_roster": selectors.members_off_roster(club=club),
        "history": [describe(e) for e in selectors.club_audit(club=club)],
        "add_form": PlayerForm(),
        "bulk_form": BulkPlayersForm(),
        **extra,
    }


@login_required
def roster(request, slug):
    club = club_for(request, slug, permissions.can_manage_roster)
    return render(request, "clubs/roster.html", _roster_context(club))


@login_required
@require_POST
def roster_add(request, slug):
    club = club_for(request, slug, permissions.can_manage_roster)
    form = PlayerForm(request.POST)
    entry = save_form(request, form, partial(services.add_player, actor=request.user, club=club))
    if entry is not None:
        messages.success(request, _("%(player)s is on the roster.") % {"player": entry.player.display_name})
        return redirect("clubs:roster", slug=club.slug)
    return render(request, "clubs/roster.html", _roster_context(club, add_form=form), status=400)


@login_required
@require_POST
def roster_add_member(request, slug, player_id):
    club = club_for(request, slug, permissions.can_manage_roster)
    player = get_object_or_404(Player, pk=player_id, user__memberships__club=club)
    with refusal_as_message(request):
        entry = services.add_to_roster(actor=request.user, club=club, player=player)
        messages.success(request, _("%(player)s is on the roster.") % {"player": entry.player.display_name})
    return redirect("clubs:roster", slug=club.slug)


@login_required
def roster_bulk(request, slug):
    club = club_for(request, slug, permissions.can_manage_roster)
    form = BulkPlayersForm(request.POST or None)
    write = partial(services.bulk_add_players, actor=request.user, club=club)
    result = save_form(request, form, write, field="text")
    if result is not None:
        messages.success(
            request,
            ngettext("%(count)d player added.", "%(count)d players added.", len(result.created))
            % {"count": len(result.created)},
        )
        form = BulkPlayersForm()
    return render(request, "clubs/roster_bulk.html", {"club": club, "form": form, "result": result})


@login_required
@require_POST
def roster_invite(request, slug, player_id):
    club = club_for(request, slug, permissions.can_manage_roster)
    player = get_object_or_404(Player.objects.filter(roster_entries__club=club).distinct(), pk=player_id)
    with refusal_as_message(request):
        invitation = services.invite_player(actor=request.user, club=club, player=player)
        return redirect("clubs:invitation", slug=club.slug, pk=invitation.pk)
    return redirect("clubs:roster", slug=club.slug)


@login_required
def invitation(request, slug, pk):
    club = club_for(request, slug, permissions.can_manage_roster)
    invitation = get_object_or_404(PlayerInvitation.objects.select_related("player"), pk=pk, club=club)
    link = request.build_absolute_uri(reverse("clubs:claim", kwargs={"token": invitation.token}))
    return render(request, "clubs/invitation.html", {"club": club, "invitation": invitation, "link": link})


@login_required
def roster_toggle(request, slug, entry_id):
    """Take a player off the roster (``?off=1``: asks first, ``clubs.confirm``) or put him back (a POST)."""
    club = club_for(request, slug, permissions.can_manage_roster)
    entry = get_object_or_404(ClubPlayer.objects.select_related("player"), pk=entry_id, club=club)
    off = request.GET.get("off") == "1"
    if off:
        name = entry.player.display_name
        asked = ask_first(
            request,
            Question(
                title=_("Take %(player)s off the roster?") % {"player": name},
                button=_("Take off"),
                back=reverse("clubs:roster", kwargs={"slug": club.slug}),
                effects=[
                    _("%(player)s is no longer offered when you register pairs and players.")
                    % {"player": name},
                    _("Nothing is deleted: results stay, and “Put back” brings the player back."),
                ],
            ),
        )
        if asked is not None:
            return asked
    elif request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    services.set_roster_active(actor=request.user, club=club, entry=entry, active=not off)
    return redirect("clubs:roster", slug=club.slug)


@login_required
def roster_merge(request, slug):
    club = club_for(request, slug, permissions.can_manage_roster)
    players = sorted(
        {
            e.player
            for e in selectors.club_roster(club=club, include_inactive=True)
            if e.player.merged_into_id is None
        },
        key=lambda p: (p.display_name.casefold(), p.pk),
    )
    initial = {"source": request.GET.get("source"), "target": request.GET.get("target")}
    form = MergeForm(request.POST or None, players=players, initial=initial)
    target = save_form(request, form, partial(services.merge_players, actor=request.user, club=club))
    if target is not None:
        messages.success(request, _("Merged into %(player)s.") % {"player": target.display_name})
        return redirect("clubs:roster", slug=club.slug)
    return render(request, "clubs/roster_merge.html", {"club": club, "form": form, "players": players})
