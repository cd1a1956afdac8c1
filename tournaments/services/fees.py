"""Entry fees taken at the desk: how each pair (or player) paid, how much, who took it and when.

No money moves through the site: the organiser writes down what he took, at check-in or later,
and corrects it when he wrote it wrong; each change is an audit row. What an entry paid is the
organisers' business only (``selectors.fees`` reads it for them; no public page, export or API
read shows it).
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..models import IndividualEntry, Paid
from .common import audit, lock_entry, require_manager

MAX_AMOUNT = 10_000_000
"""The most one entry is written down as having paid (the settings' largest fee)."""


def payment_state(entry) -> dict:
    return {"paid": entry.paid, "paid_amount": entry.paid_amount}


def write_payment(actor, entry, tournament, *, paid: str, amount: int | None = None) -> bool:
    """Write how ``entry`` (locked by the caller, with its tournament) paid, with its audit row;
    False when it was written so already. Cash and transfer take the event's fee unless another
    amount is given; waived and not paid take none."""
    require_manager(actor, tournament)
    if paid not in Paid.values:
        raise ValidationError(_("Choose how the fee was paid: cash, transfer, waived or not paid."))
    if paid != Paid.UNPAID and not tournament.entry_fee:
        raise ValidationError(_("This event asks no entry fee; set one in its settings first."))
    if paid in (Paid.CASH, Paid.TRANSFER):
        amount = tournament.entry_fee if amount is None else amount
        if not 0 < amount <= MAX_AMOUNT:
            raise ValidationError(
                _("The amount taken is a whole number from 1 to %(most)d.") % {"most": MAX_AMOUNT}
            )
    else:
        amount = None
    if entry.paid == paid and entry.paid_amount == amount:
        return False
    before = payment_state(entry)
    entry.paid, entry.paid_amount = paid, amount
    taken = paid != Paid.UNPAID
    entry.paid_to = actor if taken else None
    entry.paid_at = timezone.now() if taken else None
    entry.save(update_fields=["paid", "paid_amount", "paid_to", "paid_at"])
    action = "individual.payment" if isinstance(entry, IndividualEntry) else "entry.payment"
    after = payment_state(entry)
    audit(actor=actor, action=action, obj=entry, tournament=tournament, before=before, after=after)
    return True


@transaction.atomic
def record_payment(*, actor, entry, paid: str, amount: int | None = None):
    """The organiser writes down an entry's fee (a pair's or, in an individual event, a player's),
    or corrects what he wrote: at any time, whatever the entry's status, since money is taken
    and given back after check-in too."""
    entry, tournament = lock_entry(entry)
    write_payment(actor, entry, tournament, paid=paid, amount=amount)
    return entry
