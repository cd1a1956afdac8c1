"""The result forms of a match page: the final eyes, the deal-by-deal sheet, the PIN, a dispute.

They only read what was posted, with a clear message for what they cannot read; whether a score
may be (0 to 12, one pair at 12, a sheet that adds up) is the result service's check, so every
result form says the same as the organiser's dashboard.
"""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from clubs.forms import BilkaForm, model_field

from .models import Match

WHOLE_SCORES = _("Please give both scores as whole numbers.")


class FinalScoreForm(BilkaForm):
    """The final eyes of a match. The form only reads two whole numbers (the dashboard's words when
    it cannot); what a score may be (0 to 12, one pair at 12) is the result service's check, so a
    13 or a -1 posted past the browser's checks gets the same message on every result form."""

    home_eyes = forms.CharField(label=_("Eyes"), required=False)
    away_eyes = forms.CharField(label=_("Eyes"), required=False)

    def clean(self) -> dict:
        data = super().clean()
        try:
            data["home_eyes"] = int((data.get("home_eyes") or "").strip())
            data["away_eyes"] = int((data.get("away_eyes") or "").strip())
        except ValueError:
            raise ValidationError(WHOLE_SCORES) from None
        return data

    def problems(self) -> ValidationError:
        """The form's errors as one refusal, for the page's messages."""
        return ValidationError([text for errors in self.errors.values() for text in errors])


PIN_LABEL = _("Your pair's PIN (on your half of the score sheet)")


class PinForm(BilkaForm):
    pin = forms.CharField(label=PIN_LABEL, max_length=8, required=False)


class DisputeForm(BilkaForm):
    note = model_field(
        Match, "dispute_note", label=_("What is wrong?"), required=False, widget=forms.TextInput
    )
    pin = forms.CharField(label=PIN_LABEL, max_length=8, required=False)


DEAL_ROWS = 16


def parse_deals(post) -> list[dict]:
    """The deal-by-deal sheet from the form's rows: home points, away points, jack of clubs, every trick.

    Pairs are "1" (home) and "2" (away) in the form, as printed on the paper sheet.

    Blank rows are skipped; a half-filled row is an error naming the deal.
    """
    deals, errors = [], []
    for i in range(1, DEAL_ROWS + 1):
        home, away = (post.get(f"deal-{i}-home") or "").strip(), (post.get(f"deal-{i}-away") or "").strip()
        jack, every = post.get(f"deal-{i}-jack") or "", post.get(f"deal-{i}-all") or ""
        if not home and not away:
            continue
        try:
            home_points = int(home) if home else 120 - int(away)
            away_points = int(away) if away else 120 - int(home)
        except ValueError:
            errors.append(_("Deal %(n)d: points are whole numbers.") % {"n": i})
            continue
        if jack not in ("1", "2"):
            errors.append(_("Deal %(n)d: say which pair held the jack of clubs.") % {"n": i})
            continue
        if every not in ("", "1", "2"):
            errors.append(
                _("Deal %(n)d: say which pair took every trick (1 or 2), or leave it empty.") % {"n": i}
            )
            continue
        deals.append(
            {
                "points": (home_points, away_points),
                "jack_holder": int(jack) - 1,  # the sheet says pair 1 and 2; the core counts 0 and 1
                "all_tricks": int(every) - 1 if every in ("1", "2") else None,
            }
        )
    if errors:
        raise ValidationError(errors)
    if not deals:
        raise ValidationError(_("Write at least one deal."))
    return deals
