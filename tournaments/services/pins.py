"""PINs that confirm a result: each side of a match has its own; wrong ones slow down their sender.

A side's PIN is printed on its own half of the score sheet. A result reported by one side is
confirmed (or disputed) with the other side's PIN, so a side that holds only its own half cannot
confirm itself. Wrong PINs are counted in the cache (Redis) per browser session and, with a much
higher allowance, per client address; the counters expire, and the match is never locked for the
players who do know the PIN.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from ..models import Match, MatchStatus

PIN_WINDOW_SECONDS = 15 * 60
"""How long wrong PINs are remembered: a sender over its allowance waits this long at most."""
PIN_SESSION_ALLOWANCE = 5
"""Wrong PINs one browser session may send in a window before it is slowed down."""
PIN_ADDRESS_ALLOWANCE = 60
"""Wrong PINs one client address may send in a window: much higher, since a whole venue (its
players' phones on the club's wifi) may reach the site from one address."""


@dataclass(frozen=True)
class PinSender:
    """Who typed a PIN, as the counters of wrong PINs know him: his browser session and address."""

    session: str
    address: str

    def keys(self) -> list[tuple[str, int]]:
        keys = [(f"pin-wrong:session:{self.session}", PIN_SESSION_ALLOWANCE)] if self.session else []
        if self.address:
            keys.append((f"pin-wrong:address:{self.address}", PIN_ADDRESS_ALLOWANCE))
        return keys


class WrongPin(ValidationError):
    """A wrong PIN (already counted against its sender by ``note_wrong_pin``)."""


def pin_slowed(sender: PinSender | None) -> bool:
    """Whether the sender has used up an allowance of wrong PINs in the current window."""
    if sender is None:
        return False
    counts = cache.get_many([key for key, _allowance in sender.keys()])
    return any(counts.get(key, 0) >= allowance for key, allowance in sender.keys())


def note_wrong_pin(*, sender: PinSender | None) -> None:
    """Count a wrong PIN against its session and its address (Redis counters that expire; a
    refused confirmation rolls back the database, not them). The match itself is never locked:
    a guesser slows only himself, and the players at the table can still confirm."""
    if sender is None:
        return
    for key, _allowance in sender.keys():
        cache.add(key, 0, timeout=PIN_WINDOW_SECONDS)
        try:
            cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.set(key, 1, timeout=PIN_WINDOW_SECONDS)


def check_pin(match: Match, pin: str | None, sender: PinSender | None) -> None:
    """Pass when ``pin`` is the PIN of the side that did not report; else say what is wrong."""
    pin = (pin or "").strip()
    if not pin:
        raise ValidationError(_("Write the PIN printed on your half of the score sheet."))
    if pin_slowed(sender):
        raise ValidationError(
            _(
                "Too many wrong PINs from this phone. Wait %(minutes)d minutes and try again,"
                " or ask the organiser to confirm the result."
            )
            % {"minutes": PIN_WINDOW_SECONDS // 60}
        )
    other = {"home": "away", "away": "home"}.get(match.reported_side)
    if other is None:
        if match.status == MatchStatus.CONFIRMED:
            raise ValidationError(_("This result is already confirmed."))
        if match.has_result:  # not reported by a side: no side's PIN answers for it
            raise ValidationError(_("The organiser confirms this result."))
        raise ValidationError(_("No result has been entered yet."))
    if secrets.compare_digest(pin.encode(), match.pin_of(other).encode()):
        return
    note_wrong_pin(sender=sender)
    if secrets.compare_digest(pin.encode(), match.pin_of(match.reported_side).encode()):
        raise WrongPin(
            _(
                "This is the PIN of the pair that reported the result. The other pair confirms it"
                " with the PIN on its own half of the score sheet."
            )
        )
    raise WrongPin(_("Wrong PIN. Each pair's PIN is printed on its own half of the score sheet."))
