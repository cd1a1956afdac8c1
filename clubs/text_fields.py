"""The one place each layer applies ``clubs.text``: model fields, their form fields, and the checks.

A name (``NameField``: a person's, a club's, a tournament's, a city) is tidied to one line and must
have a letter or a digit; prose (``ProseField``: a description, a note) is tidied line by line.
Both have a length limit counted in characters after tidying, reported in the reader's language.

- **Forms** get ``NameFormField`` / ``ProseFormField`` from the model field's ``formfield()``, so a
  page's limit is the model's.
- **Models** tidy and check again just before a row is written (``pre_save``), whoever writes it
  (a service, the admin, a seed command): a value too long or with nothing to read raises a
  ``ValidationError`` naming the field instead of reaching the database.
- **The API** has serializer fields of its own over the same checks (``api.fields``).

A value far over its limit (ten times and more) is refused before it is tidied at all, so a
2 MB description costs a length check, not a pass over every character.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from . import text as tidy

NAME_LENGTH = 120
"""A person's, a club's or a village's name."""
PROSE_LENGTH = 4000
"""A club's or a tournament's description: a few paragraphs, about a page on a phone."""

NO_LETTERS = _(
    "Write it with letters or digits: spaces, invisible characters and symbols alone are not a name."
)
TOO_LONG = ngettext_lazy(
    "At most %(limit)d character, please (this has %(count)d).",
    "At most %(limit)d characters, please (this has %(count)d).",
    "limit",
)
FAR_TOO_LONG = 10
"""A value this many times over its limit is refused before it is tidied."""


def too_long(limit: int, count: int) -> ValidationError:
    return ValidationError(TOO_LONG % {"limit": limit, "count": count}, code="max_length")


def check_name(value: str, *, limit: int) -> str:
    """A tidied name that fits and has something to read. Nothing typed stays "" (whether that is
    allowed is the caller's "required"); something typed with nothing to read in it (invisible
    characters, blanks, symbols) raises ValidationError, as does a name too long."""
    if len(value) > limit * FAR_TOO_LONG:
        raise too_long(limit, len(value))
    tidied = tidy.line(value)
    if len(tidied) > limit:
        raise too_long(limit, len(tidied))
    if value.strip() and not tidy.has_letters(tidied):
        raise ValidationError(NO_LETTERS, code="no_letters")
    return tidied


def check_prose(value: str, *, limit: int) -> str:
    """Tidied prose that fits; raises ValidationError otherwise."""
    if len(value) > limit * FAR_TOO_LONG:
        raise too_long(limit, len(value))
    value = tidy.text(value)
    if len(value) > limit:
        raise too_long(limit, len(value))
    return value


class _TidyFormField(forms.CharField):
    """A form field that tidies what was typed and reports its limit in the reader's language
    (Django's own words for it exist in Russian and Ukrainian only)."""

    def __init__(self, *, max_length: int, **kwargs: Any) -> None:
        self.limit = max_length
        super().__init__(**kwargs)  # no max_length here: the checks below count after tidying
        if not isinstance(self.widget, forms.Textarea):  # a text area's would cut a paste silently
            self.widget.attrs.setdefault("maxlength", str(max_length))

    def check(self, value: str) -> str:
        raise NotImplementedError

    def to_python(self, value: Any) -> str:
        value = super().to_python(value)
        return self.check(value) if value else value


class NameFormField(_TidyFormField):
    """A name typed in a form: one line, with a letter or a digit, at most ``max_length``."""

    def check(self, value: str) -> str:
        return check_name(value, limit=self.limit)


class ProseFormField(_TidyFormField):
    """Prose typed in a form: tidied line by line, at most ``max_length`` characters."""

    widget = forms.Textarea

    def check(self, value: str) -> str:
        return check_prose(value, limit=self.limit)


FIELD_ERROR = _("%(field)s: %(error)s")


class PasteFormField(_TidyFormField):
    """A pasted list (names, one a line) that its service reads line by line and tidies there:
    kept as typed, only its length is checked here."""

    widget = forms.Textarea

    def check(self, value: str) -> str:
        if len(value) > self.limit:
            raise too_long(self.limit, len(value))
        return value


def _write_guard(field: models.Field, instance: models.Model, check) -> Any:
    """The value about to be written, tidied; a ValidationError (naming the field, so that it reads
    well on any page) when it is too long, or empty or unreadable where a name is required."""
    value = getattr(instance, field.attname)
    if value is None:
        return value
    try:
        value = check(str(value), limit=field.max_length)
        if not value and not field.blank:
            raise ValidationError(NO_LETTERS, code="no_letters")
    except ValidationError as error:
        label = capfirst(field.verbose_name)
        messages = [FIELD_ERROR % {"field": label, "error": m} for m in error.messages]
        raise ValidationError(messages) from None
    setattr(instance, field.attname, value)
    return value


class NameField(models.CharField):
    """A name people type and read: tidied, with a letter or a digit, at most ``max_length``
    (``NAME_LENGTH`` unless given). Its form field is ``NameFormField``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", NAME_LENGTH)
        super().__init__(*args, **kwargs)

    def pre_save(self, model_instance: models.Model, add: bool) -> Any:
        return _write_guard(self, model_instance, check_name)

    def formfield(self, **kwargs: Any) -> forms.Field:
        kwargs = {"max_length": self.max_length, "required": not self.blank, **kwargs}
        kwargs.setdefault("label", capfirst(self.verbose_name))
        if self.help_text:
            kwargs.setdefault("help_text", self.help_text)
        return NameFormField(**kwargs)


class ProseField(models.TextField):
    """Prose people type and read (a description, a note): tidied line by line, at most
    ``max_length`` characters (``PROSE_LENGTH`` unless given). Its form field is
    ``ProseFormField``. The column stays ``text``: the limit is the site's, not the database's."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", PROSE_LENGTH)
        super().__init__(*args, **kwargs)

    def pre_save(self, model_instance: models.Model, add: bool) -> Any:
        return _write_guard(self, model_instance, check_prose)

    def formfield(self, **kwargs: Any) -> forms.Field:
        kwargs = {"max_length": self.max_length, "required": not self.blank, **kwargs}
        kwargs.setdefault("label", capfirst(self.verbose_name))
        return ProseFormField(**kwargs)


def readable_username(value: str) -> None:
    """An account name shown in member lists: nothing invisible in it, and a letter or a digit."""
    if tidy.line(value) != value or not tidy.has_letters(value):
        raise ValidationError(USERNAME_UNREADABLE, code="unreadable")


USERNAME_UNREADABLE = _(
    "Use letters or digits you can see; invisible characters and fillers are not allowed."
)
USERNAME_VALIDATORS = [UnicodeUsernameValidator(), readable_username]
"""The sign-up form's checks of an account name (``ACCOUNT_USERNAME_VALIDATORS``)."""
