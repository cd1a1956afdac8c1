"""Who is in a club, and how one joins by consent: the owners' page of members and invitations,
the QR code shown in person, and the invited person's answer.

Inviting by name or e-mail answers the same whether an account has that name or address or not;
only the person's acceptance makes him a member.
"""

from __future__ import annotations

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from .. import permissions, selectors, services
from ..forms import AddMemberForm, AnswerForm, InPersonForm
from ..models import MemberInvitation, Role
from .common import club_for, refusal_as_message


def sent_text() -> str:
    """The one answer to every invitation by name or address."""
    return _(
        "If there is an account with this name or address, an invitation was sent to it. "
        "The person becomes a member once they accept it."
    )


def _members_page(request, club, *, add_form=None, in_person_form=None, status: int = 200):
    context = {
        "club": club,
        "members": selectors.club_members(club=club),
        "invitations": selectors.sent_invitations(club=club),
        "add_form": add_form or AddMemberForm(),
        "in_person_form": in_person_form or InPersonForm(),
        "roles": Role.choices,
    }
    return render(request, "clubs/members.html", context, status=status)


def _invite(request, club, form, slot: str, invite):
    """What ``invite`` returns for a valid form; else the members page with the form as typed and
    the reason: 429 over the hourly allowance, 400 for anything else."""
    if form.is_valid():
        try:
            return invite(**form.cleaned_data)
        except ValidationError as e:
            form.add_error(None, e)
    limited = form.has_error(NON_FIELD_ERRORS, code=services.RATE_LIMITED)
    return _members_page(request, club, **{slot: form}, status=429 if limited else 400)


@login_required
def members(request, slug):
    club = club_for(request, slug, permissions.can_manage_members)
    return _members_page(request, club)


@login_required
@require_POST
def member_add(request, slug):
    """Invite by username or e-mail: one answer whether or not such an account exists."""
    club = club_for(request, slug, permissions.can_manage_members)
    form = AddMemberForm(request.POST)
    done = _invite(
        request,
        club,
        form,
        "add_form",
        lambda who, role: services.invite_member(actor=request.user, club=club, who=who, role=role),
    )
    if not isinstance(done, MemberInvitation):
        return done
    messages.success(request, sent_text())
    return redirect("clubs:members", slug=club.slug)


@login_required
@require_POST
def member_invite_in_person(request, slug):
    """A QR code to show someone in front of you: he scans it, signs in and accepts."""
    club = club_for(request, slug, permissions.can_manage_members)
    form = InPersonForm(request.POST)
    done = _invite(
        request,
        club,
        form,
        "in_person_form",
        lambda role: services.invite_in_person(actor=request.user, club=club, role=role),
    )
    if not isinstance(done, MemberInvitation):
        return done
    return redirect("clubs:member_invitation", slug=club.slug, pk=done.pk)


def qr_svg(link: str) -> str:
    """The link as a QR code, an SVG the page scales (segno: pure Python, no picture files)."""
    code = segno.make(link, error="m")
    return code.svg_inline(scale=1, border=2, omitsize=True, svgclass="qr-code", title=link)


@login_required
def member_invitation(request, slug, pk):
    """The in-person invitation's QR code and link, for the owner to show."""
    club = club_for(request, slug, permissions.can_manage_members)
    invitation = get_object_or_404(MemberInvitation, pk=pk, club=club, addressed_to="")
    link = request.build_absolute_uri(invitation.get_absolute_url())
    qr = mark_safe(qr_svg(link))  # noqa: S308 - segno's own SVG of the site's link
    context = {"club": club, "invitation": invitation, "link": link, "qr": qr}
    return render(request, "clubs/member_invitation.html", context)


@login_required
@require_POST
def member_invitation_withdraw(request, slug, pk):
    club = club_for(request, slug, permissions.can_manage_members)
    invitation = get_object_or_404(MemberInvitation, pk=pk, club=club)
    services.withdraw_invitation(actor=request.user, invitation=invitation)
    messages.success(request, _("The invitation is withdrawn."))
    return redirect("clubs:members", slug=club.slug)


@login_required
def join_invitation(request, token):
    """The invited person's page: which club invites him, with which role; accept or decline."""
    invitation = MemberInvitation.objects.select_related("club", "created_by").filter(token=token).first()
    if request.method == "POST":
        form = AnswerForm(request.POST)
        if not form.is_valid():
            messages.error(request, _("Choose to accept or to decline."))
            return redirect(request.path)
        with refusal_as_message(request):
            if form.cleaned_data["answer"] == "accept":
                membership = services.accept_invitation(actor=request.user, token=token)
                messages.success(
                    request, _("You are now a member of %(club)s.") % {"club": membership.club.name}
                )
                return redirect(membership.club)
            services.decline_invitation(actor=request.user, token=token)
            messages.success(request, _("You have declined the invitation."))
            return redirect("clubs:my_profile")
        return redirect("clubs:my_profile")
    if invitation is None or not (invitation.in_person or invitation.user_id == request.user.pk):
        return render(request, "clubs/join_invitation.html", {"invitation": None}, status=404)
    return render(request, "clubs/join_invitation.html", {"invitation": invitation, "form": AnswerForm()})
