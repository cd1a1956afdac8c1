"""`Authorization: Bearer <key>`: the key's digest finds its row; a revoked or unknown key is refused."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.exceptions import AuthenticationFailed

from clubs import selectors, services


class BearerTokenAuthentication(BaseAuthentication):
    """A request with no Authorization header is anonymous; one with a bad key gets 401, never
    the anonymous answer, so a program with a revoked key learns it at once."""

    keyword = b"bearer"

    def authenticate(self, request):
        parts = get_authorization_header(request).split()
        if not parts or parts[0].lower() != self.keyword:
            return None
        if len(parts) != 2:
            raise AuthenticationFailed(_("Send the key as: Authorization: Bearer <key>."))
        try:
            key = parts[1].decode("ascii")
        except UnicodeDecodeError:
            raise AuthenticationFailed(_("This API key is not valid.")) from None
        token = selectors.api_token_by_key(key)
        if token is None or not token.is_active or not token.user.is_active:
            raise AuthenticationFailed(_("This API key is not valid."))
        services.note_token_used(token=token)
        return token.user, token

    def authenticate_header(self, request) -> str:
        return 'Bearer realm="api"'
