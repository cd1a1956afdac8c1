"""Forms for the club pages. They only validate input; the services make the changes."""

from django import forms
from django.utils.translation import gettext_lazy as _

from .models import ApiToken, Club, Player, Role, TokenScope
from .text_fields import PasteFormField


class BilkaForm(forms.Form):
    """Labels without a trailing colon, like the sign-in pages."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)


def model_field(model, name: str, **kwargs) -> forms.Field:
    """The form field of a model's field: its tidying and its limit are the model's own."""
    return model._meta.get_field(name).formfield(**kwargs)


class ClubForm(BilkaForm):
    name = model_field(Club, "name", label=_("Club name"))
    city = model_field(Club, "city", label=_("City or village"))
    description = model_field(
        Club,
        "description",
        label=_("About the club"),
        widget=forms.Textarea(attrs={"rows": 5}),
        help_text=_("Where and when you play, who to call."),
    )


class PlayerForm(BilkaForm):
    display_name = model_field(Player, "display_name", label=_("Name"))
    city = model_field(Player, "city", label=_("City or village"))


class BulkPlayersForm(BilkaForm):
    text = PasteFormField(
        max_length=30000,
        label=_("Players, one per line"),
        widget=forms.Textarea(
            attrs={
                "rows": 10,
                "placeholder": _("Нұрлан Ахметов, Успенка\nАсель Жумабаева\nОлег Ткаченко, Павлодар"),
            }
        ),
        help_text=_(
            "One name per line; add a comma and the village if you like. "
            "Players already on the roster are not added twice."
        ),
    )


class RoleForm(BilkaForm):
    role = forms.ChoiceField(label=_("Role"), choices=Role.choices)


class AddMemberForm(BilkaForm):
    """Whom to invite. The form looks nobody up: the answer is the same whether an account has this
    name or address or not (``services.invite_member``)."""

    who = forms.CharField(label=_("Username or email"), max_length=254)
    role = forms.ChoiceField(label=_("Role"), choices=Role.choices, initial=Role.MEMBER)


class InPersonForm(BilkaForm):
    role = forms.ChoiceField(label=_("Role"), choices=Role.choices, initial=Role.MEMBER)


class AnswerForm(BilkaForm):
    answer = forms.ChoiceField(choices=[("accept", _("Accept")), ("decline", _("Decline"))])


class MergeForm(BilkaForm):
    source = forms.ModelChoiceField(
        label=_("This record…"),
        queryset=Player.objects.none(),
        help_text=_("will be folded into the other one and disappear from lists."),
    )
    target = forms.ModelChoiceField(
        label=_("…is the same person as"),
        queryset=Player.objects.none(),
        help_text=_("This record stays; its roster rows and results gain the other's."),
    )

    def __init__(self, *args, players=(), **kwargs):
        super().__init__(*args, **kwargs)
        ids = [p.pk for p in players]
        for name in ("source", "target"):
            self.fields[name].queryset = Player.objects.filter(pk__in=ids, merged_into__isnull=True)

    def clean(self):
        data = super().clean()
        if data.get("source") and data.get("source") == data.get("target"):
            raise forms.ValidationError(_("Choose two different players."))
        return data


class SearchForm(BilkaForm):
    q = forms.CharField(label=_("Name or village"), required=False, max_length=100)


class ApiTokenForm(BilkaForm):
    """A new API key: a name to recognise it by, what it may do, and for a write key its clubs."""

    name = model_field(ApiToken, "name", label=_("Key name"), help_text=_("For example: the results laptop."))
    scope = forms.ChoiceField(label=_("The key may"), choices=TokenScope.choices, initial=TokenScope.READ)
    clubs = forms.ModelMultipleChoiceField(
        label=_("Clubs it may enter results for"),
        queryset=Club.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args, clubs=None, **kwargs):
        super().__init__(*args, **kwargs)
        if clubs is not None:
            self.fields["clubs"].queryset = clubs
