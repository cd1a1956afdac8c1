"""allauth's account adapter: allauth's own limits count the client's address as the site reads it."""

from allauth.account.adapter import DefaultAccountAdapter
from django.core.exceptions import PermissionDenied

from clubs.addresses import client_address


class AccountAdapter(DefaultAccountAdapter):
    def get_client_ip(self, request) -> str:
        """The client's address (``clubs.addresses``), not allauth's own reading of
        X-Forwarded-For: the sign-in limits of allauth and of django-axes agree on who is who."""
        address = client_address(request)
        if not address:
            raise PermissionDenied("Unable to determine client IP address")
        return address
