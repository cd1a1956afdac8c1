"""Template context for every page: the signed-in user's unread notices, for the menu's link."""

from __future__ import annotations

from .models import Notification


def unread_notifications(request) -> dict:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}

    def count() -> int:
        return Notification.objects.filter(user=user, read_at__isnull=True).count()

    return {"unread_notifications": count}  # a callable: the template calls it, one query, where shown
