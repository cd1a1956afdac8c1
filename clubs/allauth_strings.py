"""Strings django-allauth shows on our pages, listed so our message files translate them.

allauth ships Russian and Ukrainian but no Kazakh. Marking its form labels, errors and flash
messages here puts them in locale/*/django.po, where our translations (which come first in
LOCALE_PATHS) cover Kazakh as well. The msgids must stay identical to allauth's.
"""

from django.utils.translation import gettext_noop, ngettext_lazy, pgettext_lazy

ALLAUTH_STRINGS = (
    # The e-mail addresses page (account/email.html) and Django's own check of an address.
    gettext_noop("Add Email Address"),
    gettext_noop("Add Email"),
    gettext_noop("Email Addresses"),
    gettext_noop("Do you really want to remove the selected email address?"),
    gettext_noop("Make Primary"),
    gettext_noop("Re-send Verification"),
    gettext_noop("The following email addresses are associated with your account:"),
    gettext_noop("Primary"),
    gettext_noop("Unverified"),
    gettext_noop("Verified"),
    gettext_noop("Enter a valid email address."),
    gettext_noop("Username"),
    gettext_noop("Username or email"),
    gettext_noop("Password"),
    gettext_noop("Password (again)"),
    gettext_noop("Email"),
    gettext_noop("Email address"),
    gettext_noop("Email (optional)"),
    gettext_noop("Remember Me"),
    gettext_noop("Forgot your password?"),
    pgettext_lazy("field label", "Login"),
    gettext_noop("Current Password"),
    gettext_noop("New Password"),
    gettext_noop("New Password (again)"),
    gettext_noop("You must type the same password each time."),
    gettext_noop("The username and/or password you specified are not correct."),
    gettext_noop("The email address and/or password you specified are not correct."),
    gettext_noop("A user is already registered with this email address."),
    gettext_noop("Please type your current password."),
    gettext_noop("Incorrect password."),
    gettext_noop("This account is currently inactive."),
    gettext_noop("Too many failed login attempts. Try again later."),
    gettext_noop("The email address is not assigned to any user account."),
    gettext_noop("The password reset token was invalid."),
    gettext_noop("Username can not be used. Please use other username."),
    gettext_noop("Be patient, you are sending too many requests."),
    gettext_noop("Successfully signed in as %(name)s."),
    gettext_noop("You have signed out."),
    gettext_noop("Password successfully changed."),
    gettext_noop("Password successfully set."),
    gettext_noop("Confirmation email sent to %(email)s."),
    gettext_noop("You have confirmed %(email)s."),
    gettext_noop("Password Reset E-mail"),
    gettext_noop("A user with that username already exists."),
    ngettext_lazy(
        "This password is too short. It must contain at least %(min_length)d character.",
        "This password is too short. It must contain at least %(min_length)d characters.",
        8,
    ),
    gettext_noop("This password is too common."),
    gettext_noop("This password is entirely numeric."),
    gettext_noop("The password is too similar to the %(verbose_name)s."),
)
