"""The organiser's dashboard of a tournament day and the spectators' "now playing" board.

Every button posts to ``dashboard_action``, which calls one service (the same ones the other
pages use) with the signed-in user as actor, so permissions are checked in one place. What cannot
be undone asks first (``clubs.confirm``): a forfeit (``matches.forfeit``) and granting a player's
ask to withdraw (``withdrawal_answer``).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import Http404, HttpResponseNotAllowed
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from archive import fairplay_selectors
from clubs import selectors as club_selectors
from clubs.confirm import Question, ask_first
from ratings import selectors as rating_selectors

from .. import selectors, services
from ..formats import format_of
from ..forms import AnnouncementForm, DaySettingsForm, HallViewForm
from ..models import Match, Notification, RequestStatus, WithdrawalRequest
from ..selectors import byes as bye_selectors
from ..selectors import day as day_selectors
from ..selectors import hall as hall_selectors
from ..selectors import open_matches
from ..selectors.fees import fee_totals
from ..services import online
from ..services.day import organiser_pair_next
from ..services.plans import day_settings
from .common import error_text, page, refusals, require_manager, tournament_or_404, withdrawal_lines


@login_required
def my_notifications(request):
    """The signed-in user's notices, newest first (opening the page marks them read), under what
    waits for his answer: clubs' invitations and pairs that asked him to be the partner."""
    notes = list(Notification.objects.filter(user=request.user)[:100])
    Notification.objects.filter(user=request.user, read_at__isnull=True).update(read_at=timezone.now())
    context = {
        "notes": notes,
        "club_invitations": club_selectors.invitations_for(user=request.user),
        "partner_requests": selectors.partner_requests(user=request.user),
    }
    return render(request, "tournaments/my_notifications.html", context)


def now_playing(request, slug):
    tournament = tournament_or_404(slug)
    return page(
        request,
        tournament,
        "live",
        "tournaments/now_playing.html",
        board=day_selectors.live_tables(tournament=tournament, user=request.user),
    )


@login_required
@refusals
def dashboard(request, slug):
    tournament = tournament_or_404(slug)
    require_manager(request, tournament)
    rounds = day_selectors.round_states(tournament=tournament)
    last = rounds[-1].round if rounds else None
    late = hall_selectors.late_tables(tournament=tournament)
    late_ids = {m.pk for m in late}
    return page(
        request,
        tournament,
        "dashboard",
        "tournaments/dashboard.html",
        rounds=rounds,
        progress=rating_selectors.recompute_progress(),
        can_pair=tournament.status != "finished" and (last is None or last.status == "complete"),
        next_number=(last.number + 1) if last else 1,
        sitting_out=bye_selectors.sitting_out(tournament=tournament, number=(last.number + 1) if last else 1),
        stuck=[m for m in day_selectors.stuck_matches(tournament=tournament) if m.pk not in late_ids],
        late=late,
        playing=last if last is not None and last.status != "complete" else None,
        announcements=hall_selectors.announcements(tournament=tournament),
        announcement_form=AnnouncementForm(),
        hall_form=HallViewForm(initial={"view": tournament.hall_view}),
        disputes=day_selectors.disputes(tournament=tournament),
        asks=day_selectors.withdrawal_requests(tournament=tournament),
        waiting=[m for m in open_matches(tournament=tournament) if m.status == "unconfirmed"],
        board=day_selectors.live_tables(tournament=tournament, user=request.user),
        plans=day_selectors.plans(tournament=tournament),
        fees=fee_totals(tournament=tournament),
        has_crosstable="crosstable" in format_of(tournament).pages,
        has_online_matches=fairplay_selectors.has_online_matches(tournament=tournament.pk),
        settings_form=DaySettingsForm(
            instance=day_settings(tournament),
        ),
    )


@login_required
@require_POST
@refusals
def dashboard_action(request, slug):
    tournament = tournament_or_404(slug)
    require_manager(request, tournament)
    action = request.POST.get("action", "")
    try:
        if action == "pair_next":
            rnd = organiser_pair_next(actor=request.user, tournament=tournament)
            messages.success(request, _("Round %(n)d is paired.") % {"n": rnd.number})
        elif action == "open_tables":
            rnd = get_object_or_404(tournament.rounds, number=request.POST.get("round"))
            with transaction.atomic():
                opened = online.open_tables(round_id=rnd.pk)
            messages.success(request, _("%(n)d live table(s) opened.") % {"n": opened})
        elif action == "correct":
            match = get_object_or_404(Match, tournament=tournament, pk=request.POST.get("match"))
            services.correct_result(
                actor=request.user,
                match=match,
                home_eyes=_int(request.POST.get("home_eyes")),
                away_eyes=_int(request.POST.get("away_eyes")),
                reason=request.POST.get("reason", "")[:300],
            )
            messages.success(request, _("Result saved."))
        elif action == "settings":
            form = DaySettingsForm(request.POST, instance=day_settings(tournament))
            if not form.is_valid():
                messages.error(request, _("Please check the day settings."))
            else:
                form.save()
                messages.success(request, _("Day settings saved."))
        else:
            raise Http404
    except ValidationError as error:
        messages.error(request, error_text(error))
    return redirect("tournaments:dashboard", slug=slug)


def _int(value) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ValidationError(_("Please give both scores as whole numbers.")) from None


@login_required
@refusals
def withdrawal_answer(request, slug, pk, answer):
    """The organiser grants a player's ask to withdraw (asks first: it forfeits unplayed matches)
    or declines it (posts at once: nothing changes in the event)."""
    if answer not in ("grant", "decline"):
        raise Http404
    tournament = tournament_or_404(slug)
    require_manager(request, tournament)
    ask = get_object_or_404(WithdrawalRequest, pk=pk, tournament=tournament)
    back = reverse("tournaments:dashboard", kwargs={"slug": slug})
    grant = answer == "grant"
    if ask.status != RequestStatus.PENDING and request.method != "POST":
        messages.info(request, _("This request has already been answered."))
        return redirect(back)
    if grant:
        lines = withdrawal_lines(ask.who)
        asked = ask_first(
            request,
            Question(
                title=_("Withdraw %(name)s, as asked?") % {"name": ask.who.name},
                button=_("Withdraw"),
                back=back,
                effects=lines,
            ),
        )
        if asked is not None:
            return asked
    elif request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    try:
        services.answer_withdrawal_request(actor=request.user, ask=ask, grant=grant)
    except ValidationError as error:
        messages.error(request, error_text(error))
    else:
        done = _("%(name)s is withdrawn.") if grant else _("The request of %(name)s is declined.")
        messages.success(request, done % {"name": ask.who.name})
    return redirect(back)
