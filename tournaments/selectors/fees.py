"""The entry fees as the organiser's desk reads them: who has not paid, what was taken and how.

Only the event's organisers see these (the dashboard and their entries export); the public
selectors never read the payment fields.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..models import ACTIVE_STATUSES, Paid, Tournament, money_text


@dataclass
class FeeTotals:
    """The desk's sums: what was taken in cash and by transfer, how many were waived, what the
    entries in the event owe in all, and those in it who have not paid."""

    currency: str
    fee: int
    cash: int = 0
    transfer: int = 0
    waived: int = 0
    expected: int = 0
    unpaid: list = field(default_factory=list)

    @property
    def taken(self) -> int:
        return self.cash + self.transfer

    def money(self, amount: int) -> str:
        return money_text(amount, self.currency)

    @property
    def cash_text(self) -> str:
        return self.money(self.cash)

    @property
    def transfer_text(self) -> str:
        return self.money(self.transfer)

    @property
    def taken_text(self) -> str:
        return self.money(self.taken)

    @property
    def expected_text(self) -> str:
        return self.money(self.expected)


def entries_with_payment(*, tournament: Tournament):
    """The event's pairs (or, in an individual event, its players) with what they paid, in the
    entries page's order."""
    if tournament.is_individual:
        rows = tournament.individual_entries.select_related("player", "paid_to")
    else:
        rows = tournament.entries.select_related("player_a", "player_b", "paid_to")
    return rows.order_by("seed", "id")


def fee_totals(*, tournament: Tournament) -> FeeTotals | None:
    """The desk's sums, or None when the event asks no fee and nobody has paid anything."""
    rows = list(entries_with_payment(tournament=tournament))
    if not tournament.entry_fee and not any(r.paid != Paid.UNPAID for r in rows):
        return None
    totals = FeeTotals(currency=tournament.fee_currency, fee=tournament.entry_fee or 0)
    for row in rows:
        if row.paid == Paid.CASH:
            totals.cash += row.paid_amount or 0
        elif row.paid == Paid.TRANSFER:
            totals.transfer += row.paid_amount or 0
        elif row.paid == Paid.WAIVED:
            totals.waived += 1
        if row.status in ACTIVE_STATUSES:
            if row.paid != Paid.WAIVED:
                totals.expected += totals.fee
            if row.paid == Paid.UNPAID:
                totals.unpaid.append(row)
    return totals
