"""The event's own settings: a tournament created, its settings changed (the format fixed once it starts)."""

from __future__ import annotations

from dataclasses import replace
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
from gameplay.engine import RulesError

from .. import permissions
from ..core.games import DUPLICATE_GAMES, TOURNAMENT_GAMES, normalised_rules, tournament_game
from ..core.prizes import Category, Gender, Prize, PrizeSetup, prize_of_line, setup_from_json, setup_to_json
from ..core.tiebreaks import Tiebreak
from ..formats import default_tiebreaks, format_of
from ..formats.series import SERIES_LENGTHS
from ..models import (
    DUPLICATE_FORMATS,
    MAX_ROUND_LENGTH,
    BoardScale,
    ByeKind,
    Currency,
    Format,
    Movement,
    PlayMode,
    Seeding,
    Tournament,
    TournamentStatus,
)
from ..score_words import DUPLICATE_REFUSAL
from .common import audit, lock_tournament, require_manager, require_user
from .progress import maybe_finish

MAX_BOARDS = 8
"""A duplicate round's most boards: eight is an hour's play at a table."""
MAX_DUPLICATE_ROUNDS = 30

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
    "bye_requests",
    "bye_requests_max",
    "bye_requests_not_last",
    "tiebreaks",
    "self_registration",
    "rated",
    "entry_cap",
    "entry_fee",
    "fee_currency",
    "auto_confirm_hours",
    "round_length",
    "grand_final_reset",
    "group_count",
    "group_qualifiers",
    "boards_per_round",
    "movement",
    "board_scale",
    "duplicate_rounds",
)
FORMAT_FIELDS = frozenset(
    {
        "format",
        "boards_per_round",
        "movement",
        "board_scale",
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
    """A rules object as the engine reads it, every key explicit: Bilka's (`gameplay.engine.rules`,
    no `game` key) or another game's that a tournament may play (`{"game": "kozyol", …}`)."""
    try:
        rules = normalised_rules(data or {})
        if tournament_game(rules) not in TOURNAMENT_GAMES:
            raise RulesError("game", "a tournament plays Bilka or Kozyol khvalyony")
        return rules
    except (RulesError, TypeError) as error:
        raise ValidationError(_("The rules are not valid: %(error)s") % {"error": error}) from error


MAX_FEE = 10_000_000
"""The largest entry fee: ten million tenge is far beyond any club's event."""
PRIZE_LENGTH = 200
PRIZE_PLACES = 64
MAX_CATEGORIES = 4
"""As many as the settings form has slots for (``prize_form.CATEGORY_SLOTS``)."""
MAX_PRIZE_MONEY = 1_000_000_000


def _tidy(key: str, value: Any) -> str:
    """A name, the venue or the description as every typed text is kept (``clubs.text_fields``),
    refused by field when it cannot be."""
    field = Tournament._meta.get_field(key)
    check = check_prose if key == "description" else check_name
    try:
        return check(str(value or ""), limit=field.max_length)
    except ValidationError as error:
        raise ValidationError({key: error.messages}) from None


def _prize_lines(prizes: Any, *, field: str = "prizes") -> tuple[Prize, ...]:
    """Prizes given as lines of text (the API, events stored before categories) or as the stored
    objects; each label tidied as a line of text, none too long, at most ``PRIZE_PLACES``."""
    read = []
    for p in prizes or []:
        prize = prize_of_line(line(str(p))) if not isinstance(p, dict) else setup_from_json([p]).places[0]
        prize = Prize(label=line(prize.label), amount=prize.amount, indivisible=prize.indivisible)
        if prize.label or prize.amount is not None:
            read.append(prize)
    if len(read) > PRIZE_PLACES:
        raise ValidationError({field: _("At most %(n)d prizes, one per place.") % {"n": PRIZE_PLACES}})
    for prize in read:
        if len(prize.label) > PRIZE_LENGTH:
            raise ValidationError({field: too_long(PRIZE_LENGTH, len(prize.label)).messages})
        if prize.amount is not None and prize.amount > MAX_PRIZE_MONEY:
            raise ValidationError(
                {field: _("A prize's money is at most %(most)d.") % {"most": MAX_PRIZE_MONEY}}
            )
    return tuple(read)


def _prizes(value: Any, current: Tournament | None) -> dict:
    """The prize setup to store (``core.prizes.setup_to_json``). A list of lines replaces the place
    prizes and keeps the categories and options the event has; an object replaces everything."""
    if not isinstance(value, dict):
        kept = setup_from_json(current.prizes if current else [])
        return setup_to_json(replace(kept, places=_prize_lines(value)))
    setup = setup_from_json(value)
    categories = []
    for category in setup.categories:
        name = line(category.name)
        if not name:
            raise ValidationError({"prizes": _("Give each category a name.")})
        if len(name) > PRIZE_LENGTH:
            raise ValidationError({"prizes": too_long(PRIZE_LENGTH, len(name)).messages})
        rule = replace(category.rule, city=line(category.rule.city))
        if rule.empty:
            raise ValidationError(
                {
                    "prizes": _(
                        "The category “%(name)s” needs a rule: a club, a city or"
                        " village, years of birth, women or men, or newcomers."
                    )
                    % {"name": name}
                }
            )
        if rule.gender and rule.gender not in Gender._value2member_map_:
            raise ValidationError({"prizes": _("Unknown gender.")})
        for year in (rule.born_from, rule.born_to):
            if year is not None and not 1900 <= year <= 2100:
                raise ValidationError({"prizes": _("A year of birth is between 1900 and 2100.")})
        if rule.born_from and rule.born_to and rule.born_from > rule.born_to:
            later = _("The category “%(name)s”: “born in or after” is later than “born in or before”.")
            raise ValidationError({"prizes": later % {"name": name}})
        if rule.club is not None and not Club.objects.filter(pk=rule.club).exists():
            raise ValidationError({"prizes": _("Unknown club.")})
        prizes = _prize_lines([setup_to_json(PrizeSetup(places=(p,)))["places"][0] for p in category.prizes])
        if not prizes:
            raise ValidationError({"prizes": _("The category “%(name)s” has no prize.") % {"name": name}})
        categories.append(Category(name=name, rule=rule, prizes=prizes))
    if len(categories) > MAX_CATEGORIES:
        raise ValidationError({"prizes": _("At most %(n)d categories.") % {"n": MAX_CATEGORIES}})
    raw_places = value.get("places") or []
    return setup_to_json(
        PrizeSetup(places=_prize_lines(raw_places), categories=tuple(categories), options=setup.options)
    )


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
    game = tournament_game(clean["rules"] if "rules" in clean else (current.rules if current else {}))
    if fmt in DUPLICATE_FORMATS and game not in DUPLICATE_GAMES:
        raise ValidationError({"format": DUPLICATE_REFUSAL})
    if "tiebreaks" in clean:
        order = list(clean["tiebreaks"] or [])
        bad = [t for t in order if t not in Tiebreak._value2member_map_]
        if bad or len(set(order)) != len(order):
            raise ValidationError(
                _("Unknown or repeated tiebreak: %(t)s") % {"t": ", ".join(map(str, bad or order))}
            )
        clean["tiebreaks"] = order or default_tiebreaks(fmt)
    if "prizes" in clean:
        clean["prizes"] = _prizes(clean["prizes"], current)
    for key, low in (
        ("swiss_rounds", 1),
        ("best_of", 1),
        ("auto_confirm_hours", 1),
        ("group_count", 1),
        ("group_qualifiers", 1),
        ("bye_requests_max", 1),
        ("bye_requests_not_last", 0),
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
    if clean.get("entry_fee") is not None and not 0 <= clean["entry_fee"] <= MAX_FEE:
        raise ValidationError(
            {"entry_fee": _("An entry fee is a whole amount from 0 to %(most)d; leave it empty for none.")
             % {"most": MAX_FEE}}
        )  # fmt: skip
    if clean.get("entry_fee") == 0:
        clean["entry_fee"] = None  # a fee of nothing is no fee
    if clean.get("bye_requests") not in (None, "", *ByeKind.values):
        raise ValidationError({"bye_requests": _("A requested bye scores half a win or nothing.")})
    if "fee_currency" in clean and clean["fee_currency"] not in Currency.values:
        raise ValidationError({"fee_currency": _("Unknown currency.")})
    if clean.get("entry_cap") is not None and clean["entry_cap"] < 2:
        raise ValidationError(_("A tournament needs room for at least two pairs."))
    if clean.get("ends_on") and clean.get("starts_on") and clean["ends_on"] < clean["starts_on"]:
        raise ValidationError(_("The last day cannot come before the first day."))
    if clean.get("boards_per_round") is not None and not 2 <= clean["boards_per_round"] <= MAX_BOARDS:
        raise ValidationError({"boards_per_round": _("A round has from 2 to 8 boards.")})
    rounds = clean.get("duplicate_rounds")
    if rounds is not None and not 1 <= rounds <= MAX_DUPLICATE_ROUNDS:
        raise ValidationError({"duplicate_rounds": _("A duplicate event plays from 1 to 30 rounds.")})
    if clean.get("movement", Movement.MITCHELL) not in Movement.values:
        raise ValidationError({"movement": _("Unknown movement.")})
    if clean.get("board_scale", BoardScale.POINTS) not in BoardScale.values:
        raise ValidationError({"board_scale": _("A board is scored by card points or by eyes.")})
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
        if "rules" in clean and tournament_game(clean["rules"]) != tournament_game(tournament.rules):
            raise ValidationError(_("The game cannot change once the first round is paired."))
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
    if (tournament.format == Format.DUPLICATE and clean.get("duplicate_rounds") is not None
            and clean["duplicate_rounds"] < paired):
        raise ValidationError({"duplicate_rounds": _(
            "%(n)d rounds have already been paired; the event cannot be shorter.") % {"n": paired}})
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
