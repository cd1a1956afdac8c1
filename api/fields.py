"""The API's fields for text people type: tidied and limited as the pages' forms are (``clubs.text_fields``).

A serializer that takes a name or prose uses these, with the model field's own limit
(``model_text``), so the API refuses what the pages refuse, in the request's language, and its
schema shows the limit (``maxLength``) to integrators.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import serializers

from clubs.text_fields import NameField as NameModelField
from clubs.text_fields import ProseField as ProseModelField
from clubs.text_fields import check_name, check_prose


class _TidyField(serializers.CharField):
    check: Any = None

    def __init__(self, *, max_length: int, **kwargs: Any) -> None:
        # DRF's own length check stays (the schema shows it as maxLength); it sees the value
        # ``check`` tidied and limited, so it never speaks first.
        super().__init__(max_length=max_length, **kwargs)
        self.limit = max_length

    def to_internal_value(self, data: Any) -> str:
        value = super().to_internal_value(data)
        try:
            return type(self).check(value, limit=self.limit)
        except DjangoValidationError as error:
            raise serializers.ValidationError(error.messages) from None


class NameField(_TidyField):
    """A name: one line, nothing invisible, a letter or a digit, at most ``max_length``."""

    check = staticmethod(check_name)


class ProseField(_TidyField):
    """A description or a note: tidied line by line, at most ``max_length`` characters."""

    check = staticmethod(check_prose)


def model_text(model, name: str, **kwargs: Any) -> serializers.CharField:
    """The API field of a model's name or prose field, with that field's limit."""
    field = model._meta.get_field(name)
    kwargs.setdefault("max_length", field.max_length)
    if field.blank:
        kwargs.setdefault("allow_blank", True)
    if isinstance(field, ProseModelField):
        return ProseField(**kwargs)
    if isinstance(field, NameModelField):
        return NameField(**kwargs)
    raise TypeError(f"{model.__name__}.{name} is not a field people type")
