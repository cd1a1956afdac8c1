"""People and clubs: accounts, players (who may have no account), clubs and their roles."""

from django.contrib.auth.models import AbstractUser


class User(AbstractUser):
    """A site account. Kept custom from the first day so fields can be added without pain."""
