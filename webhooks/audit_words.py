"""Words for the audit codes the webhooks write into a club's log, in the reader's language."""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from clubs import audit_labels

from .models import EventType

ACTIONS = {
    "webhook.create": gettext_lazy("Webhook added"),
    "webhook.disable": gettext_lazy("Webhook turned off"),
    "webhook.enable": gettext_lazy("Webhook turned on"),
    "webhook.delete": gettext_lazy("Webhook deleted"),
}
KINDS = {"webhook": gettext_lazy("Webhooks")}
FIELDS = {
    "url": gettext_lazy("address"),
    "host": gettext_lazy("host"),
    "events": gettext_lazy("events"),
}


def register() -> None:
    audit_labels.register(actions=ACTIONS, kinds=KINDS, fields=FIELDS,
                          values={"events": dict(EventType.choices)})
