"""Give every new account its own player profile the moment it signs up."""

from allauth.account.signals import user_signed_up
from django.dispatch import receiver

from . import services


@receiver(user_signed_up, dispatch_uid="clubs.player_on_signup")
def create_player_on_signup(sender, request, user, **kwargs) -> None:
    services.ensure_player_for_user(user=user)
