"""What the sign-in page answers once an account is locked for the address it is tried from.

django-axes calls ``attempt_name`` to know which account an attempt counts against (and
``clubs.addresses.client_address`` for the address it comes from), and ``locked_out`` for the
page: the sign-in form again, the login kept as typed, with the refusal and the wait in the user's
language (HTTP 429), so nobody is left at a bare error.
"""

from allauth.account.forms import LoginForm
from django.conf import settings
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import ngettext

from clubs.selectors import sign_in_key

#: django-axes keeps the name in a column of 255 characters; no account's name or email is longer.
ATTEMPT_NAME_LENGTH = 255


def attempt_name(request, credentials=None) -> str:
    """The account an attempt counts against: what was typed into the login field, resolved. A
    login longer than any account's counts against its first 255 characters (typed whole, it made
    a server error where django-axes wrote it down)."""
    data = getattr(request, "POST", None) or {}
    typed = data.get("login") if data else None
    if not typed and credentials:
        typed = credentials.get("username") or credentials.get("email") or credentials.get("login")
    return sign_in_key(typed or "")[:ATTEMPT_NAME_LENGTH]


def locked_out(request, original_response=None, credentials=None):
    minutes = max(1, int(settings.AXES_COOLOFF_TIME.total_seconds() // 60))
    message = ngettext(
        "Too many wrong passwords for this account from your connection. "
        "Wait %(minutes)d minute and try again, or reset your password.",
        "Too many wrong passwords for this account from your connection. "
        "Wait %(minutes)d minutes and try again, or reset your password.",
        minutes,
    ) % {"minutes": minutes}
    form = LoginForm(request=request, initial={"login": request.POST.get("login", "")})
    context = {"form": form, "lockout_message": message, "signup_url": reverse("account_signup")}
    return render(request, "account/login.html", context,
                  status=settings.AXES_HTTP_RESPONSE_CODE)
