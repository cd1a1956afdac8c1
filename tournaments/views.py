"""Tournament pages. Reads go through selectors, every write through one service."""

from __future__ import annotations

import csv
from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Q
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs.models import Club, Player

from . import live, permissions, selectors, services
from .core.eyes import DealSummary, InvalidScore, ScoringRules, score_sheet
from .core.standings import Tiebreak
from .forms import (
    DEAL_ROWS,
    RULE_LABELS,
    TIEBREAK_HELP,
    TIEBREAK_LABELS,
    BulkEntriesForm,
    DisputeForm,
    FinalScoreForm,
    PinForm,
    RoundForm,
    SelfRegisterForm,
    SubstituteForm,
    TournamentForm,
    parse_deals,
)
from .models import Entry, EntryStatus, Format, Match, MatchStatus, Tournament, TournamentStatus


def _error_text(error: ValidationError) -> str:
    return " ".join(error.messages)


def _tournament(slug: str) -> Tournament:
    try:
        return selectors.tournament_by_slug(slug)
    except Tournament.DoesNotExist:
        raise Http404 from None


def refusals(view):
    """A refused action gets a page that says why (403), not a bare error."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except PermissionDenied as denied:
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            reason = str(denied) or _("You may not do this.")
            return render(request, "tournaments/refused.html", {"reason": reason}, status=403)

    return wrapper


def _context(request, tournament: Tournament, tab: str, **extra) -> dict:
    return {
        "tournament": tournament,
        "club": tournament.club,
        "tab": tab,
        "can_manage": permissions.can_manage(request.user, tournament),
        **extra,
    }


# --- club list and creation ----------------------------------------------------------------------


def club_tournaments(request, club_slug):
    club = get_object_or_404(Club, slug=club_slug)
    return render(
        request,
        "tournaments/club_tournaments.html",
        {
            "club": club,
            "tournaments": selectors.club_tournaments(club=club),
            "can_create": permissions.can_create(request.user, club),
        },
    )


@login_required
@refusals
def create(request, club_slug):
    club = get_object_or_404(Club, slug=club_slug)
    if not permissions.can_create(request.user, club):
        raise PermissionDenied(_("Only the club's owners and organisers create tournaments."))
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = services.create_tournament(actor=request.user, club=club, **form.service_values())
        except ValidationError as e:
            form.add_error(None, e)
        else:
            messages.success(request, _("The tournament is created. Now register the pairs."))
            return redirect("tournaments:entries", slug=tournament.slug)
    return render(request, "tournaments/form.html", {"form": form, "club": club, "creating": True})


@login_required
@refusals
def edit(request, slug):
    tournament = _tournament(slug)
    if not permissions.can_manage(request.user, tournament):
        raise PermissionDenied(_("Only the club's owners and organisers run its tournaments."))
    form = TournamentForm(request.POST or None, initial=TournamentForm.initial_for(tournament))
    if request.method == "POST" and form.is_valid():
        try:
            services.update_tournament(actor=request.user, tournament=tournament, **form.service_values())
        except ValidationError as e:
            form.add_error(None, e)
        else:
            messages.success(request, _("Saved."))
            return redirect(tournament)
    return render(
        request, "tournaments/form.html", {"form": form, "club": tournament.club, "tournament": tournament}
    )


# --- public pages ----------------------------------------------------------------------------------


def _rules_display(tournament: Tournament) -> list[tuple[str, str]]:
    from .forms import CHOICE_LABELS

    rows = []
    for key, value in (tournament.rules or {}).items():
        shown = CHOICE_LABELS.get(
            str(value), _("yes") if value is True else _("no") if value is False else value
        )
        rows.append((RULE_LABELS.get(key, key), shown))
    return rows


def home(request, slug):
    tournament = _tournament(slug)
    rounds = list(tournament.rounds.order_by("number"))
    next_round_allowed = tournament.status != TournamentStatus.FINISHED and (
        not rounds or rounds[-1].status == "complete"
    )
    context = _context(
        request,
        tournament,
        "home",
        rounds=rounds,
        entry_count=(tournament.individual_entries if tournament.is_individual else tournament.entries)
        .filter(status__in=(EntryStatus.APPROVED, EntryStatus.CHECKED_IN))
        .count(),
        pending=selectors.pending_entries(tournament=tournament),
        open_matches=selectors.open_matches(tournament=tournament)
        if permissions.can_manage(request.user, tournament)
        else [],
        prizes=(
            individual_selectors
            if tournament.is_individual
            else bracket_selectors
            if tournament.has_bracket
            else selectors
        ).prize_list(tournament=tournament),
        rules=_rules_display(tournament),
        tiebreaks=[TIEBREAK_LABELS.get(t, t) for t in selectors.tiebreak_order(tournament)],
        next_round_allowed=next_round_allowed,
        missing=rounds[-1].matches.exclude(status=MatchStatus.CONFIRMED).count()
        if rounds and not next_round_allowed and tournament.status != TournamentStatus.FINISHED
        else 0,
    )
    return render(request, "tournaments/home.html", context)


def entries(request, slug):
    tournament = _tournament(slug)
    if tournament.is_individual:
        return individual_views.players(request, tournament)
    can_manage = permissions.can_manage(request.user, tournament)
    my_pid = permissions.player_id_of(request.user)
    registered = (
        my_pid is not None
        and tournament.entries.exclude(status=EntryStatus.WITHDRAWN)
        .filter(Q(player_a_id=my_pid) | Q(player_b_id=my_pid))
        .exists()
    )
    self_form = None
    if (
        tournament.self_registration
        and request.user.is_authenticated
        and not registered
        and tournament.status != TournamentStatus.FINISHED
    ):
        self_form = SelfRegisterForm(players=_partner_choices(tournament, my_pid))
    context = _context(
        request,
        tournament,
        "entries",
        entries=selectors.entries(tournament=tournament),
        bulk_form=BulkEntriesForm() if can_manage else None,
        self_form=self_form,
        my_player_id=my_pid,
        rounds=list(tournament.rounds.order_by("number")) if can_manage else [],
        check_in_open=can_manage and _check_in_open(tournament),
        reinstatable=services.reinstatable_entries(tournament) if can_manage else set(),
    )
    return render(request, "tournaments/entries.html", context)


def _check_in_open(tournament: Tournament) -> bool:
    """The organiser's "Check in" buttons show only while the service would take them."""
    return tournament.status == TournamentStatus.REGISTRATION and not services.check_in_closed(tournament)


def _partner_choices(tournament: Tournament, my_pid):
    return (
        Player.objects.filter(
            roster_entries__club=tournament.club, roster_entries__active=True, merged_into__isnull=True
        )
        .exclude(pk=my_pid)
        .distinct()
        .order_by("display_name")
    )


def round_view(request, slug, number):
    tournament = _tournament(slug)
    if tournament.is_individual:
        return individual_views.round_view(request, tournament, number)
    try:
        rnd = selectors.round_detail(tournament=tournament, number=number)
    except tournament.rounds.model.DoesNotExist:
        raise Http404 from None
    can_manage = permissions.can_manage(request.user, tournament)
    round_form = None
    if can_manage:
        round_form = RoundForm(
            initial={"deadline": rnd.deadline, "play_mode": rnd.play_mode, "best_of": rnd.best_of}
        )
    context = _context(
        request,
        tournament,
        "rounds",
        round=rnd,
        rounds=list(tournament.rounds.order_by("number")),
        round_form=round_form,
    )
    return render(request, "tournaments/round.html", context)


def results(request, slug):
    tournament = _tournament(slug)
    return render(
        request,
        "tournaments/results.html",
        _context(
            request,
            tournament,
            "results",
            rounds=selectors.rounds_with_matches(tournament=tournament),
            coming=selectors.coming_matchdays(tournament=tournament),
        ),
    )


def standings(request, slug):
    tournament = _tournament(slug)
    if tournament.is_individual:
        return individual_views.standings(request, tournament)
    if tournament.has_bracket:
        return bracket_views.standings(request, tournament)
    table = selectors.standings(tournament=tournament)
    return render(
        request,
        "tournaments/standings.html",
        _context(
            request,
            tournament,
            "standings",
            table=table,
            tiebreak_labels=[TIEBREAK_LABELS.get(t, t) for t in table.tiebreaks],
            tiebreak_help=[
                (TIEBREAK_LABELS[Tiebreak(t)], TIEBREAK_HELP[Tiebreak(t)]) for t in table.tiebreaks
            ],
            prizes=selectors.prize_list(tournament=tournament),
        ),
    )


def crosstable(request, slug):
    tournament = _tournament(slug)
    if tournament.format != Format.ROUND_ROBIN:
        raise Http404
    return render(
        request,
        "tournaments/crosstable.html",
        _context(request, tournament, "crosstable", grid=selectors.crosstable(tournament=tournament)),
    )


def bracket(request, slug):
    tournament = _tournament(slug)
    if tournament.has_bracket:
        return bracket_views.bracket(request, tournament)
    if not tournament.is_knockout:
        raise Http404
    return render(
        request,
        "tournaments/bracket.html",
        _context(
            request,
            tournament,
            "bracket",
            bracket=selectors.bracket(tournament=tournament),
            prizes=selectors.prize_list(tournament=tournament),
        ),
    )


# --- exports ---------------------------------------------------------------------------------------


def _standings_rows(tournament):
    table = selectors.standings(tournament=tournament)
    for line in table.lines:
        r = line.row
        yield {
            "place": r.place,
            "shared": r.shared,
            "pair": line.entry.name,
            "entry_id": line.entry.pk,
            "match_points": r.match_points,
            "played": r.played,
            "wins": r.wins,
            "losses": r.losses,
            "byes": r.byes,
            "eyes_for": r.eyes_for,
            "eyes_against": r.eyes_against,
            "eye_difference": r.eye_difference,
            "buchholz": r.buchholz,
            "sonneborn_berger": r.sonneborn_berger,
            "lucy": r.lucy,
            "withdrawn": r.withdrawn,
            "prize": line.prize,
        }


def _result_rows(tournament):
    for m in selectors.results(tournament=tournament):
        yield {
            "round": m.round.number,
            "table": m.table,
            "slot": m.slot,
            "game": m.game,
            "home": m.home.name,
            "away": m.away.name if m.away else "",
            "home_eyes": m.home_eyes,
            "away_eyes": m.away_eyes,
            "winner": (m.home.name if m.winner_id == m.home_id else m.away.name if m.away else "")
            if m.winner_id
            else "",
            "bye": m.bye,
            "forfeit": m.forfeit,
            "status": m.status,
        }


def export(request, slug, what, fmt):
    tournament = _tournament(slug)
    if tournament.is_individual and what != "results":
        rows = list(
            individual_views.standings_rows(tournament)
            if what == "standings"
            else individual_views.seat_rows(tournament)
        )
    elif what == "seats":
        raise Http404
    elif tournament.has_bracket and what == "standings":
        rows = list(bracket_views.standings_rows(tournament))
    else:
        rows = list(_standings_rows(tournament) if what == "standings" else _result_rows(tournament))
    filename = f"{tournament.slug}-{what}.{fmt}"
    if fmt == "json":
        response = JsonResponse(
            {"tournament": tournament.name, what: rows},
            json_dumps_params={"ensure_ascii": False, "indent": 1},
        )
    else:
        response = HttpResponse(content_type="text/csv; charset=utf-8")
        response.write("\ufeff")  # Excel opens UTF-8 with a BOM correctly
        if rows:
            writer = csv.DictWriter(response, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


# --- print views -----------------------------------------------------------------------------------


def print_pairings(request, slug, number):
    tournament = _tournament(slug)
    if tournament.is_individual:
        return individual_views.print_pairings(request, tournament, number)
    try:
        rnd = selectors.round_detail(tournament=tournament, number=number)
    except tournament.rounds.model.DoesNotExist:
        raise Http404 from None
    return render(request, "tournaments/print_pairings.html", {"tournament": tournament, "round": rnd})


@login_required
@refusals
def print_sheets(request, slug, number):
    """A4 score sheets, one per table, with the table's PIN: for the organiser only."""
    tournament = _tournament(slug)
    if not permissions.can_manage(request.user, tournament):
        raise PermissionDenied(_("Only the organiser prints score sheets: they carry the tables' PINs."))
    try:
        rnd = selectors.round_detail(tournament=tournament, number=number)
    except tournament.rounds.model.DoesNotExist:
        raise Http404 from None
    return render(
        request,
        "tournaments/print_sheets.html",
        {"tournament": tournament, "round": rnd, "lines": range(1, 21), "rules": _rules_display(tournament)},
    )


# --- organiser actions -----------------------------------------------------------------------------


@login_required
@require_POST
@refusals
def pair_next(request, slug):
    tournament = _tournament(slug)
    try:
        rnd = services.pair_next_round(actor=request.user, tournament=tournament)
    except ValidationError as e:
        messages.error(request, _error_text(e))
        return redirect(tournament)
    messages.success(request, _("Round %(n)d is paired.") % {"n": rnd.number})
    return redirect("tournaments:round", slug=slug, number=rnd.number)


@login_required
@require_POST
@refusals
def entries_bulk(request, slug):
    tournament = _tournament(slug)
    form = BulkEntriesForm(request.POST)
    if form.is_valid():
        try:
            result = services.register_entries_bulk(
                actor=request.user, tournament=tournament, text=form.cleaned_data["text"]
            )
        except ValidationError as e:
            for text in e.messages:
                messages.error(request, text)
        else:
            messages.success(
                request,
                _("%(n)d pair(s) registered; %(p)d new player(s) added to the roster.")
                % {"n": len(result.entries), "p": len(result.new_players)},
            )
    return redirect("tournaments:entries", slug=slug)


@login_required
@require_POST
@refusals
def entry_action(request, slug, pk, action):
    tournament = _tournament(slug)
    entry = get_object_or_404(Entry, pk=pk, tournament=tournament)
    service = {
        "approve": services.approve_entry,
        "check-in": services.check_in_entry,
        "withdraw": services.withdraw_entry,
        "reinstate": services.reinstate_entry,
        "up": lambda **kw: services.move_entry(up=True, **kw),
        "down": lambda **kw: services.move_entry(up=False, **kw),
    }.get(action)
    if service is None:
        raise Http404
    was_withdrawn = entry.status == EntryStatus.WITHDRAWN
    try:
        done = service(actor=request.user, entry=entry)
    except ValidationError as e:
        messages.error(request, _error_text(e))
    else:
        if action == "reinstate" and was_withdrawn:
            messages.success(request, reinstated_text(done))
        elif action not in ("up", "down"):
            messages.success(request, _("%(pair)s: done.") % {"pair": entry.name})
    return redirect("tournaments:entries", slug=slug)


def reinstated_text(entry) -> str:
    """What the organiser is told after "Reinstate" (a pair or a player): whether it is checked in."""
    if entry.status == EntryStatus.CHECKED_IN:
        return _("%(name)s is back in the tournament, checked in.") % {"name": entry.name}
    return _("%(name)s is back in the tournament.") % {"name": entry.name}


@login_required
@require_POST
@refusals
def self_register(request, slug):
    tournament = _tournament(slug)
    form = SelfRegisterForm(
        request.POST, players=_partner_choices(tournament, permissions.player_id_of(request.user))
    )
    if form.is_valid():
        try:
            services.self_register(
                actor=request.user, tournament=tournament, partner=form.cleaned_data["partner"]
            )
        except ValidationError as e:
            messages.error(request, _error_text(e))
        else:
            messages.success(request, _("Your pair is registered and waits for the organiser's approval."))
    else:
        messages.error(request, _("Choose your partner."))
    return redirect("tournaments:entries", slug=slug)


@login_required
@refusals
def substitute(request, slug, pk):
    tournament = _tournament(slug)
    if not permissions.can_manage(request.user, tournament):
        raise PermissionDenied(_("Only the club's owners and organisers run its tournaments."))
    entry = get_object_or_404(
        Entry.objects.select_related("player_a", "player_b"), pk=pk, tournament=tournament
    )
    form = SubstituteForm(
        request.POST or None,
        rounds=tournament.rounds.order_by("number"),
        pair_players=Player.objects.filter(pk__in=(entry.player_a_id, entry.player_b_id)),
        players=_partner_choices(tournament, None),
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.substitute(actor=request.user, entry=entry, **form.cleaned_data)
        except ValidationError as e:
            form.add_error(None, e)
        else:
            messages.success(request, _("The substitution is recorded."))
            return redirect("tournaments:entries", slug=slug)
    return render(
        request,
        "tournaments/substitute.html",
        _context(request, tournament, "entries", entry=entry, form=form),
    )


@login_required
@require_POST
@refusals
def round_edit(request, slug, number):
    tournament = _tournament(slug)
    rnd = get_object_or_404(tournament.rounds, number=number)
    form = RoundForm(request.POST)
    if form.is_valid():
        try:
            services.set_round_options(
                actor=request.user,
                round=rnd,
                deadline=form.cleaned_data["deadline"],
                play_mode=form.cleaned_data["play_mode"],
                best_of=form.cleaned_data["best_of"],
            )
        except ValidationError as e:
            messages.error(request, _error_text(e))
        else:
            messages.success(request, _("Saved."))
    return redirect("tournaments:round", slug=slug, number=number)


# --- a match: enter, confirm, dispute, correct --------------------------------------------------


def _sheet_preview(tournament, deals):
    try:
        return score_sheet([DealSummary(**d) for d in deals], ScoringRules.from_rules(tournament.rules)), None
    except InvalidScore as error:
        return None, str(error)


@refusals
def match(request, slug, pk):
    tournament = _tournament(slug)
    try:
        m = selectors.match_detail(tournament=tournament, pk=pk)
    except Match.DoesNotExist:
        raise Http404 from None
    can_manage = permissions.can_manage(request.user, tournament)
    side = permissions.side_of(request.user, m)
    preview = preview_error = None
    score_form = FinalScoreForm(prefix="final")
    if request.method == "POST":
        action = request.POST.get("action", "")
        if action in ("final", "deals", "preview") and not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        try:
            if action == "final":
                score_form = FinalScoreForm(request.POST, prefix="final")
                if score_form.is_valid():
                    data = score_form.cleaned_data
                    if can_manage and m.has_result:
                        services.correct_result(
                            actor=request.user, match=m, home_eyes=data["home_eyes"], away_eyes=data["away_eyes"],
                            reason=request.POST.get("reason", ""),
                        )  # fmt: skip
                    else:
                        services.enter_result(
                            actor=request.user,
                            match=m,
                            home_eyes=data["home_eyes"],
                            away_eyes=data["away_eyes"],
                        )
                    messages.success(request, _("The result is saved."))
                    return redirect(m.get_absolute_url())
            elif action in ("deals", "preview"):
                deals = parse_deals(request.POST)
                if action == "preview":
                    preview, preview_error = _sheet_preview(tournament, deals)
                else:
                    if can_manage and m.has_result:
                        services.correct_result(
                            actor=request.user, match=m, deals=deals, reason=request.POST.get("reason", "")
                        )
                    else:
                        services.enter_result(actor=request.user, match=m, deals=deals)
                    messages.success(request, _("The score sheet is saved."))
                    return redirect(m.get_absolute_url())
            elif action == "confirm":
                form = PinForm(request.POST)
                form.is_valid()
                services.confirm_result(actor=request.user, match=m, pin=form.cleaned_data.get("pin"))
                messages.success(request, _("The result is confirmed. Thank you!"))
                return redirect(m.get_absolute_url())
            elif action == "dispute":
                form = DisputeForm(request.POST)
                form.is_valid()
                services.dispute_result(
                    actor=request.user,
                    match=m,
                    note=form.cleaned_data.get("note", ""),
                    pin=form.cleaned_data.get("pin"),
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
            elif action == "forfeit":
                if not request.user.is_authenticated:
                    return redirect_to_login(request.get_full_path())
                loser = m.home if request.POST.get("loser") == "home" else m.away
                services.record_forfeit(
                    actor=request.user, match=m, loser=loser, reason=request.POST.get("reason", "")
                )
                messages.success(request, _("The forfeit is recorded (12:0)."))
                return redirect(m.get_absolute_url())
        except ValidationError as e:
            if isinstance(e, services.WrongPin):
                services.note_wrong_pin(match=m)
            for text in e.messages:
                messages.error(request, text)
        m = selectors.match_detail(tournament=tournament, pk=pk)
    may_enter = (
        m.status in (MatchStatus.SCHEDULED, MatchStatus.UNCONFIRMED)
        and not m.bye
        and (can_manage or side is not None)
    ) or (m.status == MatchStatus.DISPUTED and can_manage and not m.has_result)  # a live result refused
    if m.status == MatchStatus.UNCONFIRMED and not can_manage and side != m.reported_side:
        may_enter = False  # the other pair confirms or disputes; the reporting pair may still fix a typo
    may_answer = m.status == MatchStatus.UNCONFIRMED and (
        can_manage or (side is not None and side != m.reported_side) or side is None
    )
    context = _context(
        request,
        tournament,
        "rounds",
        match=m,
        side=side,
        may_enter=may_enter,
        may_correct=can_manage and m.has_result and not m.bye,
        online=m.round.effective_play_mode == "online" and not m.bye,
        may_answer=may_answer,
        needs_pin=may_answer and not can_manage and side is None,
        score_form=score_form,
        deal_rows=_deal_rows(request.POST if request.method == "POST" else None, m),
        preview=preview,
        preview_error=preview_error,
        pin_form=PinForm(),
        dispute_form=DisputeForm(auto_id="dispute_%s"),
    )
    return render(request, "tournaments/match.html", context)


def _deal_rows(post, m: Match):
    rows = []
    existing = {d.number: d for d in m.deals.all()} if post is None else {}
    for i in range(1, DEAL_ROWS + 1):
        d = existing.get(i)
        if post is not None:
            rows.append(
                {
                    "n": i,
                    "home": post.get(f"deal-{i}-home", ""),
                    "away": post.get(f"deal-{i}-away", ""),
                    "jack": post.get(f"deal-{i}-jack", ""),
                    "all": post.get(f"deal-{i}-all", ""),
                }
            )
        else:
            rows.append(
                {
                    "n": i,
                    "home": d.home_points if d else "",
                    "away": d.away_points if d else "",
                    "jack": str(d.jack_holder + 1) if d else "",
                    "all": "" if not d or d.all_tricks is None else str(d.all_tricks + 1),
                }
            )
    return rows


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
        {"matches": matches, "player_id": pid, "login_url": reverse("account_login")},
    )


from . import (  # noqa: E402 - they use the helpers above
    bracket_selectors,
    bracket_views,
    individual_selectors,
    individual_views,
)
