"""Forms for tournament pages. They only read input; the services judge it and make the changes.

The rule fields are built from the engine's own rules definition of the event's game
(``rule_form``: ``gameplay.engine.games.parameters``), so a parameter added there appears on the
form with its default, and the engine parses the result.
Just over 400 lines: the settings form holds every setting of every format, one page's inputs.
"""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from clubs.forms import BilkaForm, model_field
from clubs.models import Player
from clubs.text_fields import PasteFormField
from gameplay.engine.games import BILKA

from .core.games import DUPLICATE_GAMES, tournament_game
from .core.tiebreaks import Tiebreak
from .models import (
    ANNOUNCEMENT_LENGTH,
    DUPLICATE_FORMATS,
    BoardScale,
    ByeKind,
    Currency,
    DaySettings,
    Format,
    HallView,
    Movement,
    PlayMode,
    Seeding,
    Tournament,
)
from .prize_form import category_slots, prize_fields, prize_initial, prize_value
from .rule_form import CHOICE_LABELS, GAME_CHOICES, RULE_LABELS, chosen_game, rule_fields
from .score_words import DUPLICATE_REFUSAL

__all__ = ["CHOICE_LABELS", "RULE_LABELS", "TIEBREAK_LABELS", "BulkEntriesForm", "TournamentForm"]

TIEBREAK_LABELS = {
    Tiebreak.HEAD_TO_HEAD: _("Head-to-head"),
    Tiebreak.EYE_DIFFERENCE: _("Eye difference"),
    Tiebreak.EYES_SCORED: _("Eyes scored"),
    Tiebreak.BUCHHOLZ: _("Buchholz"),
    Tiebreak.SONNEBORN_BERGER: _("Sonneborn-Berger"),
    Tiebreak.LUCY: _("Lucy deals"),
}
TIEBREAK_HELP = {
    Tiebreak.HEAD_TO_HEAD: _(
        "Match points in the games between the tied pairs only; used when every two of them have met."
    ),
    Tiebreak.EYE_DIFFERENCE: _("Eyes scored minus eyes conceded in played matches (a bye counts no eyes)."),
    Tiebreak.EYES_SCORED: _("Eyes scored in played matches."),
    Tiebreak.BUCHHOLZ: _("The sum of the match points of every opponent met: who had the harder draw."),
    Tiebreak.SONNEBORN_BERGER: _("The sum of the match points of every opponent beaten."),
    Tiebreak.LUCY: _("Deals won by taking every trick (“Lucy”), where the sheet was kept deal by deal."),
}
TIEBREAK_SLOTS = len(Tiebreak)


PLAIN_SETTINGS = (
    "name", "starts_on", "ends_on", "venue", "online", "description", "format", "swiss_rounds",
    "double_round_robin", "matchday_days", "seeding", "third_place", "best_of", "play_mode",
    "points_win", "points_loss", "points_bye", "bye_requests", "bye_requests_max", "bye_requests_not_last",
    "self_registration", "rated", "entry_cap",
    "entry_fee", "fee_currency", "auto_confirm_hours", "round_length",
    "grand_final_reset", "group_count", "group_qualifiers", "final_best_of",
    "boards_per_round", "movement", "board_scale", "duplicate_rounds",
)  # fmt: skip
"""Settings the form shows as they are stored (prizes, tiebreaks and rules have their own fields:
the prizes' are ``prize_form``)."""


PASTE_LENGTH = 30000
"""A pasted list of pairs or players: a few hundred lines."""

SERIES_CHOICES = [(1, _("1 match")), (3, _("Best of 3")), (5, _("Best of 5"))]


def count_field(label, low: int, high: int, initial: int, help_text="") -> forms.IntegerField:
    """A whole number the organiser sets, from ``low`` to ``high``."""
    return forms.IntegerField(
        label=label, min_value=low, max_value=high, initial=initial, help_text=help_text
    )


ISO_DAY = "%Y-%m-%d"
ISO_MINUTE = "%Y-%m-%dT%H:%M"
"""What `<input type="date">` and `type="datetime-local"` read and send, in every language."""


class TournamentForm(BilkaForm):
    name = model_field(Tournament, "name", label=_("Tournament name"))
    # A date input only takes the ISO form, whatever the page's language: in a localised form it
    # came back empty, and saving the settings then failed with "required".
    starts_on = forms.DateField(
        label=_("First day"), widget=forms.DateInput(attrs={"type": "date"}, format=ISO_DAY)
    )
    ends_on = forms.DateField(
        label=_("Last day"), required=False, widget=forms.DateInput(attrs={"type": "date"}, format=ISO_DAY)
    )
    venue = model_field(Tournament, "venue", label=_("Venue"))
    online = forms.BooleanField(label=_("Online event"), required=False)
    description = model_field(
        Tournament, "description", label=_("About"), widget=forms.Textarea(attrs={"rows": 3})
    )
    format = forms.ChoiceField(label=_("Format"), choices=Format.choices, initial=Format.SWISS)
    swiss_rounds = count_field(
        _("Swiss rounds"), 1, 30, 5, _("Also the number of rounds of an individual event.")
    )
    double_round_robin = forms.BooleanField(
        label=_("Double round robin (everyone meets twice)"), required=False
    )
    matchday_days = count_field(
        _("Days per matchday (leagues)"),
        0,
        60,
        0,
        _("Each round's deadline is this many days after the previous one; 0 for no deadlines."),
    )
    seeding = forms.ChoiceField(
        label=_("Seeding (knockout)"), choices=Seeding.choices, initial=Seeding.RANDOM
    )
    third_place = forms.BooleanField(label=_("Third-place match (knockout)"), required=False)
    rated = forms.BooleanField(
        label=_("Rated"),
        required=False,
        initial=True,
        help_text=_("Its matches count for the players' ratings. Decide before round 1 is paired."),
    )
    grand_final_reset = forms.BooleanField(
        label=_("Grand final reset (double elimination)"),
        required=False,
        initial=True,
        help_text=_("If the losers' bracket winner wins the final, a second final decides."),
    )
    group_count = forms.IntegerField(
        label=_("Groups (groups then playoff)"), min_value=1, max_value=16, initial=2, required=False
    )
    group_qualifiers = forms.IntegerField(
        label=_("Pairs through from each group"), min_value=1, max_value=8, initial=2, required=False
    )
    best_of = forms.TypedChoiceField(
        label=_("Matches per tie (knockout, double elimination, playoff)"),
        choices=SERIES_CHOICES,
        coerce=int,
        initial=1,
        help_text=_("Best of 3: the first pair to win two matches wins the tie. Set before the start."),
    )
    final_best_of = forms.TypedChoiceField(
        label=_("Matches in the final"),
        choices=[("", _("As the other ties")), *SERIES_CHOICES],
        coerce=int,
        empty_value=None,
        required=False,
    )
    play_mode = forms.ChoiceField(label=_("Play"), choices=PlayMode.choices, initial=PlayMode.PHYSICAL)
    boards_per_round = forms.IntegerField(label=_("Boards per round (duplicate)"), min_value=2, max_value=8,
                                          initial=4, required=False)
    movement = forms.ChoiceField(label=_("Movement (duplicate pairs)"), choices=Movement.choices,
                                 required=False)
    duplicate_rounds = model_field(Tournament, "duplicate_rounds", label=_("Rounds played (duplicate pairs)"))
    board_scale = forms.ChoiceField(label=_("Boards scored by (duplicate)"), choices=BoardScale.choices,
                                    required=False)
    points_win = forms.IntegerField(label=_("Points for a win"), min_value=0, max_value=10, initial=1)
    points_loss = forms.IntegerField(label=_("Points for a loss"), min_value=0, max_value=10, initial=0)
    points_bye = forms.IntegerField(label=_("Points for a bye"), min_value=0, max_value=10, initial=1)
    bye_requests = forms.ChoiceField(
        label=_("Requested byes"),
        choices=[("", _("Not granted")), *ByeKind.choices],
        required=False,
        help_text=_(
            "Swiss and individual events: a pair (a player) may ask to sit out a round before it is"
            " paired, scored half a win or nothing."
        ),
    )
    bye_requests_max = forms.IntegerField(
        label=_("Requested byes per entry"), min_value=1, max_value=50, initial=1, required=False
    )
    bye_requests_not_last = forms.IntegerField(
        label=_("No requested byes in the last rounds"),
        min_value=0,
        max_value=50,
        initial=0,
        required=False,
        help_text=_("How many of the last rounds nobody may sit out; 0 for none."),
    )
    self_registration = forms.BooleanField(
        label=_("Players may register themselves (the organiser approves)"), required=False
    )
    entry_cap = forms.IntegerField(label=_("Most pairs"), min_value=2, required=False)
    entry_fee = forms.IntegerField(
        label=_("Entry fee"),
        min_value=0,
        max_value=10_000_000,
        required=False,
        help_text=_("Per pair (per player in an individual event), paid at check-in; empty for none."),
    )
    fee_currency = forms.ChoiceField(
        label=_("Currency"), choices=Currency.choices, initial=Currency.KZT, required=False
    )
    auto_confirm_hours = forms.IntegerField(
        label=_("Confirm reported results automatically after (hours)"),
        min_value=1,
        max_value=720,
        initial=24,
    )

    round_length = forms.IntegerField(
        label=_("Round length (minutes)"),
        min_value=1,
        max_value=600,
        required=False,
        help_text=_("A clock counts down on the players' pages and the hall screen; empty for no clock."),
    )

    game = forms.ChoiceField(label=_("Game"), choices=GAME_CHOICES, required=False, widget=forms.HiddenInput)

    def __init__(self, *args, clubs: list[tuple[int, str]] = (), game: str | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        if game is None:  # a posted form says its game; a new one the page's ?game=, an event its rules
            game = self.data.get("game") if self.is_bound else self.initial.get("game")
        self.game = chosen_game(game)
        self.initial["game"] = self.game
        self.fields.update(prize_fields(list(clubs)))
        choices = [("", "—"), *((t.value, TIEBREAK_LABELS[t]) for t in Tiebreak)]
        for i in range(1, TIEBREAK_SLOTS + 1):
            self.fields[f"tiebreak_{i}"] = forms.ChoiceField(
                label=_("Tiebreak %(n)d") % {"n": i}, choices=choices, required=False
            )
        self.fields.update(rule_fields(self.game))

    @property
    def game_value(self) -> str:
        return self.game

    def tiebreak_fields(self):
        return [self[f"tiebreak_{i}"] for i in range(1, TIEBREAK_SLOTS + 1)]

    def prize_field_list(self):
        return [self[n] for n in ("prizes", "prize_withdrawn", "prize_one", "prize_split")]

    def category_slots(self):
        return category_slots(self)

    def rule_field_list(self):
        return [self[name] for name in self.fields if name.startswith("rule_")]

    def main_fields(self):
        return [self[n] for n in ("name", "starts_on", "ends_on", "venue", "online", "description")]

    def format_fields(self):
        names = (
            "format",
            "swiss_rounds",
            "double_round_robin",
            "matchday_days",
            "seeding",
            *(("rated",) if "rated" in self.fields else ()),
            "third_place",
            "grand_final_reset",
            "group_count",
            "group_qualifiers",
            "best_of",
            "final_best_of",
            "play_mode",
            "boards_per_round", "movement", "duplicate_rounds", "board_scale",
        )  # fmt: skip
        return [self[n] for n in names]

    def scoring_fields(self):
        names = (
            "points_win",
            "points_loss",
            "points_bye",
            "bye_requests",
            "bye_requests_max",
            "bye_requests_not_last",
            "self_registration",
            "entry_cap",
            "entry_fee",
            "fee_currency",
            "auto_confirm_hours",
            "round_length",
        )
        return [self[n] for n in names]

    def clean(self):
        data = super().clean()
        order = [data.get(f"tiebreak_{i}") for i in range(1, TIEBREAK_SLOTS + 1)]
        order = [t for t in order if t]
        if len(set(order)) != len(order):
            raise ValidationError(_("Each tiebreak can be chosen once."))
        data["tiebreaks"] = order
        if self.game not in DUPLICATE_GAMES and data.get("format") in DUPLICATE_FORMATS:
            self.add_error("format", DUPLICATE_REFUSAL)
        data.setdefault("rated", False)  # a game without a rating has no such field
        for name in ("bye_requests_max", "bye_requests_not_last",  # left empty: the event's default
                     "boards_per_round", "movement", "board_scale"):
            if data.get(name) in (None, ""):
                data[name] = Tournament._meta.get_field(name).default
        return data

    def service_values(self) -> dict:
        data = self.cleaned_data
        values = {k: data[k] for k in PLAIN_SETTINGS}
        for key in ("group_count", "group_qualifiers"):  # left empty: the default, 2
            if values[key] is None:
                values[key] = 2
        values["fee_currency"] = values["fee_currency"] or Currency.KZT  # a form sent without it
        values["prizes"] = prize_value(data)
        values["tiebreaks"] = data["tiebreaks"]
        rules = {name[5:]: data[name] for name in self.fields if name.startswith("rule_")}
        values["rules"] = rules if self.game == BILKA else {"game": self.game, **rules}
        return values

    @classmethod
    def initial_for(cls, tournament) -> dict:
        initial = {k: getattr(tournament, k) for k in PLAIN_SETTINGS}
        initial.update(prize_initial(tournament.prizes))
        for i, t in enumerate(tournament.tiebreaks or [], start=1):
            initial[f"tiebreak_{i}"] = t
        for key, value in (tournament.rules or {}).items():
            initial[f"rule_{key}"] = value
        initial["game"] = tournament_game(tournament.rules)
        return initial


class BulkEntriesForm(BilkaForm):
    text = PasteFormField(
        max_length=PASTE_LENGTH,
        label=_("Pairs, one per line"),
        widget=forms.Textarea(
            attrs={"rows": 6, "placeholder": "Нұрлан Ахметов & Әсел Жұмабаева\nОлег Ткаченко & Иван Петров"}
        ),
        help_text=_(
            "Two names per line joined by “&”. Names on the club's roster are found in any alphabet;"
            " new names are added to the roster."
        ),
    )


class PlayersBulkForm(BilkaForm):
    text = PasteFormField(
        max_length=PASTE_LENGTH,
        label=_("Players, one per line"),
        widget=forms.Textarea(attrs={"rows": 6, "placeholder": "Нұрлан Ахметов\nОлег Ткаченко"}),
        help_text=_(
            "Names on the club's roster are found in any alphabet; new names are added to the roster."
        ),
    )


class SelfRegisterForm(BilkaForm):
    partner = forms.ModelChoiceField(label=_("Your partner"), queryset=None)

    def __init__(self, *args, players=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["partner"].queryset = players


class SubstituteForm(BilkaForm):
    round = forms.ModelChoiceField(label=_("Round"), queryset=None)
    player_out = forms.ModelChoiceField(label=_("Leaves for this round"), queryset=None)
    player_in = forms.ModelChoiceField(label=_("Plays instead"), queryset=None)

    def __init__(self, *args, rounds=None, pair_players=None, players=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["round"].queryset = rounds
        self.fields["player_out"].queryset = pair_players
        self.fields["player_in"].queryset = players


class PlayerSubstituteForm(BilkaForm):
    """A substitute for a player of an individual event: a roster player not entered, or a new name."""

    from_round = forms.IntegerField(label=_("Plays from round"), min_value=1, max_value=99)
    player = forms.ModelChoiceField(label=_("Roster player"), queryset=None, required=False)
    name = model_field(Player, "display_name", label=_("Or a new name"), required=False)

    def __init__(self, *args, players=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = players

    def clean(self):
        data = super().clean()
        if data.get("player") and (data.get("name") or "").strip():
            raise ValidationError(_("Choose a roster player or write a new name, not both."))
        return data


class RoundForm(BilkaForm):
    deadline = forms.DateTimeField(
        label=_("Deadline"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format=ISO_MINUTE),
    )
    play_mode = forms.ChoiceField(
        label=_("Play"), required=False, choices=[("", _("As the tournament")), *PlayMode.choices]
    )
    best_of = forms.IntegerField(label=_("Matches per tie"), min_value=1, max_value=5, required=False)
    length = forms.IntegerField(
        label=_("Round length (minutes)"),
        min_value=1,
        max_value=600,
        required=False,
        help_text=_("Empty: the tournament's round length."),
    )


class AnnouncementForm(BilkaForm):
    text = forms.CharField(
        label=_("Announcement to the hall"),
        max_length=ANNOUNCEMENT_LENGTH,
        widget=forms.Textarea(attrs={"rows": 2, "maxlength": ANNOUNCEMENT_LENGTH}),
        help_text=_("On the hall screen and the tournament page; every player with an account gets it."),
    )


class HallViewForm(BilkaForm):
    view = forms.ChoiceField(
        label=_("The hall screen shows"),
        required=False,
        choices=[("", _("Every view in turn")), *HallView.choices],
    )


class DaySettingsForm(forms.ModelForm):
    class Meta:
        model = DaySettings
        fields = [
            "auto_pair",
            "first_round_at",
            "round_interval_minutes",
            "check_in_closes_at",
            "reminder_minutes",
            "no_show_minutes",
            "round_minutes",
        ]
        widgets = {
            "first_round_at": forms.DateTimeInput(attrs={"type": "datetime-local"}, format=ISO_MINUTE),
            "check_in_closes_at": forms.DateTimeInput(
                attrs={"type": "datetime-local"}, format=ISO_MINUTE
            ),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["round_interval_minutes"].required = False  # left out: no later start times

    def clean_round_interval_minutes(self) -> int:
        return self.cleaned_data.get("round_interval_minutes") or 0
