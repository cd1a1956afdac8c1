"""What a key may do: anyone reads (as the pages show); entering results needs a write key for the
club, running its events an organising key for it."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import SAFE_METHODS, BasePermission

from clubs.models import ApiToken, Club, TokenScope
from tournaments.services import require_manager


class ReadOrWriteScope(BasePermission):
    """Reads are open; a write needs a key (401 without one) with the write scope (403 otherwise).
    Which club the key may write for is checked by ``require_club`` once the object is known."""

    message = _("This key may only read; make a key that may enter results on your account page.")
    scopes: tuple[str, ...] = (TokenScope.WRITE, TokenScope.ORGANISE)
    """The key scopes that may write here (an organising key enters results too)."""

    def has_permission(self, request, view) -> bool:
        if request.method in SAFE_METHODS or not hasattr(view, request.method.lower()):
            return True  # a method the operation lacks is answered 405 by DRF, whoever asks
        token = request.auth
        if not isinstance(token, ApiToken):
            return False  # DRF answers 401 with the Bearer challenge
        return token.scope in self.scopes


class OrganiseScope(ReadOrWriteScope):
    """Running an event (creating, filling, pairing, correcting) needs a key made to organise:
    a results key cannot pair a round, whoever owns it."""

    message = _("This key may not run events; make a key that may organise on your account page.")
    scopes = (TokenScope.ORGANISE,)


NOT_THIS_CLUB = _("This key may not enter results for this club.")
NOT_ORGANISING_HERE = _("This key may not run events of this club.")


def require_club(request, club: Club, refusal=NOT_THIS_CLUB) -> None:
    """The write key must name the club whose match (or entry) it changes; the service then checks
    the person. ``refusal`` says what the key may not do there."""
    token = request.auth
    if not isinstance(token, ApiToken) or not any(c.pk == club.pk for c in token.clubs.all()):
        raise PermissionDenied(refusal)


def require_organiser(request, tournament) -> None:
    """The organising key names the event's club and its owner may run the event: both checked
    before the body is read."""
    require_club(request, tournament.club, NOT_ORGANISING_HERE)
    require_manager(request.user, tournament)
