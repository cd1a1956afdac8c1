"""The sign-in guard in front of the password check: django-axes, counting per account and address.

A request is required to know the address; code that authenticates without one (a shell, the
test client's ``login``) is not a guesser at the sign-in page and goes straight to the next
backend, where axes' own backend would raise.
"""

from axes.backends import AxesStandaloneBackend


class SignInGuardBackend(AxesStandaloneBackend):
    """Refuses a locked (account, address) pair before any password is compared."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)
