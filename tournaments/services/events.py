"""The event's own settings: a tournament created, its settings changed (the format fixed once it starts)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from clubs.models import Club
from clubs.text import line
from clubs.text_fields import check_name, check_prose, too_long
from clubs.translit import to_latin
from gameplay.engine import Rules, RulesError

from .. import permissions
from ..core.tiebreaks import Tiebreak
from ..formats import default_tiebreaks, format_of
from ..formats.series import SERIES_LENGTHS
from ..models import MAX_ROUND_LENGTH, Format, PlayMode, Seeding, Tournament, TournamentStatus
from .common import audit, lock_tournament, require_manager, require_user
from .progress import maybe_finish

EDITABLE_FIELDS = (
    "name",
    "starts_on",
    "ends_on",
    "venue",
    "online",
    "description",
    "rules",
    "format",
    "double_round_robin",
    "swiss_rounds",
    "matchday_days",
    "seeding",
    "third_place",
    "best_of",
    "final_best_of",
    "play_mode",
    "prizes",
    "points_win",
    "points_loss",
    "points_bye",
    "tiebreaks",
    "self_registration",
    "rated",
    "entry_cap",
    "auto_confirm_hours",
    "round_length",
    "grand_final_reset",
    "group_count",
    "group_qualifiers",
)
FORMAT_FIELDS = frozenset(
    {
        "format",
        "double_round_robin",
        "seeding",
        "third_place",
        "grand_final_reset",
        "group_count",
        "group_qualifiers",
        "best_of",
        "final_best_of",
    }
)
SERIES_FIELDS = frozenset({"best_of", "final_best_of"})



def _unique_slug(name: str, *, exclude_pk: int | None = None) -> str:
    base = slugify(to_latin(name))[:140] or "tournament"
    slug, n = base, 1
    qs = Tournament.objects.exclude(pk=exclude_pk) if exclude_pk else Tournament.objects.all()
    while qs.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


def parse_rules(data: Any) -> dict:
    """A rules object as the engine reads it (gameplay.engine.rules), every key explicit."""
    try:
        return Rules.from_json(data or {}).to_json()
    except (RulesError, TypeError) as error:
        raise ValidationError(_("The rules are not valid: %(error)s") % {"error": error}) from error


PRIZE_LENGTH = 200
PRIZE_PLACES = 64


def _tidy(key: str, value: Any) -> str:
    """A name, the venue or the description as every typed text is kept (``clubs.text_fields``),
    refused by field when it cannot be."""
    field = Tournament._meta.get_field(key)
    check = check_prose if key == "description" else check_name
    try:
        return check(str(value or ""), limit=field.max_length)
    except ValidationError as error:
        raise ValidationError({key: error.messages}) from None


def _prizes(lines: Any) -> list[str]:
    """One prize per place, each tidied as a line of text; none blank, none too long."""
    prizes = [line(str(p)) for p in lines or []]
    prizes = [p for p in prizes if p]
    if len(prizes) > PRIZE_PLACES:
        raise ValidationError({"prizes": _("At most %(n)d prizes, one per place.") % {"n": PRIZE_PLACES}})
    for prize in prizes:
        if len(prize) > PRIZE_LENGTH:
            raise ValidationError({"prizes": too_long(PRIZE_LENGTH, len(prize)).messages})
    return prizes


def clean_settings(values: dict, *, current: Tournament | None = None) -> dict:
    unknown = set(values) - set(EDITABLE_FIELDS)
    if unknown:
        raise ValueError(f"unknown tournament fields: {sorted(unknown)}")
    clean = dict(values)
    for key in ("name", "venue", "description"):
        if key in clean:
            clean[key] = _tidy(key, clean[key])
    if "name" in clean and not clean["name"]:
        raise ValidationError(_("Please give the tournament a name."))
    if "rules" in clean:
        clean["rules"] = parse_rules(clean["rules"])
    fmt = clean.get("format", current.format if current else Format.SWISS)
    if fmt not in Format.values:
        raise ValidationError(_("Unknown format."))
    if "tiebreaks" in clean:
        order = list(clean["tiebreaks"] or [])
        bad = [t for t in order if t not in Tiebreak._value2member_map_]
        if bad or len(set(order)) != len(order):
            raise ValidationError(
                _("Unknown or repeated tiebreak: %(t)s") % {"t": ", ".join(map(str, bad or order))}
            )
        clean["tiebreaks"] = order or default_tiebreaks(fmt)
    if "prizes" in clean:
        clean["prizes"] = _prizes(clean["prizes"])
    for key, low in (
        ("swiss_rounds", 1),
        ("best_of", 1),
        ("auto_confirm_hours", 1),
        ("group_count", 1),
        ("group_qualifiers", 1),
    ):
        if key in clean and (clean[key] is None or clean[key] < low):
            raise ValidationError(
                _("%(field)s must be at least %(low)d.")
                % {"field": Tournament._meta.get_field(key).verbose_name, "low": low}
            )
    if clean.get("round_length") is not None and not 1 <= clean["round_length"] <= MAX_ROUND_LENGTH:
        raise ValidationError(
            _("A round lasts from 1 to %(most)d minutes; leave the length empty for no clock.")
            % {"most": MAX_ROUND_LENGTH}
        )
    for key in ("best_of", "final_best_of"):
        if clean.get(key) is not None and clean[key] not in SERIES_LENGTHS:
            raise ValidationError(
                _("%(field)s: a tie is played over 1, 3 or 5 matches, an odd number so that it always ends.")
                % {"field": Tournament._meta.get_field(key).verbose_name}
            )
    if clean.get("entry_cap") is not None and clean["entry_cap"] < 2:
        raise ValidationError(_("A tournament needs room for at least two pairs."))
    if clean.get("ends_on") and clean.get("starts_on") and clean["ends_on"] < clean["starts_on"]:
        raise ValidationError(_("The last day cannot come before the first day."))
    if clean.get("play_mode", PlayMode.PHYSICAL) not in PlayMode.values:
        raise ValidationError(_("Unknown play mode."))
    if clean.get("seeding", Seeding.RANDOM) not in Seeding.values:
        raise ValidationError(_("Unknown seeding."))
    return clean


def _state(t: Tournament) -> dict:
    return {
        f: (getattr(t, f).isoformat() if hasattr(getattr(t, f), "isoformat") else getattr(t, f))
        for f in EDITABLE_FIELDS
    }


# --- tournaments ---------------------------------------------------------------------------------


@transaction.atomic
def create_tournament(*, actor, club: Club, **values) -> Tournament:
    """The club's owners and organisers create tournaments; every setting has a default."""
    require_user(actor)
    if not permissions.can_create(actor, club):
        raise PermissionDenied(_("Only the club's owners and organisers create tournaments."))
    values.setdefault("rules", {})
    values.setdefault("tiebreaks", [])
    clean = clean_settings(values)
    if "starts_on" not in clean or clean["starts_on"] is None:
        clean["starts_on"] = timezone.localdate()
    tournament = Tournament(club=club, slug=_unique_slug(clean["name"]), created_by=actor, **clean)
    tournament.full_clean(exclude=["slug", "club", "created_by"])
    tournament.save()
    audit(
        actor=actor,
        action="tournament.create",
        obj=tournament,
        tournament=tournament,
        after=_state(tournament),
    )
    return tournament


@transaction.atomic
def update_tournament(*, actor, tournament: Tournament, **values) -> Tournament:
    tournament = lock_tournament(tournament)
    require_manager(actor, tournament)
    clean = clean_settings(values, current=tournament)
    if tournament.status != TournamentStatus.REGISTRATION:
        if "rated" in clean and bool(clean["rated"]) != tournament.rated:
            raise ValidationError(
                _("Whether the event is rated is decided before the first round is paired.")
            )
        changed = {k for k in FORMAT_FIELDS if k in clean and clean[k] != getattr(tournament, k)}
        if changed - SERIES_FIELDS:
            raise ValidationError(_("The format and seeding cannot change once the first round is paired."))
        if changed:
            raise ValidationError(
                _("How many matches a tie is played over cannot change once the first round is paired.")
            )
    paired = tournament.rounds.count()
    if format_of(tournament).rounds_from_setting and clean.get("swiss_rounds", paired) < paired:
        raise ValidationError(
            _("%(n)d rounds have already been paired; the Swiss cannot be shorter.") % {"n": paired}
        )
    before = _state(tournament)
    for key, value in clean.items():
        setattr(tournament, key, value)
    tournament.full_clean(exclude=["slug", "club", "created_by"])
    tournament.save()
    if paired:
        maybe_finish(tournament)  # a longer Swiss reopens a finished one
    audit(
        actor=actor,
        action="tournament.update",
        obj=tournament,
        tournament=tournament,
        before=before,
        after=_state(tournament),
    )
    return tournament


@transaction.atomic
def delete_tournament(*, actor, tournament: Tournament) -> None:
    """The organiser deletes an event that has not started: one made by mistake, or twice. Once
    round 1 is paired it has results, standings and an archive behind it, and stays. Its entries
    go with it; the club's log keeps the audit row with the event's settings and how many entered."""
    tournament = lock_tournament(tournament)
    require_manager(actor, tournament)
    if tournament.status != TournamentStatus.REGISTRATION or tournament.rounds.exists():
        raise ValidationError(_("Only a tournament whose first round is not paired yet can be deleted."))
    before = {
        **_state(tournament),
        "slug": tournament.slug,
        "entries": tournament.entries.count() + tournament.individual_entries.count(),
    }
    audit(actor=actor, action="tournament.delete", obj=tournament, tournament=tournament, before=before)
    tournament.delete()
