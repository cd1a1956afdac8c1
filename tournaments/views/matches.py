"""A match's page (enter, confirm, dispute, correct, a live table's result), a forfeit (asks first);
a player's matches. A correction after later rounds were paired lists those pairings."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _

from archive import selectors as archive
from clubs.addresses import client_address
from clubs.confirm import Question, ask_first
from clubs.form_keys import once_per_key
from gameplay.engine.sheets import InvalidScore
from ratings.selectors.match import match_ratings

from .. import permissions, selectors, services
from ..core.games import KOZYOL, score_deals, tournament_game
from ..formats import format_of
from ..formats.series import tie_after_forfeit, tie_of
from ..models import Match, MatchStatus
from ..result_forms import (
    DEAL_ROWS_MAX,
    DisputeForm,
    FinalScoreForm,
    PinForm,
    parse_deals,
    posted_deal_rows,
    stored_deal_rows,
)
from ..score_words import score_error_text
from ..selectors import day as day_selectors
from ..services import live
from .common import context, error_text, refusals, require_manager, tournament_or_404


def sheet_preview(tournament, deals):
    try:
        return score_deals(tournament.rules, deals), None
    except InvalidScore as error:
        return None, score_error_text(error)


@once_per_key
@refusals
def match(request, slug, pk):
    tournament = tournament_or_404(slug)
    try:
        m = selectors.match_detail(tournament=tournament, pk=pk)
    except Match.DoesNotExist:
        raise Http404 from None
    if tournament.is_duplicate and not m.bye:  # a duplicate table's result is its boards'
        return redirect("tournaments:board_entry", slug=tournament.slug, pk=m.pk)
    can_manage = permissions.can_manage(request.user, tournament)
    side = permissions.side_of(request.user, m)
    preview = preview_error = None
    score_form = FinalScoreForm(prefix="final")
    if request.method == "POST":
        action = request.POST.get("action", "")
        try:
            if action == "final":
                score_form = FinalScoreForm(request.POST, prefix="final")
                if score_form.is_valid():
                    data = score_form.cleaned_data
                    if can_manage and m.has_result:
                        services.correct_result(
                            actor=request.user, match=m,
                            home_eyes=data["home_eyes"], away_eyes=data["away_eyes"],
                            reason=request.POST.get("reason", ""),
                        )  # fmt: skip
                    else:
                        services.enter_result(
                            actor=request.user,
                            match=m,
                            home_eyes=data["home_eyes"],
                            away_eyes=data["away_eyes"],
                            **_pin_of(request, can_manage or side is not None),
                        )
                    messages.success(request, _("The result is saved."))
                    return redirect(m.get_absolute_url())
                raise score_form.problems()
            elif action in ("deals", "preview"):
                deals = parse_deals(request.POST, tournament_game(tournament.rules))
                if action == "preview":
                    preview, preview_error = sheet_preview(tournament, deals)
                else:
                    if can_manage and m.has_result:
                        services.correct_result(
                            actor=request.user, match=m, deals=deals, reason=request.POST.get("reason", "")
                        )
                    else:
                        services.enter_result(
                            actor=request.user, match=m, deals=deals,
                            **_pin_of(request, can_manage or side is not None),
                        )
                    messages.success(request, _("The score sheet is saved."))
                    return redirect(m.get_absolute_url())
            elif action == "confirm":
                services.confirm_result(
                    actor=request.user, match=m, pin=request.POST.get("pin"), sender=_pin_sender(request)
                )
                messages.success(request, _("The result is confirmed. Thank you!"))
                return redirect(m.get_absolute_url())
            elif action == "dispute":
                services.dispute_result(
                    actor=request.user,
                    match=m,
                    note=request.POST.get("note", ""),  # the service keeps its first 500 characters
                    pin=request.POST.get("pin"),
                    sender=_pin_sender(request),
                )
                messages.warning(request, _("The result is disputed. The organiser will settle it."))
                return redirect(m.get_absolute_url())
            elif action == "live":
                if not request.user.is_authenticated:
                    return redirect_to_login(request.get_full_path())
                try:
                    table_id = int(request.POST.get("table", ""))
                except ValueError:
                    raise ValidationError(_("Write the table's number.")) from None
                live.import_live_result(actor=request.user, match=m, table_id=table_id)
                messages.success(request, _("The live table's result is recorded."))
                return redirect(m.get_absolute_url())
        except ValidationError as e:
            for text in e.messages:
                messages.error(request, text)
        m = selectors.match_detail(tournament=tournament, pk=pk)
    by_pin = not can_manage and side is None  # a visitor, or someone not at this table: a side's PIN
    may_enter = (
        m.status in (MatchStatus.SCHEDULED, MatchStatus.UNCONFIRMED) and not m.bye
    ) or (m.status == MatchStatus.DISPUTED and can_manage and not m.has_result)  # a live result refused
    if m.status == MatchStatus.UNCONFIRMED and not can_manage and not by_pin and side != m.reported_side:
        may_enter = False  # the other pair confirms or disputes; the reporting pair may still fix a typo
    may_answer = m.status == MatchStatus.UNCONFIRMED and (
        can_manage or (side is not None and side != m.reported_side) or side is None
    )
    archived = (archive.visible_matches(request.user).filter(tournament_match=m.pk)
                .values_list("pk", flat=True).first())
    shown = context(
        request,
        tournament,
        "rounds",
        match=m,
        ratings=match_ratings(m, request.user),
        side=side,
        may_enter=may_enter,
        report_by_pin=may_enter and by_pin,
        fix_by_pin=may_enter and by_pin and m.status == MatchStatus.UNCONFIRMED,
        may_correct=can_manage and m.has_result and not m.bye,
        later=day_selectors.later_pairings(match=m) if can_manage and m.has_result else [],
        online=m.round.effective_play_mode == "online" and not m.bye,
        may_answer=may_answer,
        needs_pin=may_answer and not can_manage and side is None,
        score_form=score_form,
        deal_rows=posted_deal_rows(request.POST) if request.method == "POST" else stored_deal_rows(m),
        deal_rows_max=DEAL_ROWS_MAX,
        kozyol_sheet=tournament_game(tournament.rules) == KOZYOL,
        preview=preview,
        preview_error=preview_error,
        pin_form=PinForm(),
        dispute_form=DisputeForm(auto_id="dispute_%s"),
        archived=archived,
    )
    return render(request, "tournaments/match.html", shown)


def _pin_of(request, known: bool) -> dict:
    """The PIN a result is reported with, for someone the site does not know as the organiser or a
    player of the match (``known``: none is needed). A form sent with the PIN's field empty asks for
    it; one sent without the field at all, by someone signed in, is refused as the API's is."""
    return {} if known else {"pin": request.POST.get("pin"), "sender": _pin_sender(request)}


def _pin_sender(request) -> services.PinSender:
    """Who types a PIN, for the counters of wrong PINs: the browser session (made now for a visitor
    without one) and the client address."""
    if not request.session.session_key:
        request.session.save()
    return services.PinSender(session=request.session.session_key or "", address=client_address(request))


@login_required
def my_matches(request):
    matches = selectors.my_matches(user=request.user)
    pid = permissions.player_id_of(request.user)
    for m in matches:
        m.my_side = permissions.side_of(request.user, m)
        m.to_confirm = m.status == MatchStatus.UNCONFIRMED and m.my_side and m.my_side != m.reported_side
    return render(
        request,
        "tournaments/my_matches.html",
        {
            "matches": matches,
            "player_id": pid,
            "login_url": reverse("account_login"),
            "casual": archive.my_casual_matches(request.user),
        },
    )


def _series_effects(tournament, m: Match, losing, winning) -> list[str]:
    """What a forfeit of one game of a best-of tie decides: that game only, and where the tie then
    stands (empty for a single match, which the plain words cover)."""
    fmt = format_of(tournament)
    if not fmt.plays_series:
        return []
    best_of = fmt.tie_best_of(m)
    if best_of < 2:
        return []
    words = {"n": m.game, "winner": winning.name, "loser": losing.name}
    lines = [
        _("Match %(n)d of the tie goes to %(winner)s 12:0: %(loser)s forfeit this match, not the tie.")
        % words
    ]
    try:
        outcome = tie_after_forfeit(tie_of(m), m, winner_home=winning.pk == m.home_id, best_of=best_of)
    except ValueError:
        lines.append(_("It would decide the tie before a match already played, so it will be refused."))
        return lines
    won, lost = (
        (outcome.top_wins, outcome.bottom_wins)
        if winning.pk == m.home_id
        else (outcome.bottom_wins, outcome.top_wins)
    )
    words |= {"won": won, "lost": lost, "next": m.game + 1}
    if outcome.winner is not None:
        lines.append(_("%(winner)s win the tie %(won)d:%(lost)d.") % words)
    elif outcome.top_wins == outcome.bottom_wins == best_of // 2:
        lines.append(_("The tie stands %(won)d:%(lost)d; match %(next)d decides it.") % words)
    else:
        lines.append(
            _("The tie stands %(won)d:%(lost)d for %(winner)s; the next match is played.") % words
        )
    return lines


@login_required
@refusals
def forfeit(request, slug, pk, loser):
    """The organiser records a forfeit or a no-show (12:0 to the other pair), asking first: from
    the dashboard's "Needs you" and the match page. "Cancel" goes back to where it was asked."""
    tournament = tournament_or_404(slug)
    require_manager(request, tournament)
    m = get_object_or_404(Match.objects.select_related("round", "home", "away"), pk=pk, tournament=tournament)
    if m.bye or loser not in (m.home_id, m.away_id):
        raise Http404  # the losing pair is one of this match's, never an entry found by its id alone
    losing, winning = (m.home, m.away) if loser == m.home_id else (m.away, m.home)
    back = request.GET.get("back", "")
    if not url_has_allowed_host_and_scheme(back, allowed_hosts=None):
        back = m.get_absolute_url()
    effects = _series_effects(tournament, m, losing, winning) or [
        _("%(loser)s lose this match 0:12 and %(winner)s win it.")
        % {"loser": losing.name, "winner": winning.name}
    ]
    if m.has_result:
        effects.append(
            _("It replaces the result %(home)d:%(away)d (the correction is logged).")
            % {"home": m.home_eyes, "away": m.away_eyes}
        )
    question = Question(
        title=_("Record a forfeit by %(name)s?") % {"name": losing.name},
        button=_("Record the forfeit"),
        back=back,
        effects=effects,
    )
    asked = ask_first(request, question)
    if asked is not None:
        return asked
    try:
        services.record_forfeit(actor=request.user, match=m, loser=losing)
    except ValidationError as e:
        messages.error(request, error_text(e))
    else:
        messages.success(request, _("The forfeit is recorded (12:0)."))
    return redirect(back)
