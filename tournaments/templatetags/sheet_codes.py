"""QR codes for the printed sheets, drawn by the server as SVG (segno): crisp at any print size.

A score sheet's half carries a code that opens the match's page with that half's PIN in the
address's fragment (``#pin=…``): a browser never sends the fragment, so the PIN reaches no server
log, and the page's script (``static/tournaments/pin_from_link.js``) puts it in the PIN box and
takes it out of the address. A half's code carries its own PIN only.
"""

from __future__ import annotations

import segno
from django import template
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


def pin_link(match_url: str, pin: str) -> str:
    """The match's absolute address with ``pin`` in the fragment, never in the query."""
    return f"{match_url.split('#', 1)[0]}#pin={pin}"


def qr_svg(link: str, *, label: str = "") -> SafeString:
    """``link`` as an inline SVG QR code the page sizes (no picture file, no outside service)."""
    code = segno.make(link, error="m")
    svg = code.svg_inline(scale=1, border=2, omitsize=True, svgclass="qr-code", title=label or None)
    return mark_safe(svg)  # noqa: S308 - segno's own SVG; the title is escaped by segno


@register.simple_tag(takes_context=True)
def half_code(context, match, pin: str) -> SafeString:
    """The QR code of one half of ``match``'s score sheet: the match page with that half's PIN."""
    link = pin_link(context["request"].build_absolute_uri(match.get_absolute_url()), pin)
    return qr_svg(link)


@register.simple_tag(takes_context=True)
def page_code(context, url: str) -> SafeString:
    """A QR code of one of the site's pages (the pairing print-out's tournament page)."""
    return qr_svg(context["request"].build_absolute_uri(url))
