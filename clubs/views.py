"""Club, player and account pages. Reads go through selectors, every write through one service."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from . import permissions, selectors, services
from .audit_labels import action_label
from .forms import AddMemberForm, BulkPlayersForm, ClubForm, MergeForm, PlayerForm, RoleForm, SearchForm
from .models import Club, ClubPlayer, Player, PlayerInvitation, Role


def _error_text(error: ValidationError) -> str:
    return " ".join(error.messages)


def _club(slug: str) -> Club:
    return get_object_or_404(Club, slug=slug)


# --- public pages --------------------------------------------------------------------------------


def home(request):
    clubs = list(selectors.club_list()[:12])
    own = Player.objects.filter(user=request.user).first() if request.user.is_authenticated else None
    context = {
        "clubs": clubs,
        "my_memberships": selectors.clubs_of_user(user=request.user),
        # A fresh account's player is named after the username; ask for the real name.
        "ask_for_name": own is not None and own.display_name == request.user.get_username(),
    }
    return render(request, "clubs/home.html", context)


def club_list(request):
    return render(request, "clubs/club_list.html", {"clubs": selectors.club_list()})


EVENTS_TEMPLATE = "tournaments/_club_events.html"


def _events_html(request, club) -> str | None:
    """The club's events section, when the tournaments app provides one (else a placeholder)."""
    try:
        template = get_template(EVENTS_TEMPLATE)
    except TemplateDoesNotExist:
        return None
    return template.render({"club": club}, request)


def club_detail(request, slug):
    club = _club(slug)
    role = permissions.role_of(request.user, club)
    context = {
        "club": club,
        "role": role,
        "role_label": Role(role).label if role else "",
        "members": selectors.club_members(club=club),
        "roster": selectors.club_roster(club=club),
        "can_manage_roster": permissions.can_manage_roster(request.user, club),
        "can_manage_members": permissions.can_manage_members(request.user, club),
        "can_edit": permissions.can_edit_club(request.user, club),
        "events_html": _events_html(request, club),
    }
    return render(request, "clubs/club_detail.html", context)


def player_search(request):
    form = SearchForm(request.GET or None)
    query = form.cleaned_data["q"] if form.is_valid() else ""
    players = selectors.search_players(query=query) if query else []
    return render(request, "clubs/player_search.html", {"form": form, "query": query, "players": players})


def player_detail(request, pk):
    try:
        player = selectors.player_detail(pk=pk)
    except Player.DoesNotExist:
        raise Http404 from None
    if player.merged_into_id is not None:
        return redirect(player.merged_into)
    can_edit = (
        request.user.is_authenticated
        and player.user_id is None
        and any(permissions.can_manage_roster(request.user, e.club) for e in player.roster_entries.all())
    )
    context = {"player": player, "is_me": player.user_id == request.user.pk, "can_edit": can_edit}
    return render(request, "clubs/player_detail.html", context)


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
    if request.method == "POST" and form.is_valid():
        try:
            services.update_player(actor=request.user, player=player, **form.cleaned_data)
        except ValidationError as e:
            form.add_error(None, e)
        else:
            messages.success(request, _("Saved."))
            return redirect(player)
    return render(request, "clubs/player_edit.html", {"player": player, "form": form})


# --- clubs ---------------------------------------------------------------------------------------


@login_required
def club_create(request):
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            club = services.create_club(actor=request.user, **form.cleaned_data)
        except ValidationError as e:
            form.add_error(None, e)
        else:
            messages.success(request, _("The club is created. You are its owner."))
            return redirect(club)
    return render(request, "clubs/club_form.html", {"form": form, "creating": True})


@login_required
def club_edit(request, slug):
    club = _club(slug)
    permissions.require(permissions.can_edit_club(request.user, club))
    initial = {"name": club.name, "city": club.city, "description": club.description}
    form = ClubForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            club = services.update_club(actor=request.user, club=club, **form.cleaned_data)
        except ValidationError as e:
            form.add_error(None, e)
        else:
            messages.success(request, _("Saved."))
            return redirect(club)
    return render(request, "clubs/club_form.html", {"form": form, "club": club, "creating": False})


@login_required
@require_POST
def club_join(request, slug):
    club = _club(slug)
    services.join_club(actor=request.user, club=club)
    messages.success(request, _("You are now a member of %(club)s.") % {"club": club.name})
    return redirect(club)


@login_required
@require_POST
def club_leave(request, slug):
    club = _club(slug)
    try:
        services.remove_member(actor=request.user, club=club, user=request.user)
    except ValidationError as e:
        messages.error(request, _error_text(e))
    else:
        messages.success(request, _("You have left %(club)s.") % {"club": club.name})
    return redirect(club)


# --- members and roles (owners) ----------------------------------------------------------------


@login_required
def members(request, slug):
    club = _club(slug)
    permissions.require(permissions.can_manage_members(request.user, club))
    context = {
        "club": club,
        "members": selectors.club_members(club=club),
        "add_form": AddMemberForm(),
        "roles": Role.choices,
    }
    return render(request, "clubs/members.html", context)


@login_required
@require_POST
def member_add(request, slug):
    club = _club(slug)
    permissions.require(permissions.can_manage_members(request.user, club))
    form = AddMemberForm(request.POST)
    if form.is_valid():
        try:
            services.add_member(
                actor=request.user, club=club, user=form.cleaned_data["who"], role=form.cleaned_data["role"]
            )
        except ValidationError as e:
            messages.error(request, _error_text(e))
        else:
            messages.success(
                request, _("%(user)s added.") % {"user": form.cleaned_data["who"].get_username()}
            )
    else:
        messages.error(request, " ".join(m for errs in form.errors.values() for m in errs))
    return redirect("clubs:members", slug=club.slug)


@login_required
@require_POST
def member_role(request, slug, user_id):
    club = _club(slug)
    permissions.require(permissions.can_manage_members(request.user, club))
    user = get_object_or_404(get_user_model(), pk=user_id)
    form = RoleForm(request.POST)
    if form.is_valid():
        try:
            services.set_member_role(actor=request.user, club=club, user=user, role=form.cleaned_data["role"])
        except ValidationError as e:
            messages.error(request, _error_text(e))
        else:
            messages.success(request, _("Role of %(user)s changed.") % {"user": user.get_username()})
    return redirect("clubs:members", slug=club.slug)


@login_required
@require_POST
def member_remove(request, slug, user_id):
    club = _club(slug)
    permissions.require(permissions.can_manage_members(request.user, club))
    user = get_object_or_404(get_user_model(), pk=user_id)
    try:
        services.remove_member(actor=request.user, club=club, user=user)
    except ValidationError as e:
        messages.error(request, _error_text(e))
    else:
        messages.success(request, _("%(user)s removed from the club.") % {"user": user.get_username()})
    return redirect("clubs:members", slug=club.slug)


# --- roster (owners and organisers) ------------------------------------------------------------


def _roster_context(club, **extra):
    entries = selectors.club_roster(club=club, include_inactive=True)
    invitations = selectors.open_invitations(club=club)
    for entry in entries:
        entry.open_invitation = invitations.get(entry.player_id)
    return {
        "club": club,
        "roster": entries,
        "members_off_roster": selectors.members_off_roster(club=club),
        "history": [(e, action_label(e.action)) for e in selectors.club_audit(club=club)],
        "add_form": PlayerForm(),
        "bulk_form": BulkPlayersForm(),
        **extra,
    }


@login_required
def roster(request, slug):
    club = _club(slug)
    permissions.require(permissions.can_manage_roster(request.user, club))
    return render(request, "clubs/roster.html", _roster_context(club))


@login_required
@require_POST
def roster_add(request, slug):
    club = _club(slug)
    permissions.require(permissions.can_manage_roster(request.user, club))
    form = PlayerForm(request.POST)
    if form.is_valid():
        try:
            entry = services.add_player(actor=request.user, club=club, **form.cleaned_data)
        except ValidationError as e:
            form.add_error(None, e)
        else:
            messages.success(
                request, _("%(player)s is on the roster.") % {"player": entry.player.display_name}
            )
            return redirect("clubs:roster", slug=club.slug)
    return render(request, "clubs/roster.html", _roster_context(club, add_form=form), status=400)


@login_required
@require_POST
def roster_add_member(request, slug, player_id):
    club = _club(slug)
    permissions.require(permissions.can_manage_roster(request.user, club))
    player = get_object_or_404(Player, pk=player_id, user__memberships__club=club)
    try:
        entry = services.add_to_roster(actor=request.user, club=club, player=player)
    except ValidationError as e:
        messages.error(request, _error_text(e))
    else:
        messages.success(request, _("%(player)s is on the roster.") % {"player": entry.player.display_name})
    return redirect("clubs:roster", slug=club.slug)


@login_required
def roster_bulk(request, slug):
    club = _club(slug)
    permissions.require(permissions.can_manage_roster(request.user, club))
    form = BulkPlayersForm(request.POST or None)
    result = None
    if request.method == "POST" and form.is_valid():
        try:
            result = services.bulk_add_players(actor=request.user, club=club, text=form.cleaned_data["text"])
        except ValidationError as e:
            form.add_error("text", e)
            return render(request, "clubs/roster_bulk.html", {"club": club, "form": form, "result": None})
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
    club = _club(slug)
    permissions.require(permissions.can_manage_roster(request.user, club))
    player = get_object_or_404(Player, pk=player_id)
    try:
        invitation = services.invite_player(actor=request.user, club=club, player=player)
    except ValidationError as e:
        messages.error(request, _error_text(e))
        return redirect("clubs:roster", slug=club.slug)
    return redirect("clubs:invitation", slug=club.slug, pk=invitation.pk)


@login_required
def invitation(request, slug, pk):
    club = _club(slug)
    permissions.require(permissions.can_manage_roster(request.user, club))
    invitation = get_object_or_404(PlayerInvitation.objects.select_related("player"), pk=pk, club=club)
    link = request.build_absolute_uri(reverse("clubs:claim", kwargs={"token": invitation.token}))
    return render(request, "clubs/invitation.html", {"club": club, "invitation": invitation, "link": link})


@login_required
@require_POST
def roster_toggle(request, slug, entry_id):
    club = _club(slug)
    permissions.require(permissions.can_manage_roster(request.user, club))
    entry = get_object_or_404(ClubPlayer, pk=entry_id, club=club)
    services.set_roster_active(actor=request.user, club=club, entry=entry, active=not entry.active)
    return redirect("clubs:roster", slug=club.slug)


@login_required
def roster_merge(request, slug):
    club = _club(slug)
    permissions.require(permissions.can_manage_roster(request.user, club))
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
    if request.method == "POST" and form.is_valid():
        try:
            target = services.merge_players(
                actor=request.user,
                club=club,
                source=form.cleaned_data["source"],
                target=form.cleaned_data["target"],
            )
        except ValidationError as e:
            form.add_error(None, e)
        else:
            messages.success(request, _("Merged into %(player)s.") % {"player": target.display_name})
            return redirect("clubs:roster", slug=club.slug)
    return render(request, "clubs/roster_merge.html", {"club": club, "form": form, "players": players})


# --- claiming and my profile -------------------------------------------------------------------


def claim(request, token):
    invitation = PlayerInvitation.objects.select_related("player", "club").filter(token=token).first()
    if invitation is None:
        raise Http404
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"{reverse('account_login')}?next={request.path}")
        try:
            player = services.claim_player(actor=request.user, token=token)
        except ValidationError as e:
            messages.error(request, _error_text(e))
        else:
            messages.success(request, _("This is now your player profile."))
            return redirect(player)
    own = Player.objects.filter(user=request.user).first() if request.user.is_authenticated else None
    return render(request, "clubs/claim.html", {"invitation": invitation, "own_player": own})


@login_required
def my_profile(request):
    player = Player.objects.filter(user=request.user).first()
    if request.method == "POST":
        if player is None:
            player = services.ensure_player_for_user(user=request.user)
            messages.success(request, _("Your player profile is created."))
            return redirect("clubs:my_profile")
        form = PlayerForm(request.POST)
        if form.is_valid():
            try:
                services.update_player(actor=request.user, player=player, **form.cleaned_data)
            except ValidationError as e:
                form.add_error(None, e)
            else:
                messages.success(request, _("Saved."))
                return redirect("clubs:my_profile")
    else:
        form = (
            PlayerForm(initial={"display_name": player.display_name, "city": player.city}) if player else None
        )
    context = {"player": player, "form": form, "memberships": selectors.clubs_of_user(user=request.user)}
    return render(request, "clubs/my_profile.html", context)
