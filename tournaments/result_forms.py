"""The result forms of a match page: the final eyes, the deal-by-deal sheet, the PIN, a dispute.

They only read what was posted, with a clear message for what they cannot read; whether a score
may be (0 to 12, one pair at 12, a sheet that adds up) is the result service's check, so every
result form says the same as the organiser's dashboard.
"""

from __future__ import annotations

import re

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from clubs.forms import BilkaForm, model_field
from gameplay.engine.games import BILKA
from gameplay.engine.kozyol_rules import GAME as KOZYOL

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


DEAL_ROWS = 24
"""Rows the deal-by-deal form shows (and the printed score sheet has): eggs, redeals and a Lucy
reset make long matches."""
DEAL_ROWS_MAX = 60
"""Rows the form takes at most: a button adds rows beyond ``DEAL_ROWS``, and without JavaScript
each preview brings a few empty ones below the last filled."""
DEAL_ROWS_SPARE = 4
"""Empty rows shown below the last filled one once the sheet is that long."""
_DEAL_FIELD = re.compile(r"^deal-(\d+)-(home|away|jack|all)$")


def filled_deal_rows(post) -> list[int]:
    """The numbers of the rows sent with something in them, up to the most the form takes."""
    numbers = set()
    for key, value in post.items():
        match = _DEAL_FIELD.match(key)
        if match and str(value).strip():
            numbers.add(int(match.group(1)))
    return sorted(numbers)


def deal_row_count(filled) -> int:
    """How many rows the form shows: ``DEAL_ROWS``, or a few more than the last filled one."""
    last = max(filled, default=0)
    return min(DEAL_ROWS_MAX, max(DEAL_ROWS, last + DEAL_ROWS_SPARE if last >= DEAL_ROWS else 0))


def parse_deals(post, game: str = BILKA) -> list[dict]:
    """The deal-by-deal sheet from the form's rows: home points, away points, jack of clubs, every trick.

    Pairs are "1" (home) and "2" (away) in the form, as printed on the paper sheet. In Kozyol
    (`game`) nobody is on duty: the third column is the pair whose шамок caught the queen of clubs,
    if one did (the deal stopped; its points do not count and may be left empty).

    Blank rows are skipped; a half-filled row is an error naming the deal; a row past
    ``DEAL_ROWS_MAX`` is refused.
    """
    if any(n > DEAL_ROWS_MAX for n in filled_deal_rows(post)):
        raise ValidationError(
            _("A score sheet has at most %(n)d deals: enter the final score instead.")
            % {"n": DEAL_ROWS_MAX}
        )
    deals, errors = [], []
    for i in range(1, DEAL_ROWS_MAX + 1):
        home, away = (post.get(f"deal-{i}-home") or "").strip(), (post.get(f"deal-{i}-away") or "").strip()
        jack, every = post.get(f"deal-{i}-jack") or "", post.get(f"deal-{i}-all") or ""
        if game == KOZYOL:
            if not home and not away and not jack:
                continue
            deal = _kozyol_deal(i, home, away, jack, every, errors)
            if deal is not None:
                deals.append(deal)
            continue
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


def _kozyol_deal(i: int, home: str, away: str, catch: str, every: str, errors: list) -> dict | None:
    """A Kozyol row: `catch` "1"/"2" (the deal stopped, its points not counted) or empty."""
    if catch not in ("", "1", "2"):
        errors.append(_("Deal %(n)d: say which pair made the catch (1 or 2), or leave it empty.")
                      % {"n": i})
        return None
    if every not in ("", "1", "2"):
        errors.append(_("Deal %(n)d: say which pair took every trick (1 or 2), or leave it empty.")
                      % {"n": i})
        return None
    if catch:
        return {"points": (0, 0), "catch": int(catch) - 1, "all_tricks": int(every) - 1 if every else None}
    try:
        home_points = int(home) if home else 120 - int(away)
        away_points = int(away) if away else 120 - int(home)
    except ValueError:
        errors.append(_("Deal %(n)d: points are whole numbers.") % {"n": i})
        return None
    return {"points": (home_points, away_points), "catch": None,
            "all_tricks": int(every) - 1 if every else None}


DEAL_PARTS = ("home", "away", "jack", "all")


def posted_deal_rows(values) -> list[dict]:
    """The sheet's rows as a posted (or kept) form left them, with as many rows as it needs."""
    return [
        {"n": i, **{part: values.get(f"deal-{i}-{part}", "") for part in DEAL_PARTS}}
        for i in range(1, deal_row_count(filled_deal_rows(values)) + 1)
    ]


def stored_deal_rows(match: Match) -> list[dict]:
    """The sheet's rows filled from the deals stored for the match, with as many rows as it needs."""
    stored = {d.number: d for d in match.deals.all()}
    rows = []
    for i in range(1, deal_row_count(stored) + 1):
        d = stored.get(i)
        rows.append(
            {
                "n": i,
                "home": d.home_points if d and d.outcome != "catch" else "",
                "away": d.away_points if d and d.outcome != "catch" else "",
                "jack": _third_column(d),
                "all": "" if not d or d.all_tricks is None else str(d.all_tricks + 1),
            }
        )
    return rows


def _third_column(d) -> str:
    """The pair in a stored line's third column: the jack of clubs' holder (Bilka), or the pair
    that made the catch (Kozyol: nobody holds a duty, so its lines keep no holder)."""
    if d is None:
        return ""
    if d.jack_holder is not None:
        return str(d.jack_holder + 1)
    if d.outcome == "catch":
        return "1" if d.home_eyes > d.away_eyes else "2"
    return ""
