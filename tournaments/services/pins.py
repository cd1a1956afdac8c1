"""PINs that confirm a result: each side of a match has its own; wrong ones slow down their sender.

A side's PIN is printed on its own half of the score sheet. A result reported by one side is
confirmed (or disputed) with the other side's PIN, so a side that holds only its own half cannot
confirm itself. Wrong PINs are counted in the cache (Redis) per browser session first; then, with
an allowance a whole hall of phones behind one address never reaches, per client address
(``clubs.addresses``); and per match from one address, so that making a new session for every
guess does not let one address try the ten thousand PINs of one match. The counters last a
minute from the first wrong PIN: nobody waits longer than that, and the match is never locked for
the players who do know the PIN.

A table device (one phone or tablet on a hall's table, opened with the table's code) counts its
wrong PINs per device instead of per session and address: thirty such devices behind the hall's one
address never slow each other, and the per-match allowance from that address still holds.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.core.cache import cache
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils.translation import gettext as _

from ..models import Match, MatchStatus
from ..permissions import side_of

PIN_WINDOW_SECONDS = 60
"""How long wrong PINs are remembered: a sender over an allowance waits this long at most."""
PIN_SESSION_ALLOWANCE = 5
"""Wrong PINs one browser session may send in a window before it is slowed down."""
PIN_ADDRESS_ALLOWANCE = 200
"""Wrong PINs one client address may send in a window: a hall of 200 phones on the club's wifi
(one address) may each mistype once in the same minute."""
PIN_MATCH_ADDRESS_ALLOWANCE = 10
"""Wrong PINs for one match from one address in a window: its four players mistyping, not a
guesser trying every PIN (a minute's ten guesses of 10,000)."""
PIN_DEVICE_ALLOWANCE = 10
"""Wrong PINs one table device may send in a window: both pairs at its table mistyping a few times."""


@dataclass(frozen=True)
class PinSender:
    """Who typed a PIN, as the counters of wrong PINs know him: his browser session and address, or
    the table device (``"<tournament>:<table>"``) he typed it on."""

    session: str
    address: str
    device: str = ""

    def keys(self, match_id: int | None = None) -> list[tuple[str, int]]:
        if self.device:  # the table's own device: its own allowance, not the address's (one per hall)
            keys = [(f"pin-wrong:device:{self.device}", PIN_DEVICE_ALLOWANCE)]
            if self.address and match_id is not None:
                keys.append((f"pin-wrong:match:{match_id}:{self.address}", PIN_MATCH_ADDRESS_ALLOWANCE))
            return keys
        keys = [(f"pin-wrong:session:{self.session}", PIN_SESSION_ALLOWANCE)] if self.session else []
        if self.address:
            keys.append((f"pin-wrong:address:{self.address}", PIN_ADDRESS_ALLOWANCE))
            if match_id is not None:
                keys.append((f"pin-wrong:match:{match_id}:{self.address}", PIN_MATCH_ADDRESS_ALLOWANCE))
        return keys


class WrongPin(ValidationError):
    """A wrong PIN (already counted against its sender by ``note_wrong_pin``)."""


def pin_slowed(sender: PinSender | None, match_id: int | None = None) -> bool:
    """Whether the sender has used up an allowance of wrong PINs in the current window."""
    if sender is None:
        return False
    keys = sender.keys(match_id)
    counts = cache.get_many([key for key, _allowance in keys])
    return any(counts.get(key, 0) >= allowance for key, allowance in keys)


def note_wrong_pin(*, sender: PinSender | None, match_id: int | None = None) -> None:
    """Count a wrong PIN against its session, its address and the match from that address (Redis
    counters that expire; a refused confirmation rolls back the database, not them). The match
    itself is never locked: a guesser slows only himself, and the players at the table can still
    confirm."""
    if sender is None:
        return
    for key, _allowance in sender.keys(match_id):
        cache.add(key, 0, timeout=PIN_WINDOW_SECONDS)
        try:
            cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.set(key, 1, timeout=PIN_WINDOW_SECONDS)


def _asked(match: Match, pin: str | None, sender: PinSender | None) -> str:
    """The PIN as typed, once it is there and its sender is not slowed down."""
    pin = (pin or "").strip()
    if not pin:
        raise ValidationError(_("Write the PIN printed on your half of the score sheet."))
    if pin_slowed(sender, match.pk):
        raise ValidationError(
            _(
                "Too many wrong PINs from this phone. Wait a minute and try again,"
                " or ask the organiser to confirm the result."
            )
        )
    return pin


def side_of_pin(match: Match, pin: str | None, sender: PinSender | None) -> str:
    """The side ("home" or "away") whose PIN ``pin`` is, for someone reporting the result without
    playing in the match on the site; a wrong PIN is counted against its sender and refused."""
    pin = _asked(match, pin, sender)
    for side in ("home", "away"):
        if secrets.compare_digest(pin.encode(), match.pin_of(side).encode()):
            return side
    note_wrong_pin(sender=sender, match_id=match.pk)
    raise WrongPin(_("Wrong PIN. Each pair's PIN is printed on its own half of the score sheet."))


def check_pin(match: Match, pin: str | None, sender: PinSender | None) -> None:
    """Pass when ``pin`` is the PIN of the side that did not report; else say what is wrong."""
    pin = _asked(match, pin, sender)
    other = {"home": "away", "away": "home"}.get(match.reported_side)
    if other is None:
        if match.status == MatchStatus.CONFIRMED:
            raise ValidationError(_("This result is already confirmed."))
        if match.has_result:  # not reported by a side: no side's PIN answers for it
            raise ValidationError(_("The organiser confirms this result."))
        raise ValidationError(_("No result has been entered yet."))
    if secrets.compare_digest(pin.encode(), match.pin_of(other).encode()):
        return
    note_wrong_pin(sender=sender, match_id=match.pk)
    if secrets.compare_digest(pin.encode(), match.pin_of(match.reported_side).encode()):
        raise WrongPin(
            _(
                "This is the PIN of the pair that reported the result. The other pair confirms it"
                " with the PIN on its own half of the score sheet."
            )
        )
    raise WrongPin(_("Wrong PIN. Each pair's PIN is printed on its own half of the score sheet."))


def reporting_side(
    actor, match: Match, *, organiser: bool, pin: str | None, sender: PinSender | None
) -> tuple[str | None, str]:
    """Which side reports, and how: a player's own side ("player"), the organiser's (None,
    "organiser"), or the side whose PIN was typed by someone without a seat in the match on the site
    ("pin": a player without an account, or the table's device). A stranger signed in who sends no
    PIN field at all (the API) is refused as before; one who sends it empty, like a visitor, is asked
    to write it."""
    signed_in = actor is not None and actor.is_authenticated
    side = side_of(actor, match) if signed_in else None
    if side is not None:
        return side, "player"
    if organiser:
        return None, "organiser"
    if signed_in and pin is None:
        raise PermissionDenied(_("You do not play in this match, so you cannot enter its result."))
    return side_of_pin(match, pin, sender), "pin"
