"""The audit log in the reader's language: words for its action codes, fields and values.

Rows keep codes and parameters (``AuditEntry.action``, ``subject``, ``before``/``after``), never
text in the actor's language; this module words them when a page is read. The clubs' own codes
are here; other apps add theirs with ``register`` when they start (the clubs import no other app).
A field without a word is left out of the page rather than shown as a raw key.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass, field

from django.core.paginator import Paginator
from django.utils import formats, timezone
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

ACTION_LABELS = {
    "api_token.create": gettext_lazy("API key made"),
    "api_token.revoke": gettext_lazy("API key revoked"),
    "club.create": gettext_lazy("Club created"),
    "club.update": gettext_lazy("Club details edited"),
    "invitation.create": gettext_lazy("Invitation link made"),
    "membership.accept": gettext_lazy("Invitation accepted: joined the club"),
    "membership.add": gettext_lazy("Member added"),
    "membership.decline": gettext_lazy("Invitation declined"),
    "membership.invite": gettext_lazy("Invitation to join sent"),
    "membership.invite_in_person": gettext_lazy("QR code to join shown"),
    "membership.withdraw_invitation": gettext_lazy("Invitation to join withdrawn"),
    "membership.join": gettext_lazy("Joined the club"),
    "membership.remove": gettext_lazy("Member removed or left"),
    "membership.set_role": gettext_lazy("Role changed"),
    "player.claim": gettext_lazy("Profile claimed with a link"),
    "player.create_for_user": gettext_lazy("Player profile created"),
    "player.merge": gettext_lazy("Two records merged"),
    "player.update": gettext_lazy("Player details edited"),
    "roster.activate": gettext_lazy("Put back on the roster"),
    "roster.deactivate": gettext_lazy("Taken off the roster"),
    "roster.add": gettext_lazy("Player added to the roster"),
    "roster.add_existing": gettext_lazy("Member put on the roster"),
    "roster.bulk_add": gettext_lazy("List of players pasted"),
}

KIND_LABELS = {
    "club": gettext_lazy("Club"),
    "membership": gettext_lazy("Members"),
    "roster": gettext_lazy("Roster"),
    "player": gettext_lazy("Players"),
    "invitation": gettext_lazy("Invitations"),
}
"""The filter's kinds: an action code's first part."""

FIELD_LABELS = {
    "name": gettext_lazy("name"),
    "display_name": gettext_lazy("name"),
    "city": gettext_lazy("city or village"),
    "description": gettext_lazy("about"),
    "role": gettext_lazy("role"),
    "username": gettext_lazy("account"),
    "active": gettext_lazy("on the roster"),
    "expires_at": gettext_lazy("expires"),
    "addressed_to": gettext_lazy("invited"),
    "created": gettext_lazy("added"),
    "duplicates": gettext_lazy("already on the roster"),
    "repeated": gettext_lazy("repeated in the list"),
}

VALUE_LABELS: dict[str, dict[str, object]] = {
    "role": {
        "owner": gettext_lazy("owner"),
        "organiser": gettext_lazy("organiser"),
        "member": gettext_lazy("member"),
    },
}
"""Words for coded values, by field: ``VALUE_LABELS["role"]["owner"]``."""

REASONS: dict[str, Callable[[dict], str]] = {}
"""Per action, how to word a reason kept as a code in the row's ``after`` (a refused live result)."""

SUBJECTS: dict[str, Callable[[dict], str]] = {}
"""Per subject kind, how to word what a row is about (a match by round and table, a round)."""

NAMELESS: list[Callable[[object], str]] = []
"""Who did what a row without an account records, when it was not the site itself (a result
confirmed with a PIN from the score sheet): the first answer that is not empty is the one shown."""


def register(
    *, actions=None, kinds=None, fields=None, values=None, reasons=None, subjects=None, nameless=None
) -> None:
    """Another app's words for the codes it writes (called from its ``AppConfig.ready``)."""
    ACTION_LABELS.update(actions or {})
    KIND_LABELS.update(kinds or {})
    FIELD_LABELS.update(fields or {})
    for key, words in (values or {}).items():
        VALUE_LABELS.setdefault(key, {}).update(words)
    REASONS.update(reasons or {})
    SUBJECTS.update(subjects or {})
    NAMELESS.extend(word for word in nameless or () if word not in NAMELESS)


def action_label(code: str) -> str:
    """The action in the reader's language; an unknown code reads "Other change", never the code."""
    label = ACTION_LABELS.get(code)
    return str(label) if label is not None else _("Other change")


def kind_of(code: str) -> str:
    return code.split(".", 1)[0]


def kind_choices(codes) -> list[tuple[str, str]]:
    """The filter's kinds among ``codes`` (the actions a log holds), worded, in a stable order."""
    present = {kind_of(c) for c in codes}
    return [(kind, str(label)) for kind, label in KIND_LABELS.items() if kind in present]


@dataclass
class Change:
    label: str
    before: str | None
    after: str | None


@dataclass
class AuditLine:
    """One row of the log as a page shows it."""

    at: datetime.datetime
    who: str
    what: str
    subject: str
    round_number: int | None
    changes: list[Change] = field(default_factory=list)
    reason: str = ""
    event: str = ""
    """The tournament a row belongs to (shown in a club's log, which holds several)."""


def value_text(key: str, value) -> str:
    """A stored value in the reader's language: coded values worded, dates in the reader's format."""
    if value is None or value == "":
        return "—"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    words = VALUE_LABELS.get(key, {})
    if isinstance(value, str) and value in words:
        return str(words[value])
    if isinstance(value, list):
        if all(isinstance(v, str) for v in value):
            return ", ".join(str(words.get(v, v)) for v in value) or "—"
        return str(len(value))
    if isinstance(value, dict):
        return _("changed")
    if isinstance(value, str) and len(value) >= 10 and value[4:5] == "-" and value[7:8] == "-":
        return _date_text(value)
    return str(value)


def _date_text(value: str) -> str:
    try:
        moment = datetime.datetime.fromisoformat(value)
    except ValueError:
        return value
    if len(value) == 10:
        return formats.date_format(moment.date(), "DATE_FORMAT")
    if timezone.is_aware(moment):
        moment = timezone.localtime(moment)
    return formats.date_format(moment, "DATETIME_FORMAT")


def changes(before, after) -> list[Change]:
    """What changed, field by field, in the reader's words; ids and unworded fields left out. The
    two eyes of a result read as one score ("12:9")."""
    before = dict(before) if isinstance(before, dict) else {}
    after = dict(after) if isinstance(after, dict) else {}
    for state in (before, after):
        if "home_eyes" in state or "away_eyes" in state:
            h, a = state.pop("home_eyes", None), state.pop("away_eyes", None)
            state["score"] = None if h is None and a is None else f"{_num(h)}:{_num(a)}"
    rows = []
    keys = [*before, *(k for k in after if k not in before)]
    for key in sorted(keys, key=lambda k: k != "score"):  # a result's score first
        label = FIELD_LABELS.get(key)
        if label is None:
            continue
        if key in before and key in after and before[key] == after[key]:
            continue
        if key not in before and (after[key] in (None, "", False, []) or isinstance(after[key], dict)):
            continue  # a new row's empty settings say nothing; nested ones could only say "changed"
        rows.append(
            Change(
                str(label),
                value_text(key, before[key]) if key in before else None,
                value_text(key, after[key]) if key in after else None,
            )
        )
    return rows


def _num(value) -> str:
    return "–" if value is None else str(value)


def subject_text(entry) -> str:
    """What the row is about, worded now; rows from before subjects were kept show their old text."""
    subject = entry.subject
    if not isinstance(subject, dict):
        return entry.object_repr
    words = SUBJECTS.get(subject.get("kind", ""))
    if words is not None:
        return words(subject)
    return str(subject.get("name", ""))


def actor_text(entry) -> str:
    if entry.actor is None:
        for words in NAMELESS:
            if text := words(entry):
                return text
        return _("the site (automatically)")
    player = getattr(entry.actor, "player", None)
    name = getattr(player, "display_name", "") if player is not None else ""
    return f"{name} ({entry.actor.get_username()})" if name else entry.actor.get_username()


def describe(entry) -> AuditLine:
    """One audit row for the page, in the active language."""
    reason = entry.reason
    if not reason and entry.action in REASONS and isinstance(entry.after, dict):
        reason = REASONS[entry.action](entry.after)
    return AuditLine(
        at=entry.at,
        who=actor_text(entry),
        what=action_label(entry.action),
        subject=subject_text(entry),
        round_number=entry.round_number,
        changes=changes(entry.before, entry.after),
        reason=reason,
        event=str(entry.subject.get("event", "")) if isinstance(entry.subject, dict) else "",
    )


PAGE_SIZE = 50


def filter_values(query) -> tuple[str, int | None]:
    """The filter's kind and round from a page's query string; anything else means no filter."""
    kind = query.get("kind", "")
    kind = kind if kind in KIND_LABELS else ""
    try:
        round_number = int(query.get("round", ""))
    except ValueError:
        round_number = None
    return kind, round_number if round_number is not None and round_number > 0 else None


def log_page(rows, *, query, codes, rounds) -> dict:
    """What an audit page shows: one page of worded rows and its filter (kinds and rounds present)."""
    kind, round_number = filter_values(query)
    page = Paginator(rows, PAGE_SIZE).get_page(query.get("page"))
    keep = {k: v for k, v in (("kind", kind), ("round", round_number)) if v}
    return {
        "lines": [describe(entry) for entry in page.object_list],
        "page_obj": page,
        "kinds": kind_choices(codes),
        "rounds": rounds,
        "kind": kind,
        "round_number": round_number,
        "filter_query": urlencode(keep),
    }
