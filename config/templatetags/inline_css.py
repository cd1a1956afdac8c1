"""``{% stylesheets "tournament" %}``: a set of the site's stylesheets in the page (``config.inline_css``),
or linked when DEBUG is on."""

from django import template
from django.conf import settings
from django.templatetags.static import static
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from config import inline_css

register = template.Library()


@register.simple_tag
def stylesheets(name: str):
    if settings.DEBUG:
        return format_html_join(
            "", '<link rel="stylesheet" href="{}">', ((static(path),) for path in inline_css.SETS[name])
        )
    return format_html("<style>{}</style>", mark_safe(inline_css.text(name)))  # noqa: S308 - our own files
