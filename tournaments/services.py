"""Every change to tournaments, entries, rounds and results. Views, admin, commands and tasks call these.

Each service takes keyword-only arguments, runs in one transaction, checks the actor's role
(PermissionDenied), writes an audit row (clubs' AuditEntry; result corrections also get their own
``ResultCorrection`` log) and queues Celery tasks on commit. Mistakes a user can make (a score the
rules cannot produce, pairing too early, the same player twice) raise ValidationError with a
message for the page, and nothing is saved.
"""

from __future__ import annotations

import random
import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from clubs import services as club_services
from clubs.models import AuditEntry, Club, ClubPlayer, Player
from clubs.translit import search_key, to_latin
from gameplay.engine import Rules, RulesError

from . import permissions
from .core.eyes import DealSummary, InvalidScore, ScoringRules, score_sheet, validate_final_score
from .core.knockout import knockout_bracket, seed_by_rating, series_outcome
from .core.roundrobin import round_robin
from .core.standings import ROUND_ROBIN_TIEBREAKS, SWISS_TIEBREAKS, Tiebreak
from .core.swiss import SwissEntry, pair_swiss_round
from .models import (
    DealLine,
    Entry,
    EntryStatus,
    Format,
    Match,
    MatchStatus,
    PlayMode,
    ResultCorrection,
    Round,
    RoundStatus,
    Seeding,
    Substitution,
    Tournament,
    TournamentStatus,
)

WIN = 12
PIN_ATTEMPTS = 10
"""Wrong PINs allowed per match before only a player's account or the organiser can confirm it."""


class WrongPin(ValidationError):
    """A wrong table PIN; the caller records the attempt (``note_wrong_pin``) outside the rolled-back transaction."""


ACTIVE = (EntryStatus.APPROVED, EntryStatus.CHECKED_IN)
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
    "play_mode",
    "prizes",
    "points_win",
    "points_loss",
    "points_bye",
    "tiebreaks",
    "self_registration",
    "entry_cap",
    "auto_confirm_hours",
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
    }
)


# --- helpers -------------------------------------------------------------------------------------


def _require_user(actor) -> None:
    if actor is None or not actor.is_authenticated:
        raise PermissionDenied


def _require_manager(actor, tournament: Tournament) -> None:
    _require_user(actor)
    if not permissions.can_manage(actor, tournament):
        raise PermissionDenied(_("Only the club's owners and organisers run its tournaments."))


def _audit(*, actor, action: str, obj, tournament: Tournament, before=None, after=None) -> None:
    AuditEntry.objects.create(
        actor=actor if actor is not None and actor.is_authenticated else None,
        action=action,
        club=tournament.club,
        object_type=obj._meta.label_lower,
        object_id=str(obj.pk),
        object_repr=str(obj)[:200],
        before=before,
        after=after,
    )


def _on_commit_task(task_name: str, *args: Any) -> None:
    """Queue a Celery task once the transaction commits (a rolled-back change sends nothing)."""

    def send() -> None:
        from . import tasks

        getattr(tasks, task_name).delay(*args)

    transaction.on_commit(send, robust=True)


def _lock(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().select_related("club").get(pk=tournament.pk)


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


def default_tiebreaks(fmt: str) -> list[str]:
    chosen = ROUND_ROBIN_TIEBREAKS if fmt == Format.ROUND_ROBIN else SWISS_TIEBREAKS
    return [t.value for t in chosen]


def _clean_settings(values: dict, *, current: Tournament | None = None) -> dict:
    unknown = set(values) - set(EDITABLE_FIELDS)
    if unknown:
        raise ValueError(f"unknown tournament fields: {sorted(unknown)}")
    clean = dict(values)
    if "name" in clean:
        clean["name"] = " ".join((clean["name"] or "").split())
        if not clean["name"]:
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
        clean["prizes"] = [" ".join(str(p).split()) for p in clean["prizes"] or [] if str(p).strip()]
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
    best_of = clean.get("best_of", current.best_of if current else 1)
    if fmt in (Format.DOUBLE_ELIM, Format.GROUPS_PLAYOFF) and best_of > 1:
        raise ValidationError(
            _("Double elimination and groups then playoff play one match per tie; set matches per tie to 1.")
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
    _require_user(actor)
    if not permissions.can_create(actor, club):
        raise PermissionDenied(_("Only the club's owners and organisers create tournaments."))
    values.setdefault("rules", {})
    values.setdefault("tiebreaks", [])
    clean = _clean_settings(values)
    if "starts_on" not in clean or clean["starts_on"] is None:
        clean["starts_on"] = timezone.localdate()
    tournament = Tournament(club=club, slug=_unique_slug(clean["name"]), created_by=actor, **clean)
    tournament.full_clean(exclude=["slug", "club", "created_by"])
    tournament.save()
    _audit(
        actor=actor,
        action="tournament.create",
        obj=tournament,
        tournament=tournament,
        after=_state(tournament),
    )
    return tournament


@transaction.atomic
def update_tournament(*, actor, tournament: Tournament, **values) -> Tournament:
    tournament = _lock(tournament)
    _require_manager(actor, tournament)
    clean = _clean_settings(values, current=tournament)
    if tournament.status != TournamentStatus.REGISTRATION:
        changed = {k for k in FORMAT_FIELDS if k in clean and clean[k] != getattr(tournament, k)}
        if changed:
            raise ValidationError(_("The format and seeding cannot change once the first round is paired."))
    paired = tournament.rounds.count()
    if (tournament.format == Format.SWISS or tournament.is_individual) and clean.get(
        "swiss_rounds", paired
    ) < paired:
        raise ValidationError(
            _("%(n)d rounds have already been paired; the Swiss cannot be shorter.") % {"n": paired}
        )
    before = _state(tournament)
    for key, value in clean.items():
        setattr(tournament, key, value)
    tournament.full_clean(exclude=["slug", "club", "created_by"])
    tournament.save()
    if paired:
        _maybe_finish(tournament)  # a longer Swiss reopens a finished one
    _audit(
        actor=actor,
        action="tournament.update",
        obj=tournament,
        tournament=tournament,
        before=before,
        after=_state(tournament),
    )
    return tournament


# --- entries ---------------------------------------------------------------------------------------


def _taken_players(tournament: Tournament, *, exclude_entry: int | None = None) -> dict[int, Entry]:
    """Players already in a pair of this tournament (withdrawn pairs free their players)."""
    taken: dict[int, Entry] = {}
    qs = tournament.entries.exclude(status=EntryStatus.WITHDRAWN).select_related("player_a", "player_b")
    for entry in qs:
        if entry.pk == exclude_entry:
            continue
        taken[entry.player_a_id] = entry
        taken[entry.player_b_id] = entry
    for sub in Substitution.objects.filter(entry__tournament=tournament).exclude(
        entry__status=EntryStatus.WITHDRAWN
    ):
        taken.setdefault(sub.player_in_id, sub.entry)
    return taken


def _check_can_enter(tournament: Tournament, a: Player, b: Player, *, taken: dict[int, Entry]) -> bool:
    """Raise for a pair that cannot enter; return True when it is a late entry."""
    if tournament.is_individual:
        raise ValidationError(_("In an individual event players enter alone."))
    if a.pk == b.pk:
        raise ValidationError(_("A pair is two different players."))
    for p in (a, b):
        if p.merged_into_id is not None:
            raise ValidationError(
                _("%(name)s was merged into another player record.") % {"name": p.display_name}
            )
        if p.pk in taken:
            raise ValidationError(
                _("%(name)s is already registered in this tournament (pair %(pair)s).")
                % {"name": p.display_name, "pair": taken[p.pk].name}
            )
    if tournament.status == TournamentStatus.FINISHED:
        raise ValidationError(_("The tournament is finished."))
    if tournament.status == TournamentStatus.RUNNING and tournament.format != Format.SWISS:
        raise ValidationError(
            _("Late entries are possible only in a Swiss tournament; this one has started.")
        )
    if tournament.entry_cap is not None:
        count = tournament.entries.exclude(status=EntryStatus.WITHDRAWN).count()
        if count >= tournament.entry_cap:
            raise ValidationError(
                _("The tournament is full: %(cap)d pairs at most.") % {"cap": tournament.entry_cap}
            )
    return tournament.status == TournamentStatus.RUNNING


def _next_seed(tournament: Tournament) -> int:
    last = tournament.entries.order_by("-seed").values_list("seed", flat=True).first()
    return (last or 0) + 1


def _entry_state(entry: Entry) -> dict:
    return {
        "player_a": entry.player_a_id,
        "player_b": entry.player_b_id,
        "status": entry.status,
        "seed": entry.seed,
        "late": entry.late,
    }


@transaction.atomic
def register_entry(*, actor, tournament: Tournament, player_a: Player, player_b: Player) -> Entry:
    """The organiser registers a pair (players with or without accounts); it is approved at once."""
    tournament = _lock(tournament)
    _require_manager(actor, tournament)
    return _create_entry(actor, tournament, player_a, player_b, EntryStatus.APPROVED)


def _create_entry(actor, tournament: Tournament, a: Player, b: Player, status: str) -> Entry:
    late = _check_can_enter(tournament, a, b, taken=_taken_players(tournament))
    entry = Entry.objects.create(
        tournament=tournament,
        player_a=a,
        player_b=b,
        status=status,
        seed=_next_seed(tournament),
        late=late,
        registered_by=actor,
    )
    _audit(actor=actor, action="entry.create", obj=entry, tournament=tournament, after=_entry_state(entry))
    return entry


PAIR_SEPARATORS = re.compile(r"\s*(?:&|\+|/|;|\s[иіі]\s|\sжәне\s|\sand\s)\s*", re.IGNORECASE)


def parse_pair_lines(text: str) -> list[tuple[int, str, str]]:
    """Pasted lines "Name A & Name B" → (line number, name A, name B); raises for a line without two names."""
    pairs, errors = [], []
    for number, raw in enumerate((text or "").splitlines(), start=1):
        line = " ".join(raw.split())
        if not line:
            continue
        parts = [p.strip(" ,") for p in PAIR_SEPARATORS.split(line) if p.strip(" ,")]
        if len(parts) != 2:
            errors.append(
                _("Line %(n)d: write two names joined by “&”, e.g. “Нурлан Ахметов & Асель Жумабаева”.")
                % {"n": number}
            )
            continue
        pairs.append((number, parts[0][:120], parts[1][:120]))
    if errors:
        raise ValidationError(errors)
    if not pairs:
        raise ValidationError(_("Paste at least one pair, one per line."))
    return pairs


def _plain(name: str) -> str:
    return " ".join(name.split()).casefold()


class _RosterNames:
    """The club's active roster, to find the players of a pasted list by name."""

    def __init__(self, club: Club) -> None:
        self.club = club
        self.exact: dict[str, Player] = {}
        self.by_key: dict[str, list[Player]] = defaultdict(list)
        for row in ClubPlayer.objects.filter(club=club, active=True).select_related("player"):
            self.exact.setdefault(_plain(row.player.display_name), row.player)
            self.by_key[search_key(row.player.display_name)].append(row.player)

    def find_or_add(self, *, actor, number: int, name: str, errors: list) -> tuple[Player | None, bool]:
        """The name as written first; else the one roster player whose key matches (any alphabet);
        else a new roster player. Returns (player, whether new); (None, False) with the line's
        error added to ``errors`` when the name could be several roster players."""
        player = self.exact.get(_plain(name))
        if player is None:
            similar = self.by_key.get(search_key(name), [])
            if len(similar) > 1:
                errors.append(
                    _("Line %(n)d: “%(name)s” could be %(who)s; write the name as it is on the roster.")
                    % {"n": number, "name": name, "who": ", ".join(p.display_name for p in similar)}
                )
                return None, False
            player = similar[0] if similar else None
        if player is None:
            player = club_services.add_player(actor=actor, club=self.club, display_name=name).player
            self.exact[_plain(name)] = player
            return player, True
        return player, False


@dataclass
class BulkEntries:
    entries: list[Entry]
    new_players: list[Player]


@transaction.atomic
def register_entries_bulk(*, actor, tournament: Tournament, text: str) -> BulkEntries:
    """Paste "Name A & Name B" lines. Names on the club's roster are matched in any alphabet;
    other names become new roster players. Any bad line refuses the whole paste."""
    tournament = _lock(tournament)
    _require_manager(actor, tournament)
    lines = parse_pair_lines(text)
    roster = _RosterNames(tournament.club)
    taken = _taken_players(tournament)
    result = BulkEntries([], [])
    errors: list[str] = []
    for number, name_a, name_b in lines:
        players = []
        for name in (name_a, name_b):
            player, new = roster.find_or_add(actor=actor, number=number, name=name, errors=errors)
            if player is None:
                break
            if new:
                result.new_players.append(player)
            players.append(player)
        if len(players) < 2:
            continue
        try:
            late = _check_can_enter(tournament, players[0], players[1], taken=taken)
        except ValidationError as error:
            errors.append(_("Line %(n)d: %(error)s") % {"n": number, "error": " ".join(error.messages)})
            continue
        entry = Entry.objects.create(
            tournament=tournament,
            player_a=players[0],
            player_b=players[1],
            status=EntryStatus.APPROVED,
            seed=_next_seed(tournament),
            late=late,
            registered_by=actor,
        )
        taken[players[0].pk] = taken[players[1].pk] = entry
        result.entries.append(entry)
    if errors:
        raise ValidationError(errors)  # the atomic block drops the players and pairs made above
    _audit(
        actor=actor,
        action="entry.bulk_create",
        obj=tournament,
        tournament=tournament,
        after={
            "entries": [_entry_state(e) for e in result.entries],
            "new_players": [p.pk for p in result.new_players],
        },
    )
    return result


@transaction.atomic
def self_register(*, actor, tournament: Tournament, partner: Player) -> Entry:
    """A player enters himself with a partner from the club's roster; the organiser approves."""
    _require_user(actor)
    tournament = _lock(tournament)
    if not tournament.self_registration:
        raise PermissionDenied(_("This tournament takes entries from the organiser only."))
    me = club_services.ensure_player_for_user(user=actor)
    if (
        not ClubPlayer.objects.filter(club=tournament.club, player=partner, active=True).exists()
        and partner.user_id is None
    ):
        raise ValidationError(_("Choose a partner from the club's players."))
    return _create_entry(actor, tournament, me, partner, EntryStatus.PENDING)


def _lock_entry(entry: Entry) -> tuple[Entry, Tournament]:
    """Lock the tournament, then the entry: the order round 1's pairing and the check-in closing
    plan take them in (they lock the tournament, then write entries). The other order deadlocked
    with them: an organiser's click at that moment failed with a database error."""
    tournament = _lock(Tournament(pk=entry.tournament_id))
    return Entry.objects.select_for_update().select_related("player_a", "player_b").get(pk=entry.pk), tournament


def _entry_for_update(entry: Entry) -> tuple[Entry, Tournament]:
    entry, tournament = _lock_entry(entry)
    if tournament.is_individual:
        raise ValidationError(
            _("In an individual event partnerships change every round; withdraw the player instead.")
        )
    return entry, tournament


@transaction.atomic
def approve_entry(*, actor, entry: Entry) -> Entry:
    entry, tournament = _entry_for_update(entry)
    _require_manager(actor, tournament)
    if entry.status != EntryStatus.PENDING:
        return entry
    if tournament.entry_cap is not None:
        count = tournament.entries.filter(status__in=ACTIVE).count()
        if count >= tournament.entry_cap:
            raise ValidationError(
                _("The tournament is full: %(cap)d pairs at most.") % {"cap": tournament.entry_cap}
            )
    before = _entry_state(entry)
    entry.status = EntryStatus.APPROVED
    if tournament.status == TournamentStatus.RUNNING:
        if tournament.format != Format.SWISS:
            raise ValidationError(
                _("Late entries are possible only in a Swiss tournament; this one has started.")
            )
        entry.late, entry.seed = True, _next_seed(tournament)
    entry.save(update_fields=["status", "late", "seed"])
    _audit(
        actor=actor,
        action="entry.approve",
        obj=entry,
        tournament=tournament,
        before=before,
        after=_entry_state(entry),
    )
    return entry


@transaction.atomic
def move_entry(*, actor, entry: Entry, up: bool) -> Entry:
    """Manual seeding: swap the pair with the one above (or below) it before the first round."""
    entry, tournament = _entry_for_update(entry)
    _require_manager(actor, tournament)
    if tournament.status != TournamentStatus.REGISTRATION:
        raise ValidationError(_("The seeding is fixed once the first round is paired."))
    order = list(tournament.entries.exclude(status=EntryStatus.WITHDRAWN).order_by("seed", "id"))
    index = next(i for i, e in enumerate(order) if e.pk == entry.pk)
    other_index = index - 1 if up else index + 1
    if not 0 <= other_index < len(order):
        return entry
    order[index], order[other_index] = order[other_index], order[index]
    for number, e in enumerate(order, start=1):
        if e.seed != number:
            Entry.objects.filter(pk=e.pk).update(seed=number)
    entry.refresh_from_db()
    _audit(actor=actor, action="entry.move", obj=entry, tournament=tournament, after={"seed": entry.seed})
    return entry


def check_in_closed(tournament: Tournament) -> bool:
    """Check-in closes at the time the organiser set in the day settings (the plan that withdraws
    the pairs that did not come runs then, ``day_services.close_check_in``). Until round 1 is paired
    the organiser reopens it by moving that time later or clearing it."""
    from .day_models import DaySettings

    closes = (
        DaySettings.objects.filter(tournament_id=tournament.pk)
        .values_list("check_in_closes_at", flat=True)
        .first()
    )
    return closes is not None and closes <= timezone.now()


def refuse_closed_check_in(tournament: Tournament, *, too_late: str) -> None:
    """Raise once check-in is over: ``too_late`` after round 1 is paired (the field is fixed), or
    the day settings' closing time has passed. For pairs and individual events alike."""
    if tournament.status != TournamentStatus.REGISTRATION:
        raise ValidationError(too_late)
    if check_in_closed(tournament):
        raise ValidationError(
            _("Check-in is closed. To reopen it, move its closing time in the day settings.")
        )


@transaction.atomic
def check_in_entry(*, actor, entry: Entry) -> Entry:
    """The pair is at the venue. Once anyone has checked in, round 1 pairs only checked-in pairs."""
    entry, tournament = _entry_for_update(entry)
    _require_manager(actor, tournament)
    refuse_closed_check_in(tournament, too_late=_("Check-in closes when the first round is paired."))
    if entry.status not in (EntryStatus.APPROVED, EntryStatus.PENDING):
        return entry
    before = _entry_state(entry)
    entry.status = EntryStatus.CHECKED_IN
    entry.save(update_fields=["status"])
    _audit(
        actor=actor,
        action="entry.check_in",
        obj=entry,
        tournament=tournament,
        before=before,
        after=_entry_state(entry),
    )
    return entry


@transaction.atomic
def withdraw_entry(*, actor, entry: Entry) -> Entry:
    """The pair leaves. Its played results stay; its unplayed matches this round are lost by
    forfeit (12:0) so the round can finish; later rounds do not pair it."""
    entry, tournament = _entry_for_update(entry)
    _require_user(actor)
    own = permissions.player_id_of(actor) in (entry.player_a_id, entry.player_b_id)
    if not (permissions.can_manage(actor, tournament) or own):
        raise PermissionDenied(_("Only the organiser or the pair itself can withdraw it."))
    if entry.status == EntryStatus.WITHDRAWN:
        return entry
    before = _entry_state(entry)
    entry.status = EntryStatus.WITHDRAWN
    entry.withdrawn_after_round = tournament.rounds.count()
    entry.save(update_fields=["status", "withdrawn_after_round"])
    open_matches = Match.objects.select_for_update().filter(
        Q(home=entry) | Q(away=entry),
        tournament=tournament,
        bye=False,
        status__in=(MatchStatus.SCHEDULED, MatchStatus.UNCONFIRMED, MatchStatus.DISPUTED),
    )
    touched_rounds = set()
    for match in open_matches:
        _set_forfeit(match, loser=entry, actor=actor)
        touched_rounds.add(match.round_id)
    _audit(
        actor=actor,
        action="entry.withdraw",
        obj=entry,
        tournament=tournament,
        before=before,
        after=_entry_state(entry),
    )
    for rnd in Round.objects.filter(pk__in=touched_rounds):
        _refresh_round(rnd, tournament)
    return entry


def reinstated_status(tournament: Tournament, rows) -> str:
    """The status a reinstated entry (a pair, or a player of an individual event) comes back with.

    Approved while check-in is open: the organiser checks it in as any other. Once check-in has
    closed nobody can check in any more, so, when check-in is in use (someone in ``rows`` checked
    in, and round 1 takes only checked-in entries), the organiser's reinstate checks it in too:
    otherwise round 1 would withdraw it again. With nobody checked in, round 1 takes every approved
    entry, and checking this one in would withdraw all the others.
    """
    if check_in_closed(tournament) and rows.filter(status=EntryStatus.CHECKED_IN).exists():
        return EntryStatus.CHECKED_IN
    return EntryStatus.APPROVED


def _free_seed(rows, entry, next_seed: int) -> int:
    """A reinstated entry keeps its place in the list unless another entry took its seed meanwhile."""
    if entry.seed and not rows.exclude(status=EntryStatus.WITHDRAWN).filter(seed=entry.seed).exists():
        return entry.seed
    return next_seed


def _refuse_late_reinstate(tournament: Tournament) -> None:
    if tournament.status != TournamentStatus.REGISTRATION:
        raise ValidationError(
            _(
                "Round 1 is already paired, so a withdrawn pair cannot come back: the rounds are drawn"
                " from the field fixed at round 1, and a pair returning now would break the pairings."
            )
        )


def _reinstate_refusal(tournament: Tournament, entry: Entry, *, taken: dict[int, Entry], count: int) -> str:
    """Why this withdrawn pair cannot come back ("" when it can), for the service and the page's button.

    ``taken``: players in the tournament's other pairs; ``count``: the pairs not withdrawn. The
    caller has refused a tournament past registration already (``_refuse_late_reinstate``).
    """
    for player in (entry.player_a, entry.player_b):
        if player.merged_into_id is not None:
            return _("%(name)s was merged into another player record.") % {"name": player.display_name}
        if player.pk in taken:
            return _("%(name)s is already registered in this tournament (pair %(pair)s).") % {
                "name": player.display_name,
                "pair": taken[player.pk].name,
            }
    if tournament.entry_cap is not None and count >= tournament.entry_cap:
        return _("The tournament is full: %(cap)d pairs at most.") % {"cap": tournament.entry_cap}
    return ""


def reinstatable_entries(tournament: Tournament) -> set[int]:
    """The withdrawn pairs the organiser may reinstate now (the page shows "Reinstate" for these)."""
    if tournament.status != TournamentStatus.REGISTRATION:
        return set()
    withdrawn = list(
        tournament.entries.filter(status=EntryStatus.WITHDRAWN).select_related("player_a", "player_b")
    )
    if not withdrawn:
        return set()
    taken = _taken_players(tournament)
    count = tournament.entries.exclude(status=EntryStatus.WITHDRAWN).count()
    return {e.pk for e in withdrawn if not _reinstate_refusal(tournament, e, taken=taken, count=count)}


@transaction.atomic
def reinstate_entry(*, actor, entry: Entry) -> Entry:
    """The organiser brings a withdrawn pair back before round 1 is paired: a pair the check-in
    closing withdrew that arrived a little late, or one withdrawn by mistake.

    It comes back approved, or checked in once check-in has closed (``reinstated_status``), keeps
    its seed if free, and loses ``withdrawn_after_round``. Reinstating a pair that is not withdrawn
    changes nothing. Refused once round 1 is paired (the field is fixed then; mid-Swiss a returning
    pair would break the pairings), when one of its players has joined another pair meanwhile, or
    when the tournament is full.
    """
    entry, tournament = _lock_entry(entry)  # a reinstate racing round 1's pairing waits, then is refused
    _require_manager(actor, tournament)
    if tournament.is_individual:
        raise ValidationError(
            _("In an individual event partnerships change every round; reinstate the player instead.")
        )
    _refuse_late_reinstate(tournament)
    if entry.status != EntryStatus.WITHDRAWN:
        return entry
    refusal = _reinstate_refusal(
        tournament,
        entry,
        taken=_taken_players(tournament, exclude_entry=entry.pk),
        count=tournament.entries.exclude(status=EntryStatus.WITHDRAWN).count(),
    )
    if refusal:
        raise ValidationError(refusal)
    before = _entry_state(entry)
    entry.status = reinstated_status(tournament, tournament.entries)
    entry.seed = _free_seed(tournament.entries, entry, _next_seed(tournament))
    entry.withdrawn_after_round = None
    entry.save(update_fields=["status", "seed", "withdrawn_after_round"])
    _audit(
        actor=actor,
        action="entry.reinstate",
        obj=entry,
        tournament=tournament,
        before=before,
        after=_entry_state(entry),
    )
    return entry


def _set_forfeit(match: Match, *, loser: Entry, actor) -> None:
    before = match.state()
    winner_is_home = match.away_id == loser.pk
    match.home_eyes, match.away_eyes = (WIN, 0) if winner_is_home else (0, WIN)
    match.winner_id = match.home_id if winner_is_home else match.away_id
    match.forfeit = True
    match.status = MatchStatus.CONFIRMED
    match.confirmed_how = "organiser"
    match.confirmed_by = actor if actor is not None and actor.is_authenticated else None
    match.confirmed_at = timezone.now()
    match.save()
    if before["home_eyes"] is not None:
        ResultCorrection.objects.create(
            match=match, actor=match.confirmed_by, before=before, after=match.state(), reason=_("withdrawal")
        )


@transaction.atomic
def substitute(*, actor, entry: Entry, round: Round, player_out: Player, player_in: Player) -> Substitution:
    """For one round, ``player_in`` replaces ``player_out`` in the pair (recorded)."""
    entry, tournament = _entry_for_update(entry)
    _require_manager(actor, tournament)
    if round.tournament_id != tournament.pk:
        raise ValidationError(_("That round belongs to another tournament."))
    if player_out.pk not in (entry.player_a_id, entry.player_b_id):
        raise ValidationError(_("%(name)s does not play in this pair.") % {"name": player_out.display_name})
    if player_in.pk in _taken_players(tournament):
        raise ValidationError(
            _("%(name)s is already registered in this tournament.") % {"name": player_in.display_name}
        )
    if (
        round.matches.filter(status=MatchStatus.CONFIRMED).filter(home=entry).exists()
        or round.matches.filter(status=MatchStatus.CONFIRMED, away=entry).exists()
    ):
        raise ValidationError(_("This pair's match in that round already has a confirmed result."))
    sub = Substitution.objects.create(
        entry=entry, round=round, player_out=player_out, player_in=player_in, actor=actor
    )
    _audit(
        actor=actor,
        action="entry.substitute",
        obj=entry,
        tournament=tournament,
        after={"round": round.number, "out": player_out.pk, "in": player_in.pk},
    )
    return sub


# --- pairing ---------------------------------------------------------------------------------------


def _start(tournament: Tournament, actor) -> list[Entry]:
    """Fix the field and the seeding when the first round is paired."""
    entries = list(tournament.entries.filter(status__in=ACTIVE).order_by("seed", "id"))
    if any(e.status == EntryStatus.CHECKED_IN for e in entries):
        for e in entries:
            if e.status != EntryStatus.CHECKED_IN:
                e.status = EntryStatus.WITHDRAWN
                e.withdrawn_after_round = 0
                e.save(update_fields=["status", "withdrawn_after_round"])
        entries = [e for e in entries if e.status == EntryStatus.CHECKED_IN]
    if len(entries) < 2:
        raise ValidationError(_("At least two approved pairs are needed to start."))
    if tournament.is_knockout and tournament.third_place and len(entries) < 4:
        raise ValidationError(_("A third-place match needs at least four pairs."))
    rng = random.Random()  # noqa: S311 - a draw, not a secret
    if tournament.seeding == Seeding.RANDOM:
        rng.shuffle(entries)
    elif tournament.seeding == Seeding.RATING:
        # No ratings are kept yet: every pair is unrated, so this is a random draw (core rule).
        order = seed_by_rating({e.pk: None for e in entries}, rng)
        by_id = {e.pk: e for e in entries}
        entries = [by_id[i] for i in order]
    Entry.objects.filter(tournament=tournament).exclude(pk__in=[e.pk for e in entries]).update(seed=0)
    changed = []
    for number, e in enumerate(entries, start=1):
        if e.seed != number:
            e.seed = number
            changed.append(e)
    Entry.objects.bulk_update(changed, ["seed"], batch_size=500)
    tournament.status = TournamentStatus.RUNNING
    tournament.save(update_fields=["status"])
    return entries


def _field(tournament: Tournament) -> list[Entry]:
    """The entries that took part from the start (seeded), in seed order, withdrawn ones included."""
    return list(
        tournament.entries.filter(seed__gt=0).exclude(status=EntryStatus.PENDING).order_by("seed", "id")
    )


def round_count(tournament: Tournament, field_size: int) -> int:
    if tournament.has_bracket:
        from .bracket_services import bracket_round_count

        return bracket_round_count(tournament)
    if tournament.format == Format.SWISS or tournament.is_individual:
        return tournament.swiss_rounds
    if tournament.format == Format.ROUND_ROBIN:
        n = field_size + field_size % 2
        return (n - 1) * (2 if tournament.double_round_robin else 1)
    return max(1, (field_size - 1).bit_length())


def matchday_deadline(tournament: Tournament, number: int) -> datetime | None:
    if not tournament.matchday_days:
        return None
    day = tournament.starts_on + timedelta(days=tournament.matchday_days * number)
    return timezone.make_aware(datetime.combine(day, time(23, 59)))


def _last_round_if_complete(tournament: Tournament) -> Round | None:
    """The last round (None before the first), refusing a next one while the tournament is
    finished or that round still has results missing or unconfirmed."""
    if tournament.status == TournamentStatus.FINISHED:
        raise ValidationError(_("The tournament is finished."))
    last = tournament.rounds.order_by("-number").first()
    if last is not None and last.status != RoundStatus.COMPLETE:
        missing = last.matches.exclude(status=MatchStatus.CONFIRMED).count()
        raise ValidationError(
            _("Round %(n)d is not complete: %(missing)d result(s) still missing or unconfirmed.")
            % {"n": last.number, "missing": missing}
        )
    return last


@transaction.atomic
def pair_next_round(*, actor, tournament: Tournament, system: bool = False) -> Round:
    """Pair the next round with the core functions; refused while the previous one is open.

    ``system``: the tournament's own plan pairs it (the beat task, ``tournaments.scheduling``),
    with no user to check; the audit row then names no actor.
    """
    tournament = _lock(tournament)
    if tournament.is_individual:  # players seated alone at tables of four (issue 6)
        from .individual_services import pair_next_individual_round

        return pair_next_individual_round(actor=actor, tournament=tournament, system=system)
    if tournament.has_bracket:  # double elimination, groups then playoff (issue 6)
        from .bracket_services import pair_next_bracket_round

        return pair_next_bracket_round(actor=actor, tournament=tournament, system=system)
    if not system:
        _require_manager(actor, tournament)
    last = _last_round_if_complete(tournament)
    if last is None:
        _start(tournament, actor)
    number = (last.number if last else 0) + 1
    field = _field(tournament)
    total = round_count(tournament, len(field))
    if number > total:
        raise ValidationError(_("All %(n)d rounds have been paired.") % {"n": total})
    rnd = Round.objects.create(
        tournament=tournament, number=number, deadline=matchday_deadline(tournament, number)
    )
    if tournament.format == Format.ROUND_ROBIN:
        _pair_round_robin(tournament, rnd, field)
    elif tournament.format == Format.SWISS:
        _pair_swiss(tournament, rnd)
    else:
        _pair_knockout(tournament, rnd, field, actor)
    _audit(
        actor=actor,
        action="round.pair",
        obj=rnd,
        tournament=tournament,
        after={"number": number, "matches": [[m.home_id, m.away_id, m.table] for m in rnd.matches.all()]},
    )
    _refresh_round(rnd, tournament)
    _on_commit_task("notify_round_paired", rnd.pk)
    return rnd


def _add_match(tournament, rnd, table, home_id, away_id, *, slot=0, game=1) -> Match:
    return Match.objects.create(
        tournament=tournament, round=rnd, table=table, home_id=home_id, away_id=away_id, slot=slot, game=game
    )


def _add_matches(tournament, rnd, games) -> None:
    """One INSERT for a whole round (a 1,000-pair Swiss has 500 tables); table numbers in board order."""
    Match.objects.bulk_create(
        Match(tournament=tournament, round=rnd, table=table, home_id=home, away_id=away)
        for table, (home, away) in enumerate(games, start=1)
    )


def _add_bye(tournament, rnd, entry_id, *, slot=0) -> Match:
    return Match.objects.create(
        tournament=tournament,
        round=rnd,
        table=0,
        slot=slot,
        home_id=entry_id,
        bye=True,
        winner_id=entry_id,
        status=MatchStatus.CONFIRMED,
        confirmed_how="bye",
        confirmed_at=timezone.now(),
    )


def _pair_round_robin(tournament: Tournament, rnd: Round, field: list[Entry]) -> None:
    """Berger tables over the starting field; games of withdrawn pairs are not played."""
    schedule = round_robin([e.pk for e in field], double=tournament.double_round_robin)[rnd.number - 1]
    out = {e.pk for e in field if e.status == EntryStatus.WITHDRAWN}
    games = [(home, away) for home, away in schedule.games if home not in out and away not in out]
    _add_matches(tournament, rnd, games)
    if schedule.bye is not None and schedule.bye not in out:
        _add_bye(tournament, rnd, schedule.bye)


def _results_by_entry(tournament: Tournament):
    points: dict[int, int] = defaultdict(int)
    opponents: dict[int, set[int]] = defaultdict(set)
    had_bye: set[int] = set()
    rows = Match.objects.filter(tournament=tournament, status=MatchStatus.CONFIRMED).only(
        "home_id", "away_id", "winner_id", "bye"
    )
    for m in rows:
        if m.bye:
            had_bye.add(m.home_id)
            points[m.home_id] += tournament.points_bye
            continue
        opponents[m.home_id].add(m.away_id)
        opponents[m.away_id].add(m.home_id)
        loser = m.away_id if m.winner_id == m.home_id else m.home_id
        points[m.winner_id] += tournament.points_win
        points[loser] += tournament.points_loss
    return points, opponents, had_bye


def _pair_swiss(tournament: Tournament, rnd: Round) -> None:
    """FIDE-style Swiss via ``core.swiss.pair_swiss_round``: withdrawn pairs are left out."""
    entries = list(tournament.entries.filter(status__in=ACTIVE, seed__gt=0).order_by("seed", "id"))
    if len(entries) < 2:
        raise ValidationError(_("At least two pairs must still be playing."))
    points, opponents, had_bye = _results_by_entry(tournament)
    pairing = pair_swiss_round(
        [
            SwissEntry(
                id=e.pk,
                score=points[e.pk],
                seed=e.seed,
                opponents=frozenset(opponents[e.pk]),
                had_bye=e.pk in had_bye,
            )
            for e in entries
        ]
    )
    _add_matches(tournament, rnd, pairing.pairs)
    if pairing.bye is not None:
        _add_bye(tournament, rnd, pairing.bye)


def knockout_state(tournament: Tournament, field: Sequence[Entry], matches: Iterable[Match]):
    """The core bracket from the stored matches, and each tie's games keyed (round, slot)."""
    games: dict[tuple[int, int], list[Match]] = defaultdict(list)
    for m in matches:
        if not m.bye:
            games[(m.round.number, m.slot)].append(m)
    winners = {}
    for key, tie in games.items():
        tie.sort(key=lambda g: g.game)
        best_of = tie[0].round.best_of or tournament.best_of
        played = [(g.home_eyes, g.away_eyes) for g in tie if g.status == MatchStatus.CONFIRMED]
        outcome = series_outcome(played, best_of)
        if outcome.winner is not None:
            winners[key] = tie[0].home_id if outcome.winner == "top" else tie[0].away_id
    bracket = knockout_bracket([e.pk for e in field], winners, third_place=tournament.third_place)
    return bracket, games


def _pair_knockout(tournament: Tournament, rnd: Round, field: list[Entry], actor) -> None:
    """The next stage of the seeded bracket (``core.knockout``); byes go to the top seeds."""
    matches = Match.objects.filter(tournament=tournament).select_related("round")
    bracket, _games = knockout_state(tournament, field, matches)
    stage = list(bracket.rounds[rnd.number - 1])
    if rnd.number == len(bracket.rounds) and bracket.third_place is not None:
        stage.append(bracket.third_place)
    withdrawn = {e.pk: e for e in field if e.status == EntryStatus.WITHDRAWN}
    table = 0
    for km in stage:
        if km.bye:
            _add_bye(tournament, rnd, km.winner, slot=km.slot)
            continue
        table += 1
        match = _add_match(tournament, rnd, table, km.top, km.bottom, slot=km.slot)
        for entry_id in (km.top, km.bottom):
            if entry_id in withdrawn and match.status != MatchStatus.CONFIRMED:
                _set_forfeit(match, loser=withdrawn[entry_id], actor=actor)


def _refresh_round(rnd: Round, tournament: Tournament, *, slot: int | None = None) -> None:
    """After any result: add the next game of an undecided knockout tie, close the round, end the event.

    ``slot`` names the one knockout tie that changed (None: look at all). The cost does not grow
    with the size of the round otherwise: the completeness check is one EXISTS query.
    """
    if tournament.is_knockout:
        best_of = rnd.best_of or tournament.best_of
        ties: dict[int, list[Match]] = defaultdict(list)
        qs = rnd.matches.filter(bye=False)
        for m in qs if slot is None else qs.filter(slot=slot):
            ties[m.slot].append(m)
        for slot, tie in ties.items():
            tie.sort(key=lambda g: g.game)
            confirmed = [(g.home_eyes, g.away_eyes) for g in tie if g.status == MatchStatus.CONFIRMED]
            try:
                outcome = series_outcome(confirmed, best_of)
            except ValueError as error:  # a correction that would decide the tie before a played match
                raise ValidationError(
                    _("This would decide the tie before its last match, which was already played: %(error)s")
                    % {"error": error}
                ) from error
            while outcome.winner is None and len(confirmed) == len(tie):
                first = tie[-1]
                game = _add_match(
                    tournament, rnd, first.table, first.home_id, first.away_id, slot=slot, game=first.game + 1
                )
                tie.append(game)
                quitter = Entry.objects.filter(
                    pk__in=(game.home_id, game.away_id), status=EntryStatus.WITHDRAWN
                ).first()
                if quitter is None:
                    break
                _set_forfeit(game, loser=quitter, actor=None)
                confirmed.append((game.home_eyes, game.away_eyes))
                outcome = series_outcome(confirmed, best_of)
            if outcome.winner is not None:
                for g in list(tie):  # a correction may decide a tie early: drop its unplayed games
                    if g.status == MatchStatus.SCHEDULED:
                        g.delete()
    complete = not rnd.matches.exclude(status=MatchStatus.CONFIRMED).exists()
    new_status = RoundStatus.COMPLETE if complete else RoundStatus.PLAYING
    if rnd.status != new_status:
        rnd.status = new_status
        rnd.save(update_fields=["status"])
    _maybe_finish(tournament)


def _maybe_finish(tournament: Tournament) -> None:
    rounds = list(tournament.rounds.all())
    if not rounds:
        return
    finished = all(r.status == RoundStatus.COMPLETE for r in rounds)
    if finished:
        field_size = tournament.entries.filter(seed__gt=0).exclude(status=EntryStatus.PENDING).count()
        finished = len(rounds) >= round_count(tournament, field_size)
    status = TournamentStatus.FINISHED if finished else TournamentStatus.RUNNING
    if tournament.status != status:
        tournament.status = status
        tournament.save(update_fields=["status"])
        if finished:
            _on_commit_task("notify_tournament_finished", tournament.pk)


# --- results ---------------------------------------------------------------------------------------


def _match_for_update(match: Match) -> tuple[Match, Tournament]:
    match = (
        Match.objects.select_for_update(of=("self",))
        .select_related("round", "home", "away", "tournament")
        .get(pk=match.pk)
    )
    return match, _lock(match.tournament)


def _score(
    tournament: Tournament, home_eyes, away_eyes, *, forfeit: bool, deals
) -> tuple[int, int, list, tuple]:
    """Check a result; return (home eyes, away eyes, sheet lines, Lucy counts)."""
    if deals:
        try:
            sheet = score_sheet([DealSummary(**d) for d in deals], ScoringRules.from_rules(tournament.rules))
        except InvalidScore as error:
            raise ValidationError(
                _("This score sheet cannot be right: %(error)s") % {"error": error}
            ) from error
        if sheet.winner is None:
            raise ValidationError(
                _("The sheet stops at %(a)d:%(b)d: a match ends when a pair reaches 12 eyes.")
                % {"a": sheet.score[0], "b": sheet.score[1]}
            )
        lucy = tuple(
            sum(1 for line in sheet.lines if line.result.outcome == "lucy" and line.result.winner == side)
            for side in (0, 1)
        )
        return sheet.score[0], sheet.score[1], list(sheet.lines), lucy
    try:
        validate_final_score((home_eyes, away_eyes), forfeit=forfeit)
    except InvalidScore as error:
        raise ValidationError(_("This score cannot be right: %(error)s") % {"error": error}) from error
    return home_eyes, away_eyes, [], (None, None)


def _write_result(match: Match, tournament: Tournament, home_eyes, away_eyes, *, forfeit, deals) -> None:
    h, a, lines, lucy = _score(tournament, home_eyes, away_eyes, forfeit=forfeit, deals=deals)
    match.home_eyes, match.away_eyes = h, a
    match.home_lucy, match.away_lucy = lucy
    match.winner_id = match.home_id if h > a else match.away_id
    match.forfeit = forfeit
    match.deals.all().delete()
    DealLine.objects.bulk_create(
        DealLine(
            match=match,
            number=line.number,
            home_points=line.deal.points[0],
            away_points=line.deal.points[1],
            jack_holder=line.deal.jack_holder,
            all_tricks=line.deal.all_tricks,
            outcome=line.result.outcome,
            home_eyes=line.result.eyes[0],
            away_eyes=line.result.eyes[1],
            home_score=line.score[0],
            away_score=line.score[1],
        )
        for line in lines
    )


@transaction.atomic
def enter_result(
    *,
    actor,
    match: Match,
    home_eyes: int | None = None,
    away_eyes: int | None = None,
    forfeit: bool = False,
    deals: list[dict] | None = None,
) -> Match:
    """A player of the match (or the organiser) reports the final eyes, or the sheet deal by deal.

    A player's report waits for the other pair; the organiser's is confirmed at once.
    """
    _require_user(actor)
    match, tournament = _match_for_update(match)
    organiser = permissions.can_manage(actor, tournament)
    side = permissions.side_of(actor, match)
    if not organiser and side is None:
        raise PermissionDenied(_("You do not play in this match, so you cannot enter its result."))
    if match.bye:
        raise ValidationError(_("A bye has no result to enter."))
    if match.status == MatchStatus.CONFIRMED:
        raise ValidationError(_("This result is already confirmed. Ask the organiser to correct it."))
    if match.status == MatchStatus.DISPUTED and not organiser:
        raise ValidationError(_("This result is disputed; the organiser will settle it."))
    if match.status == MatchStatus.UNCONFIRMED and not organiser and side != match.reported_side:
        raise ValidationError(
            _("The other pair has reported a result: confirm it, or dispute it if it is wrong.")
        )
    if forfeit and not organiser:
        raise PermissionDenied(_("Only the organiser records a forfeit or a no-show."))
    _write_result(match, tournament, home_eyes, away_eyes, forfeit=forfeit, deals=deals)
    now = timezone.now()
    match.reported_by, match.reported_at = actor, now
    match.reported_side = "organiser" if organiser and side is None else (side or "organiser")
    if organiser:
        match.status = MatchStatus.CONFIRMED
        match.confirmed_by, match.confirmed_at, match.confirmed_how = actor, now, "organiser"
    else:
        match.status = MatchStatus.UNCONFIRMED
    match.save()
    _audit(actor=actor, action="match.report", obj=match, tournament=tournament, after=match.state())
    if match.status == MatchStatus.CONFIRMED:
        _refresh_round(match.round, tournament, slot=match.slot)
    else:
        _on_commit_task("notify_result_reported", match.pk)
    return match


def _may_answer(actor, match: Match, tournament: Tournament, pin: str | None) -> str:
    """How the actor may confirm or dispute: "organiser", "player" (the other pair) or "pin"."""
    if actor is not None and actor.is_authenticated and permissions.can_manage(actor, tournament):
        return "organiser"
    side = permissions.side_of(actor, match)
    if side is not None and side != match.reported_side:
        return "player"
    if side is not None:  # the reporting pair cannot confirm itself, PIN or not
        raise PermissionDenied(_("Your pair reported this result; the other pair confirms it."))
    if pin:
        if match.pin_failures >= PIN_ATTEMPTS:
            raise ValidationError(
                _("Too many wrong PINs for this table. Ask the organiser to confirm the result.")
            )
        if pin.strip() == match.pin:
            return "pin"
        raise WrongPin(_("Wrong PIN. It is printed on this table's score sheet."))
    raise PermissionDenied(
        _("Only the other pair, the organiser or someone with the table's PIN can confirm.")
    )


@transaction.atomic
def confirm_result(*, actor, match: Match, pin: str | None = None) -> Match:
    """The opposing pair confirms (from a phone, or anyone with the PIN), or the organiser does."""
    match, tournament = _match_for_update(match)
    how = _may_answer(actor, match, tournament, pin)
    if match.status == MatchStatus.CONFIRMED:
        return match
    if match.status == MatchStatus.SCHEDULED or not match.has_result:  # a refused live result has none
        raise ValidationError(_("No result has been entered yet."))
    if match.status == MatchStatus.DISPUTED and how != "organiser":
        raise ValidationError(_("This result is disputed; the organiser will settle it."))
    _confirm(match, actor if actor is not None and actor.is_authenticated else None, how)
    _audit(
        actor=actor,
        action="match.confirm",
        obj=match,
        tournament=tournament,
        after={**match.state(), "how": how},
    )
    _refresh_round(match.round, tournament, slot=match.slot)
    return match


def _confirm(match: Match, user, how: str) -> None:
    match.status = MatchStatus.CONFIRMED
    match.confirmed_by, match.confirmed_at, match.confirmed_how = user, timezone.now(), how
    match.save(update_fields=["status", "confirmed_by", "confirmed_at", "confirmed_how"])


@transaction.atomic
def dispute_result(*, actor, match: Match, note: str = "", pin: str | None = None) -> Match:
    """The other pair says the reported score is wrong: the organiser settles it."""
    match, tournament = _match_for_update(match)
    how = _may_answer(actor, match, tournament, pin)
    if match.status != MatchStatus.UNCONFIRMED:
        raise ValidationError(_("Only a result waiting for confirmation can be disputed."))
    match.status = MatchStatus.DISPUTED
    match.dispute_note = " ".join((note or "").split())[:500]
    match.save(update_fields=["status", "dispute_note"])
    _audit(
        actor=actor,
        action="match.dispute",
        obj=match,
        tournament=tournament,
        after={**match.state(), "how": how, "note": match.dispute_note},
    )
    _on_commit_task("notify_dispute", match.pk)
    return match


@transaction.atomic
def correct_result(
    *,
    actor,
    match: Match,
    home_eyes: int | None = None,
    away_eyes: int | None = None,
    forfeit: bool = False,
    deals: list[dict] | None = None,
    reason: str = "",
    system: bool = False,
) -> Match:
    """The organiser sets any result; logged (who, when, before, after); standings follow on read.

    ``system``: the tournament's own plan sets it (the automatic no-show, ``day_services``), with
    no user to check; the log then names no actor and the match reads "confirmed automatically".
    """
    match, tournament = _match_for_update(match)
    if not system:
        _require_manager(actor, tournament)
    if match.bye:
        raise ValidationError(_("A bye has no result to enter."))
    before = match.state()
    old_winner = match.winner_id
    _write_result(match, tournament, home_eyes, away_eyes, forfeit=forfeit, deals=deals)
    if (
        (tournament.is_knockout or tournament.has_bracket)
        and old_winner is not None
        and match.winner_id != old_winner
        and tournament.rounds.filter(number__gt=match.round.number).exists()
    ):
        raise ValidationError(
            _("The next knockout round is already paired; this correction would change who is in it.")
        )
    now = timezone.now()
    if match.reported_at is None:
        match.reported_by, match.reported_at, match.reported_side = actor, now, "organiser"
    match.status = MatchStatus.CONFIRMED
    match.confirmed_by, match.confirmed_at = actor, now
    match.confirmed_how = "auto" if system else "organiser"
    match.save()
    ResultCorrection.objects.create(
        match=match, actor=actor, before=before, after=match.state(), reason=reason[:300]
    )
    _audit(
        actor=actor,
        action="match.correct",
        obj=match,
        tournament=tournament,
        before=before,
        after=match.state(),
    )
    _refresh_round(match.round, tournament, slot=match.slot)
    return match


@transaction.atomic
def record_forfeit(*, actor, match: Match, loser: Entry, reason: str = "", system: bool = False) -> Match:
    """A no-show or a forfeit: 12:0 to the other pair, confirmed, logged if it replaces a result.

    ``system``: as for ``correct_result``, the tournament's own plan with no user to check.
    """
    match, tournament = _match_for_update(match)
    if not system:
        _require_manager(actor, tournament)
    if match.bye or loser.pk not in (match.home_id, match.away_id):
        raise ValidationError(_("That pair does not play in this match."))
    winner_home = loser.pk == match.away_id
    return correct_result(
        actor=actor,
        match=match,
        home_eyes=WIN if winner_home else 0,
        away_eyes=0 if winner_home else WIN,
        forfeit=True,
        reason=reason or _("forfeit or no-show"),
        system=system,
    )


def auto_confirm_due(*, now: datetime | None = None) -> list[int]:
    """Confirm results that waited longer than their tournament's ``auto_confirm_hours``.

    Called by the periodic task; each match is confirmed in its own transaction and only while
    it is still unconfirmed, so running twice (or alongside a player's click) does nothing twice.
    """
    now = now or timezone.now()
    done: list[int] = []
    for tournament in Tournament.objects.filter(matches__status=MatchStatus.UNCONFIRMED).distinct():
        cutoff = now - timedelta(hours=tournament.auto_confirm_hours)
        ids = list(
            Match.objects.filter(
                tournament=tournament, status=MatchStatus.UNCONFIRMED, reported_at__lte=cutoff
            ).values_list("pk", flat=True)
        )
        for pk in ids:
            with transaction.atomic():
                match = (
                    Match.objects.select_for_update(skip_locked=True)
                    .filter(pk=pk, status=MatchStatus.UNCONFIRMED)
                    .first()
                )
                if match is None:
                    continue
                locked = _lock(tournament)
                _confirm(match, None, "auto")
                _audit(
                    actor=None, action="match.auto_confirm", obj=match, tournament=locked, after=match.state()
                )
                _refresh_round(match.round, locked, slot=match.slot)
                done.append(pk)
    return done


@transaction.atomic
def set_round_options(
    *, actor, round: Round, deadline: datetime | None, play_mode: str = "", best_of: int | None = None
) -> Round:
    rnd = Round.objects.select_for_update().get(pk=round.pk)
    tournament = _lock(rnd.tournament)
    _require_manager(actor, tournament)
    if play_mode and play_mode not in PlayMode.values:
        raise ValidationError(_("Unknown play mode."))
    before = {
        "deadline": rnd.deadline.isoformat() if rnd.deadline else None,
        "play_mode": rnd.play_mode,
        "best_of": rnd.best_of,
    }
    old_deadline = rnd.deadline
    rnd.deadline, rnd.play_mode = deadline, play_mode
    if best_of is not None:
        if best_of < 1:
            raise ValidationError(_("A tie has at least one match."))
        rnd.best_of = best_of
    rnd.save()
    if deadline != old_deadline:  # the same instant given in another time zone is no change
        from .scheduling import plan_round_deadline  # scheduling imports this module

        plan_round_deadline(rnd)  # its deadline plan and the players' reminder move with it
    _audit(
        actor=actor,
        action="round.update",
        obj=rnd,
        tournament=tournament,
        before=before,
        after={
            "deadline": deadline.isoformat() if deadline else None,
            "play_mode": play_mode,
            "best_of": rnd.best_of,
        },
    )
    return rnd


def note_wrong_pin(*, match: Match) -> None:
    """Count a wrong PIN (its own transaction: the refused confirmation itself was rolled back)."""
    Match.objects.filter(pk=match.pk).update(pin_failures=F("pin_failures") + 1)
