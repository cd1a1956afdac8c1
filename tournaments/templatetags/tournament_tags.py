"""Template tags other apps' pages use to show tournaments (the club page's events, the home page)."""

from functools import lru_cache
from typing import Any

from django import template
from django.template.defaultfilters import floatformat
from django.urls import get_script_prefix, reverse
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments import permissions, selectors
from tournaments.models import money_text
from tournaments.services.live import refusal_text

register = template.Library()


@register.simple_tag
def club_events(club, limit: int = 5):
    """{"upcoming": [...], "recent": [...]} for the club page."""
    return selectors.club_events(club=club, limit=limit)


@register.simple_tag
def may_create_event(user, club) -> bool:
    """Whether the reader may create the club's tournaments (its owners and organisers): the club
    page then offers "New tournament" beside its events."""
    return permissions.can_create(user, club)


OUTCOMES = {
    "win": _("won"),
    "rout": _("won big"),
    "eggs": _("60:60, eggs"),
    "lucy": _("Lucy: every trick"),
    "catch": _("a catch: the six of clubs took the queen of clubs"),
}


@register.filter
def outcome_label(outcome: str) -> str:
    """A deal's outcome as the score sheet says it (RULES.md, "Scoring a deal")."""
    return str(OUTCOMES.get(outcome, outcome))


@register.filter
def live_refusal(refusal) -> str:
    """Why a live table's result was not taken (``Match.live_refusal``), in the reader's language."""
    return refusal_text(refusal)


@register.simple_tag
def home_tournaments(limit: int = 5):
    """{"live": [...], "open": [...]} for the site's home page: events under way, and those to enter."""
    return selectors.home_tournaments(limit=limit)


@register.filter
def surname(display_name: str) -> str:
    """The last word of a player's name, as a pair's short name shows it on a phone."""
    return (display_name or "").split()[-1] if (display_name or "").split() else ""


@lru_cache(maxsize=8)
def _archive_address(script_prefix: str) -> str:
    return reverse("archive:player", args=[0]).removesuffix("0/")


@register.filter
def archive_url(player_id: int) -> str:
    """A player's match archive, as ``{% url 'archive:player' id %}`` gives it: a big
    event's standings link each of its players twice, and reversing each address afresh took a
    fifth of the page's time (bench/web/load.py)."""
    return f"{_archive_address(get_script_prefix())}{int(player_id)}/"


@register.simple_tag
def standings_rows(lines, individual: bool = False):
    """The rows of a standings table (``_standings_table.html``), from (line, values, rating)
    triples, written here rather than by a template loop: a 256-pair Swiss's table took 40% of its
    page's time in the template engine, a page that is worked out again after every result while
    a thousand requests a second share the process with it (bench/web/load.py). The markup is the
    loop's it replaced, to the character (tests/tournaments/test_standings_rows.py)."""
    numbers: dict[tuple[Any, str], str] = {}

    def number(value, arg: str) -> str:
        key = (value, arg)
        if key not in numbers:
            numbers[key] = floatformat(value, arg)
        return numbers[key]

    substitute = escape(gettext("substitute"))
    provisional = escape(gettext("provisional"))
    out = []
    for line, values, rated in lines:
        entry = line.entry
        classes = ("withdrawn" if line.row.withdrawn else "") + (" prize" if line.prize else "")
        if individual:
            name = (f'<a href="{archive_url(entry.player_id)}">{escape(entry.player.display_name)}</a>')
            if entry.substitute_for_id:
                note = gettext("for %(name)s from round %(n)s") % {
                    "name": escape(entry.substitute_for.player.display_name), "n": entry.from_round}
                name += (f' <span class="badge badge-muted">{substitute}</span><br>'
                         f'<span class="small muted">{note}</span>')
        else:
            a, b = entry.player_a, entry.player_b
            a_url, b_url = archive_url(entry.player_a_id), archive_url(entry.player_b_id)
            name = (f'<span class="name-full"><a href="{a_url}">{escape(a.display_name)}</a> &amp; '
                    f'<a href="{b_url}">{escape(b.display_name)}</a></span>'
                    f'<span class="name-short"><a href="{a_url}">{escape(surname(a.display_name))}</a> / '
                    f'<a href="{b_url}">{escape(surname(b.display_name))}</a></span>')
        if line.prize:
            name += (f'<br><span class="small muted"><span class="trophy" aria-hidden="true">★</span> '
                     f'{escape(line.prize)}</span>')
        if rated:
            rating = number(rated.rating, "0")
            if rated.provisional:
                rating += f'<abbr class="provisional" title="{provisional}">?</abbr>'
        else:
            rating = '<span class="muted">—</span>'
        cells = "".join(
            f'<td class="num"><strong>{number(v, "-1")}</strong></td>' if i == 0
            else f'<td class="num">{number(v, "-1")}</td>'
            for i, v in enumerate(values))
        out.append(
            f'\n    <tr class="{classes}">\n'
            f'      <td class="place">{escape(line.place_label)}</td>\n'
            f'      <td class="pair-cell">{name}</td>\n'
            f'      <td class="num rating-cell">{rating}</td>\n'
            f'      {cells}\n'
            f'    </tr>\n  ')
    return mark_safe("".join(out))  # noqa: S308 - every value above is escaped


@register.inclusion_tag("tournaments/_clock.html")
def round_clock(rnd, named: bool = True):
    """A round's clock ("ends at 14:30", counted down by clock.js); nothing without a round length."""
    from tournaments.selectors import hall

    return {"clock": hall.round_clock(rnd) if rnd is not None else None,
            "number": rnd.number if named and rnd is not None else None}


@register.filter
def money(amount, currency: str) -> str:
    """A whole amount with its currency's sign ("2 000 ₸"), as the entry fee is written."""
    return money_text(amount, currency) if amount is not None else ""
