"""Account signals: a new account gets its own player profile; signing out closes the session's sockets."""

from allauth.account.signals import user_signed_up
from django.contrib.auth.signals import user_logged_out
from django.db import transaction
from django.dispatch import receiver

from . import services, session_sockets


@receiver(user_signed_up, dispatch_uid="clubs.player_on_signup")
def create_player_on_signup(sender, request, user, **kwargs) -> None:
    services.ensure_player_for_user(user=user)


@receiver(user_logged_out, dispatch_uid="clubs.close_sockets_on_signout")
def close_sockets_on_signout(sender, request, user, **kwargs) -> None:
    """Sent before the session is flushed, so its key still names the sockets to close."""
    session = getattr(request, "session", None)
    key = session.session_key if session is not None else None
    if key:
        transaction.on_commit(lambda: session_sockets.close_session_sockets(key))
