"""`{% phone_push_key as key %}`: the site's Web Push public key for the phone's subscription, or ""
when Web Push is off (no key configured): the page then offers no "Notify me on this phone"."""

from __future__ import annotations

from django import template

from config.webpush import vapid_keys

register = template.Library()


@register.simple_tag
def phone_push_key() -> str:
    keys = vapid_keys()
    return keys.public_key if keys else ""
