"""What the club pages share: finding the club, the role check, and a service's refusal shown to the user."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404

from .. import permissions
from ..models import Club


def error_text(error: ValidationError) -> str:
    """A service's refusal as one line for a flash message."""
    return " ".join(error.messages)


@contextmanager
def refusal_as_message(request) -> Iterator[None]:
    """For buttons that post and go back: a ValidationError a service raises in the block ends
    the block and is shown as an error message; what follows the service call runs only if it
    went through."""
    try:
        yield
    except ValidationError as e:
        messages.error(request, error_text(e))


def club_or_404(slug: str) -> Club:
    return get_object_or_404(Club, slug=slug)


def club_for(request, slug: str, may: Callable[[Any, Club], bool]) -> Club:
    """The club of the page, once ``may`` (a check from ``clubs.permissions``) lets the user in."""
    club = club_or_404(slug)
    permissions.require(may(request.user, club))
    return club


def save_form(request, form, write: Callable[..., Any], *, field: str | None = None) -> Any:
    """On a valid POST, what ``write(**form.cleaned_data)`` returns; else None.

    A ValidationError the service raises goes on the form (on ``field``, or on the whole form),
    so the page shows it next to what the user typed. The services called this way always
    return the object they changed, so None means "show the form again".
    """
    if request.method != "POST" or not form.is_valid():
        return None
    try:
        return write(**form.cleaned_data)
    except ValidationError as e:
        form.add_error(field, e)
        return None
