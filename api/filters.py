"""The lists' filters. Unknown names and slugs give an empty list, never an error: a filter only
narrows what the caller may see anyway. A value of the wrong kind (a date that is not one, an empty
number, "maybe" for yes or no, a parameter given twice) is refused with 400, never ignored."""

from __future__ import annotations

import re

import django_filters as df
from django import forms
from django.core.validators import ProhibitNullCharactersValidator
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field

from archive.models import ArchivedMatch
from clubs.models import Club, Player
from clubs.text import line
from clubs.text_fields import NAME_LENGTH, too_long
from ratings.models import RATED_GAMES, PlayerRating
from tournaments.models import Format, Tournament, TournamentStatus

ROW_ID_MAX = 2**31 - 1
ISO_DATE = ["%Y-%m-%d"]
WHOLE = re.compile(r"[0-9]{1,10}")


@extend_schema_field({"type": "integer", "minimum": 0, "maximum": ROW_ID_MAX})
class RowIdFilter(df.Filter):
    """A row's id (a player, a tournament): a whole number the database can hold."""

    field_class = forms.IntegerField

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("min_value", 0)
        kwargs.setdefault("max_value", ROW_ID_MAX)
        super().__init__(*args, **kwargs)


class TypedTextField(forms.CharField):
    """A name as searched: tidied as names are kept (``clubs.text``), so a query with an invisible
    character still finds the name; longer than any name is refused in the request's language."""

    def to_python(self, value):
        value = super().to_python(value)
        # a NUL is refused (400) as every Django form field refuses it, before tidying would drop it:
        # the schema says so (api/schema.py NO_NUL)
        ProhibitNullCharactersValidator()(value)
        if len(value) > NAME_LENGTH:
            raise too_long(NAME_LENGTH, len(value))
        return line(value)


@extend_schema_field({"type": "string", "maxLength": NAME_LENGTH})
class NameFilter(df.CharFilter):
    """A part of a name or a village, at most as long as a name."""

    field_class = TypedTextField


class StrictFilterSet(df.FilterSet):
    """Filters that refuse what they cannot read instead of leaving it out."""

    def is_valid(self) -> bool:
        valid = super().is_valid()
        for name, f in self.filters.items():
            values = self.data.getlist(name) if hasattr(self.data, "getlist") else [self.data.get(name)]
            values = [v for v in values if v is not None]
            if not values:
                continue
            value = values[0]
            refused = len(values) > 1
            if isinstance(f, df.BooleanFilter):
                refused = refused or value not in ("true", "false")
            elif isinstance(f, RowIdFilter):
                refused = refused or not WHOLE.fullmatch(value)
            elif not isinstance(f, df.CharFilter):
                refused = refused or value == ""
            if refused:
                self.form.add_error(name, _("This value cannot be read here."))
                valid = False
        return valid


class ClubFilter(StrictFilterSet):
    city = NameFilter(field_name="city", lookup_expr="icontains")
    name = NameFilter(field_name="name", lookup_expr="icontains")

    class Meta:
        model = Club
        fields = ["city", "name"]


class PlayerFilter(StrictFilterSet):
    name = NameFilter(field_name="display_name", lookup_expr="icontains")
    city = NameFilter(field_name="city", lookup_expr="icontains")
    club = df.CharFilter(method="in_club", label="club slug (on its roster now)")

    class Meta:
        model = Player
        fields = ["name", "city", "club"]

    def in_club(self, queryset, name, value):
        return queryset.filter(roster_entries__club__slug=value, roster_entries__active=True).distinct()


class TournamentFilter(StrictFilterSet):
    club = df.CharFilter(field_name="club__slug")
    status = df.ChoiceFilter(choices=TournamentStatus.choices)
    format = df.ChoiceFilter(choices=Format.choices)
    starts_after = df.DateFilter(field_name="starts_on", lookup_expr="gte", input_formats=ISO_DATE)
    starts_before = df.DateFilter(field_name="starts_on", lookup_expr="lte", input_formats=ISO_DATE)

    class Meta:
        model = Tournament
        fields = ["club", "status", "format", "starts_after", "starts_before"]


class ArchivedMatchFilter(StrictFilterSet):
    player = RowIdFilter(method="with_player", label="player id (sat at the table)")
    club = df.CharFilter(field_name="club__slug")
    tournament = RowIdFilter(field_name="tournament")
    played_after = df.DateFilter(field_name="played_at", lookup_expr="date__gte", input_formats=ISO_DATE)
    played_before = df.DateFilter(field_name="played_at", lookup_expr="date__lte", input_formats=ISO_DATE)
    has_record = df.BooleanFilter(field_name="has_record")
    rules_key = df.CharFilter(field_name="rules_key")

    class Meta:
        model = ArchivedMatch
        fields = ["player", "club", "tournament", "played_after", "played_before", "has_record", "rules_key"]

    def with_player(self, queryset, name, value):
        return queryset.filter(seats__player_id=value).distinct()


class RatingFilter(StrictFilterSet):
    min_matches = RowIdFilter(method="at_least", label="at least this many rated matches")
    # Read by the view (``RatingList``: the rows and their counts are the game's); declared here so
    # that another value is refused with 400 and the schema lists the games.
    game = df.ChoiceFilter(choices=[(g.slug, g.slug) for g in RATED_GAMES], method="of_game",
                           label="the game whose rating is listed: bilka (the default), kozyol or bilka2")

    class Meta:
        model = PlayerRating
        fields = ["min_matches", "game"]

    def at_least(self, queryset, name, value):
        return queryset.filter(matches__gte=value)

    def of_game(self, queryset, name, value):
        return queryset  # the view has already taken the game's rows
