"""What an organising key sends to run an event: its settings as the organiser's settings form takes
them, and a list of entries with their seeds. Only the form is checked here (400); whether the
event's state and rules allow it, the services judge (409)."""

from __future__ import annotations

from rest_framework import serializers

from gameplay.engine.rules import parameters
from tournaments.core.tiebreaks import Tiebreak
from tournaments.models import Currency, Format, Paid, PlayMode, Seeding, Tournament

from .fields import NameField, model_text
from .serializers import MAX_ID

SERIES = [1, 3, 5]
"""A tie is played over 1, 3 or 5 matches (``formats.series.SERIES_LENGTHS``)."""


def _rule_field(parameter) -> serializers.Field:
    if parameter.kind == "choice":
        return serializers.ChoiceField(choices=list(parameter.choices), required=False)
    if parameter.kind == "range":
        return serializers.IntegerField(min_value=parameter.low, max_value=parameter.high, required=False)
    return serializers.BooleanField(required=False)


RulesSerializer = type(
    "RulesSerializer",
    (serializers.Serializer,),
    {
        "__doc__": "The table's rules (RULES.md), each as the engine takes it; one left out keeps its"
        " default (on create) or its present value (on edit).",
        **{p.name: _rule_field(p) for p in parameters()},
    },
)


class TournamentSettingsSerializer(serializers.Serializer):
    """The event's settings, as its settings page takes them; each one left out keeps its default
    (on create) or its present value (on edit). Once round 1 is paired the format, the seeding,
    the series length and whether it is rated are fixed (409)."""

    name = model_text(Tournament, "name", required=False)
    starts_on = serializers.DateField(required=False)
    ends_on = serializers.DateField(required=False, allow_null=True)
    venue = model_text(Tournament, "venue", required=False)
    online = serializers.BooleanField(required=False)
    description = model_text(Tournament, "description", required=False)
    format = serializers.ChoiceField(choices=Format.choices, required=False)
    swiss_rounds = serializers.IntegerField(
        min_value=1, max_value=30, required=False,
        help_text="Swiss rounds; also the number of rounds of an individual event.",
    )  # fmt: skip
    double_round_robin = serializers.BooleanField(required=False)
    matchday_days = serializers.IntegerField(min_value=0, max_value=60, required=False)
    seeding = serializers.ChoiceField(choices=Seeding.choices, required=False)
    third_place = serializers.BooleanField(required=False)
    rated = serializers.BooleanField(required=False)
    grand_final_reset = serializers.BooleanField(required=False)
    group_count = serializers.IntegerField(min_value=1, max_value=16, required=False)
    group_qualifiers = serializers.IntegerField(min_value=1, max_value=8, required=False)
    best_of = serializers.ChoiceField(choices=SERIES, required=False)
    final_best_of = serializers.ChoiceField(choices=SERIES, required=False, allow_null=True)
    play_mode = serializers.ChoiceField(choices=PlayMode.choices, required=False)
    prizes = serializers.ListField(
        child=NameField(max_length=200),  # each prize a line of text, as the page keeps it
        max_length=64,
        required=False,
        help_text="One prize per place, first place first.",
    )  # fmt: skip
    points_win = serializers.IntegerField(min_value=0, max_value=10, required=False)
    points_loss = serializers.IntegerField(min_value=0, max_value=10, required=False)
    points_bye = serializers.IntegerField(min_value=0, max_value=10, required=False)
    bye_requests = serializers.ChoiceField(
        choices=["", "half", "zero"], required=False,
        help_text="Swiss and individual events: what a requested bye scores, half (half a win) or zero"
        " (as a loss); empty: no requested byes.",
    )  # fmt: skip
    bye_requests_max = serializers.IntegerField(
        min_value=1, max_value=50, required=False, help_text="Requested byes one entry may take."
    )
    bye_requests_not_last = serializers.IntegerField(
        min_value=0, max_value=50, required=False, help_text="The last rounds in which none is granted."
    )
    tiebreaks = serializers.ListField(
        child=serializers.ChoiceField(choices=[t.value for t in Tiebreak]),
        max_length=len(Tiebreak), required=False,
        help_text="The tiebreaks in order, each once; empty for the format's own.",
    )  # fmt: skip
    self_registration = serializers.BooleanField(required=False)
    entry_cap = serializers.IntegerField(min_value=2, max_value=100000, required=False, allow_null=True)
    entry_fee = serializers.IntegerField(
        min_value=0, max_value=10_000_000, required=False, allow_null=True,
        help_text="The entry fee, a whole amount per pair (per player in an individual event), paid at"
        " check-in; null or 0 for none. Who has paid is seen only by the organisers.",
    )  # fmt: skip
    fee_currency = serializers.ChoiceField(
        choices=Currency.choices, required=False, help_text="The fee's currency (KZT unless set)."
    )
    auto_confirm_hours = serializers.IntegerField(min_value=1, max_value=720, required=False)
    rules = RulesSerializer(required=False)


class NewTournamentSerializer(TournamentSettingsSerializer):
    """A new event of the club the slug names: its name, and any other settings."""

    club = serializers.SlugField(max_length=140, help_text="The club's slug, as /api/v1/clubs/ gives it.")
    name = model_text(Tournament, "name")


class ClubOfNewTournamentSerializer(serializers.Serializer):
    """The club of a new event, read first: the key and the person are checked before the rest."""

    club = serializers.SlugField(max_length=140)


class EntryLineSerializer(serializers.Serializer):
    """A pair by its two players' ids, or in an individual event a player by his; the seed asked for
    (an event seeded by hand, before round 1 is paired)."""

    player_a = serializers.IntegerField(min_value=1, max_value=MAX_ID, required=False)
    player_b = serializers.IntegerField(min_value=1, max_value=MAX_ID, required=False)
    player = serializers.IntegerField(min_value=1, max_value=MAX_ID, required=False)
    seed = serializers.IntegerField(min_value=1, max_value=10000, required=False, allow_null=True)


class EntryListSerializer(serializers.Serializer):
    """The entries to make, all or none."""

    entries = serializers.ListField(child=EntryLineSerializer(), min_length=1, max_length=500)


class CheckInSerializer(serializers.Serializer):
    """A check-in, and (optionally) the entry fee taken in the same step."""

    paid = serializers.ChoiceField(
        choices=[Paid.CASH, Paid.TRANSFER, Paid.WAIVED], required=False,
        help_text="How the entry fee was paid; left out, nothing is written about the fee.",
    )  # fmt: skip
    amount = serializers.IntegerField(
        min_value=1, max_value=10_000_000, required=False, allow_null=True,
        help_text="The amount taken in cash or by transfer; left out, the event's fee.",
    )  # fmt: skip
