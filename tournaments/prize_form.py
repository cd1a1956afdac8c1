"""The prizes part of the settings form: the place prizes, the options and the categories' slots.

The categories are a few numbered slots of plain fields (like the tiebreaks' slots), so the page
works on a phone without scripts; a slot left without a name is no category. The form only reads
the input into the stored shape (``core.prizes.setup_to_json``); ``services.events.clean_settings``
judges it.
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.text_fields import PasteFormField

from .core.prizes import (
    Category,
    Options,
    PrizeSetup,
    Rule,
    Withdrawn,
    line_of_prize,
    prize_of_line,
    setup_from_json,
    setup_to_json,
)
from .models import Gender

CATEGORY_SLOTS = 4
PRIZES_LENGTH = 4000
"""The prizes, one line per place (each line is a name: ``services.events.clean_settings``)."""

WITHDRAWN_CHOICES = [
    (Withdrawn.PASS_DOWN.value, _("passes down to the next pair (everyone below moves up)")),
    (Withdrawn.KEEP.value, _("stays with them")),
    (Withdrawn.NOT_AWARDED.value, _("is not awarded")),
]
PRIZE_HELP = _(
    "A line with only an amount (30 000) is money that tied pairs may share; a line with words "
    "(a cup, a horse, “Cup and 20 000 ₸”) is given whole, by the tiebreaks."
)


def _lines(text: str) -> list:
    return [prize_of_line(t) for t in (text or "").splitlines() if t.strip()]


def prize_fields(clubs: list[tuple[int, str]]) -> dict[str, forms.Field]:
    """The prize fields, ``clubs`` the clubs a category may name."""
    fields: dict[str, forms.Field] = {
        "prizes": PasteFormField(
            max_length=PRIZES_LENGTH,
            label=_("Prizes, one line per place"),
            required=False,
            help_text=PRIZE_HELP,
            widget=forms.Textarea(
                attrs={"rows": 3, "placeholder": _("Cup and 20 000 ₸\nSack of flour\nCake")}
            ),
        ),
        "prize_withdrawn": forms.ChoiceField(
            label=_("The prize of a pair that withdrew or was disqualified"),
            choices=WITHDRAWN_CHOICES,
            widget=forms.RadioSelect,  # a phone wraps the choices, a select cut them off
            initial=Withdrawn.PASS_DOWN.value,
            required=False,  # a form sent without it: the default
        ),
        "prize_one": forms.BooleanField(
            label=_("A pair takes only its highest prize (the next in the category moves up)"),
            required=False,
            initial=True,
        ),
        "prize_split": forms.BooleanField(
            label=_("Pairs sharing a place split the money of their places evenly"),
            required=False,
            initial=True,
        ),
    }
    club_choices = [("", "—"), *((str(pk), name) for pk, name in clubs)]
    gender_choices = [("", "—"), *Gender.choices]
    for n in range(1, CATEGORY_SLOTS + 1):
        fields.update({
            f"cat_{n}_name": forms.CharField(
                label=_("Category name"), required=False, max_length=200,
                widget=forms.TextInput(attrs={"placeholder": _("Best women's pair")}),
            ),
            f"cat_{n}_prizes": PasteFormField(
                max_length=PRIZES_LENGTH, label=_("Its prizes, one per line"), required=False,
                widget=forms.Textarea(attrs={"rows": 2}),
            ),
            f"cat_{n}_club": forms.TypedChoiceField(label=_("Both players on the roster of"), required=False,
                                                    choices=club_choices, coerce=int, empty_value=None),
            f"cat_{n}_city": forms.CharField(label=_("Both from the city or village"), required=False,
                                             max_length=120),
            f"cat_{n}_born_from": forms.IntegerField(label=_("Born in or after"), required=False,
                                                     min_value=1900, max_value=2100),
            f"cat_{n}_born_to": forms.IntegerField(label=_("Born in or before"), required=False,
                                                   min_value=1900, max_value=2100),
            f"cat_{n}_gender": forms.ChoiceField(label=_("Both players"), required=False,
                                                 choices=gender_choices),
            f"cat_{n}_newcomer": forms.BooleanField(
                label=_("Both newcomers (no earlier finished event on the site)"), required=False),
        })  # fmt: skip
    return fields


def category_slots(form: forms.Form) -> list[list[forms.BoundField]]:
    """Each slot's bound fields, for the template."""
    keys = ("name", "prizes", "club", "city", "born_from", "born_to", "gender", "newcomer")
    return [[form[f"cat_{n}_{k}"] for k in keys] for n in range(1, CATEGORY_SLOTS + 1)]


def prize_value(data: dict) -> dict:
    """The setup the form says, in the stored shape; a slot without a name is left out."""
    categories = []
    for n in range(1, CATEGORY_SLOTS + 1):
        name = (data.get(f"cat_{n}_name") or "").strip()
        prizes = _lines(data.get(f"cat_{n}_prizes") or "")
        if not name and not prizes:
            continue
        rule = Rule(
            club=data.get(f"cat_{n}_club"),
            city=(data.get(f"cat_{n}_city") or "").strip(),
            born_from=data.get(f"cat_{n}_born_from"),
            born_to=data.get(f"cat_{n}_born_to"),
            gender=data.get(f"cat_{n}_gender") or "",
            newcomer=bool(data.get(f"cat_{n}_newcomer")),
        )
        categories.append(Category(name=name, rule=rule, prizes=tuple(prizes)))
    options = Options(
        withdrawn=Withdrawn(data.get("prize_withdrawn") or Withdrawn.PASS_DOWN.value),
        one_prize=bool(data.get("prize_one")),
        split_money=bool(data.get("prize_split")),
    )
    setup = PrizeSetup(
        places=tuple(_lines(data.get("prizes") or "")), categories=tuple(categories), options=options
    )
    return setup_to_json(setup)


def prize_initial(stored: object) -> dict:
    """The form's initial values from the stored prizes (either shape)."""
    setup = setup_from_json(stored)
    initial: dict = {
        "prizes": "\n".join(line_of_prize(p) for p in setup.places),
        "prize_withdrawn": setup.options.withdrawn.value,
        "prize_one": setup.options.one_prize,
        "prize_split": setup.options.split_money,
    }
    for n, c in enumerate(setup.categories[:CATEGORY_SLOTS], start=1):
        initial.update({
            f"cat_{n}_name": c.name, f"cat_{n}_prizes": "\n".join(line_of_prize(p) for p in c.prizes),
            f"cat_{n}_club": c.rule.club, f"cat_{n}_city": c.rule.city,
            f"cat_{n}_born_from": c.rule.born_from, f"cat_{n}_born_to": c.rule.born_to,
            f"cat_{n}_gender": c.rule.gender, f"cat_{n}_newcomer": c.rule.newcomer,
        })  # fmt: skip
    return initial


class PlayerDetailsForm(forms.Form):
    """The event's players' details, three fields a player (``y_<id>``, ``g_<id>``, ``c_<id>``)."""

    def __init__(self, *args, rows=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.rows = list(rows)
        gender_choices = [("", "—"), *Gender.choices]
        for row in self.rows:
            pk = row.player.pk
            self.fields[f"y_{pk}"] = forms.IntegerField(
                label=_("Year of birth"),
                required=False,
                min_value=1900,
                max_value=2100,
                initial=row.birth_year,
                widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
            )
            self.fields[f"g_{pk}"] = forms.ChoiceField(
                label=_("Woman or man"), required=False, choices=gender_choices, initial=row.gender
            )
            self.fields[f"c_{pk}"] = forms.CharField(
                label=_("City or village"), required=False, max_length=120, initial=row.city
            )

    def players(self):
        """Each row with its three bound fields, for the template."""
        return [(row, [self[f"{k}_{row.player.pk}"] for k in "ygc"]) for row in self.rows]

    def details(self) -> dict:
        data = self.cleaned_data
        return {
            row.player.pk: (
                data.get(f"y_{row.player.pk}"),
                data.get(f"g_{row.player.pk}") or "",
                (data.get(f"c_{row.player.pk}") or "").strip(),
            )
            for row in self.rows
        }
