"""Words for the audit codes the tournaments write: actions, what a row is about, fields and values.

Registered into ``clubs.audit_labels`` when the app starts (``apps.TournamentsConfig.ready``), so
that a club's log and a tournament's log word every row the same way, in the reader's language.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from clubs import audit_labels

from .forms import TIEBREAK_LABELS
from .models import (
    BoardScale,
    ByeKind,
    Currency,
    EntryStatus,
    Format,
    HallView,
    MatchStatus,
    Movement,
    Paid,
    PlayMode,
    RequestStatus,
    Seeding,
    Tournament,
    TournamentStatus,
)
from .services import live

ACTIONS = {
    "tournament.create": gettext_lazy("Tournament created"),
    "tournament.update": gettext_lazy("Tournament settings changed"),
    "tournament.delete": gettext_lazy("Tournament deleted before it started"),
    "tournament.player_details": gettext_lazy("Players' details for the prize categories written down"),
    "entry.create": gettext_lazy("Pair entered"),
    "entry.bulk_create": gettext_lazy("List of pairs pasted"),
    "entry.approve": gettext_lazy("Pair approved"),
    "entry.partner_accept": gettext_lazy("The partner accepted the pair"),
    "entry.partner_decline": gettext_lazy("The partner declined the pair"),
    "entry.lapse": gettext_lazy("Pair lapsed: the partner entered with someone else"),
    "entry.check_in": gettext_lazy("Pair checked in"),
    "entry.payment": gettext_lazy("Pair's entry fee written down"),
    "entry.check_in_closed": gettext_lazy("Pair withdrawn: not checked in when check-in closed"),
    "entry.withdraw": gettext_lazy("Pair withdrawn"),
    "entry.reinstate": gettext_lazy("Pair back in the tournament"),
    "entry.move": gettext_lazy("Pair's place in the list changed"),
    "entry.seed": gettext_lazy("Pairs' seeds given with their entries"),
    "entry.substitute": gettext_lazy("Substitute put in"),
    "entry.ask_withdraw": gettext_lazy("A player asked the organiser to withdraw"),
    "entry.answer_withdraw": gettext_lazy("The organiser answered a request to withdraw"),
    "entry.ask_bye": gettext_lazy("A bye asked for a round"),
    "entry.withdraw_bye": gettext_lazy("A requested bye taken back"),
    "individual.enter": gettext_lazy("Player entered"),
    "individual.approve": gettext_lazy("Player approved"),
    "individual.check_in": gettext_lazy("Player checked in"),
    "individual.payment": gettext_lazy("Player's entry fee written down"),
    "individual.check_in_closed": gettext_lazy("Player withdrawn: not checked in when check-in closed"),
    "individual.withdraw": gettext_lazy("Player withdrawn"),
    "individual.seed": gettext_lazy("Players' seeds given with their entries"),
    "individual.reinstate": gettext_lazy("Player back in the tournament"),
    "individual.substitute": gettext_lazy("Substitute put in for a player"),
    "round.pair": gettext_lazy("Round paired"),
    "round.update": gettext_lazy("Round settings changed"),
    "round.unpair": gettext_lazy("Round unpaired"),
    "round.swap": gettext_lazy("Pairing changed by hand: two swapped places"),
    "round.table_number": gettext_lazy("Table number changed"),
    "match.report": gettext_lazy("Result reported"),
    "match.confirm": gettext_lazy("Result confirmed"),
    "match.auto_confirm": gettext_lazy("Result confirmed automatically"),
    "match.dispute": gettext_lazy("Result disputed"),
    "match.correct": gettext_lazy("Result corrected"),
    "match.withdrawal_forfeit": gettext_lazy("Forfeit by a withdrawn pair (12:0)"),
    "match.live_result": gettext_lazy("Result taken from a live table"),
    "match.live_result_refused": gettext_lazy("Live table's result not taken"),
    "announcement.post": gettext_lazy("Announcement to the hall"),
    "announcement.withdraw": gettext_lazy("Announcement withdrawn"),
    "tournament.hall_view": gettext_lazy("Hall screen view changed"),
    "boards.enter": gettext_lazy("Board results entered"),
    "boards.online": gettext_lazy("Board results taken from a live table"),
}

KINDS = {
    "tournament": gettext_lazy("Settings"),
    "entry": gettext_lazy("Pairs"),
    "individual": gettext_lazy("Players"),
    "round": gettext_lazy("Rounds"),
    "match": gettext_lazy("Results"),
}

NOT_SETTINGS = ("club", "slug", "created_by", "created_at", "id")

FIELDS = {
    "score": gettext_lazy("score"),
    "status": gettext_lazy("status"),
    "forfeit": gettext_lazy("forfeit or no-show"),
    "how": pgettext_lazy("audit field", "how"),
    "note": gettext_lazy("what is wrong"),
    "table": gettext_lazy("live table"),
    "seed": gettext_lazy("place in the list"),
    "late": gettext_lazy("late entry"),
    "after_round": gettext_lazy("withdrawn after round"),
    "from_round": gettext_lazy("plays from round"),
    "deadline": gettext_lazy("deadline"),
    "play_mode": gettext_lazy("play"),
    "best_of": gettext_lazy("matches per tie"),
    "length": gettext_lazy("round length (minutes)"),
    "announcement": gettext_lazy("announcement"),
    "text": gettext_lazy("text"),
    "round": gettext_lazy("round"),
    "entries": gettext_lazy("pairs"),
    "new_players": gettext_lazy("new players on the roster"),
    "paid": gettext_lazy("entry fee"),
    "paid_amount": gettext_lazy("amount taken"),
    "scored": gettext_lazy("scored"),
    "boards": gettext_lazy("boards (NS card points)"),
    **{
        f.name: f.verbose_name
        for f in Tournament._meta.get_fields()
        if getattr(f, "verbose_name", None) and f.name not in NOT_SETTINGS
    },
}

VALUES = {
    "status": {
        **dict(RequestStatus.choices),
        **dict(MatchStatus.choices),
        **dict(EntryStatus.choices),
        **dict(TournamentStatus.choices),
    },
    "how": {
        "player": gettext_lazy("by the other pair"),
        "pin": gettext_lazy("with a PIN from the score sheet"),
        "organiser": gettext_lazy("by the organiser"),
        "auto": gettext_lazy("automatically"),
    },
    "paid": dict(Paid.choices),
    "scored": dict(ByeKind.choices),
    "bye_requests": {**dict(ByeKind.choices), "": gettext_lazy("no requested byes")},
    "fee_currency": dict(Currency.choices),
    "play_mode": {**dict(PlayMode.choices), "": gettext_lazy("as the tournament")},
    "format": dict(Format.choices),
    "movement": dict(Movement.choices),
    "board_scale": dict(BoardScale.choices),
    "seeding": dict(Seeding.choices),
    "tiebreaks": {str(k): v for k, v in TIEBREAK_LABELS.items()},
    "hall_view": {**dict(HallView.choices), "": gettext_lazy("every view in turn")},
}


def match_subject(subject: dict) -> str:
    """A match by its round, table and pairs, in the reader's language."""
    where = _("Round %(round)s, table %(table)s") % {
        "round": subject.get("round") or "?",
        "table": subject.get("table", "?"),
    }
    if (subject.get("game") or 1) > 1:
        where += ", " + _("match %(n)d") % {"n": subject["game"]}
    pairs = " — ".join(name for name in (subject.get("home"), subject.get("away")) if name)
    return f"{where}: {pairs}" if pairs else where


def round_subject(subject: dict) -> str:
    return _("Round %(n)s") % {"n": subject.get("round") or "?"}


def pin_holder(entry) -> str:
    """Who reported, confirmed or disputed without an account: whoever had a pair's PIN (the pair
    itself, or the table's device), named by that pair; the site itself otherwise."""
    after = entry.after if isinstance(entry.after, dict) else {}
    if after.get("how") != "pin":
        return ""
    subject = entry.subject if isinstance(entry.subject, dict) else {}
    pair = subject.get(after.get("side") or "")
    if pair:
        return _("someone with the PIN of %(pair)s") % {"pair": pair}
    return _("someone with a pair's PIN")


def live_refusal(after: dict) -> str:
    return live.refusal_text(after) if after.get("code") else ""


def register() -> None:
    audit_labels.register(
        actions=ACTIONS,
        kinds=KINDS,
        fields=FIELDS,
        values=VALUES,
        reasons={"match.live_result_refused": live_refusal},
        subjects={"match": match_subject, "round": round_subject},
        nameless=[pin_holder],
    )
