"""``{% form_key %}``: a form's fresh key, so that a copy sent again is done once (``clubs.form_keys``)."""

from django import template
from django.utils.html import format_html

from ..form_keys import FIELD, new_key

register = template.Library()


@register.simple_tag
def form_key():
    return format_html('<input type="hidden" name="{}" value="{}">', FIELD, new_key())
