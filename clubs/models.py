"""People and clubs: accounts, players (who may have no account), clubs and their roles.

A little over 400 lines: the base app's rows, each short, with the two the whole site shares (the
audit log, and the forms sent with a key, ``clubs.form_keys``), kept where Django looks for them."""

from __future__ import annotations

import hashlib
import secrets

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from .text import name_keys
from .text_fields import NameField, ProseField
from .translit import search_key


def _account_link(verbose_name, *, blank: bool = True) -> models.ForeignKey:
    """The account that did something (created, added, claimed): optional, kept when it is deleted."""
    return models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=verbose_name,
        null=True,
        blank=blank,
        on_delete=models.SET_NULL,
        related_name="+",
    )


class User(AbstractUser):
    """A site account. Kept custom from the first day so fields can be added without pain."""

    #: The language the user last used the site in (``clubs.middleware.RememberLanguage``):
    #: notices and e-mails written for him away from his requests (beat, workers) use it.
    language = models.CharField(_("language"), max_length=8, blank=True, choices=settings.LANGUAGES)


class Player(models.Model):
    """A person who plays Bilka. Village players often have no account; one may claim this later."""

    display_name = NameField(_("name"))
    city = NameField(_("city or village"), blank=True)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("account"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
    )
    search_name = models.CharField(
        _("search key"),
        max_length=300,
        blank=True,
        db_index=True,
        editable=False,
        help_text=_("The name in one Latin spelling, so Cyrillic and Latin searches meet."),
    )
    merged_into = models.ForeignKey(
        "self",
        verbose_name=_("merged into"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="merged_from",
        help_text=_("Set when this record was found to be the same person as another one."),
    )
    created_by = _account_link(_("created by"))
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["display_name", "id"]

    def __str__(self) -> str:
        return f"{self.display_name} ({self.city})" if self.city else self.display_name

    def save(self, *args, **kwargs):
        # Derived data, kept in step on every save (bulk writes set it through key_for).
        self.refresh_search_name()
        if kwargs.get("update_fields") is not None:
            kwargs["update_fields"] = {*kwargs["update_fields"], "search_name"}
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("clubs:player_detail", kwargs={"pk": self.pk})

    @staticmethod
    def key_for(display_name: str, city: str = "") -> str:
        """The search key: the name's key, then the city's, so either can be searched."""
        return " ".join(k for k in (search_key(display_name), search_key(city)) if k)[:300]

    def refresh_search_name(self) -> None:
        self.search_name = self.key_for(self.display_name, self.city)


class Club(models.Model):
    name = NameField(_("name"))
    name_key = models.CharField(
        _("name as compared"),
        max_length=300,
        blank=True,
        db_index=True,
        editable=False,
        help_text=_(
            "The name as duplicate checks compare it: case, invisible characters and look-alike"
            " letters aside."
        ),
    )
    name_key_upper = models.CharField(max_length=300, blank=True, db_index=True, editable=False)
    """The same in capitals ("НОРА" and "HOPA" look alike; "нора" and "hopa" do not)."""
    slug = models.SlugField(_("address"), max_length=140, unique=True, allow_unicode=False)
    city = NameField(_("city or village"), blank=True)
    description = ProseField(_("description"), blank=True)
    created_by = _account_link(_("created by"))
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        verbose_name = _("club")
        verbose_name_plural = pgettext_lazy("organisation", "clubs")
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs):
        # Derived data, kept in step on every save that writes the name (as Player.search_name).
        self.name_key, self.name_key_upper = name_keys(self.name)
        if kwargs.get("update_fields") is not None and "name" in kwargs["update_fields"]:
            kwargs["update_fields"] = {*kwargs["update_fields"], "name_key", "name_key_upper"}
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("clubs:club_detail", kwargs={"slug": self.slug})


class Role(models.TextChoices):
    OWNER = "owner", _("owner")
    ORGANISER = "organiser", _("organiser")
    MEMBER = "member", _("member")


class Membership(models.Model):
    """A user's role in a club. Only owners change roles; a club always keeps one owner."""

    club = models.ForeignKey(
        Club, verbose_name=_("club"), on_delete=models.CASCADE, related_name="memberships"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("user"), on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(_("role"), max_length=16, choices=Role.choices, default=Role.MEMBER)
    created_at = models.DateTimeField(_("joined"), default=timezone.now)

    class Meta:
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [models.UniqueConstraint(fields=["club", "user"], name="membership_unique_club_user")]
        ordering = ["club", "role", "user__username"]

    def __str__(self) -> str:
        return f"{self.user} @ {self.club}: {self.get_role_display()}"


class ClubPlayer(models.Model):
    """A line of a club's roster. Rows are never deleted: merges repoint them, leaving keeps history."""

    club = models.ForeignKey(Club, verbose_name=_("club"), on_delete=models.CASCADE, related_name="roster")
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.PROTECT, related_name="roster_entries"
    )
    added_as = NameField(
        _("added as"),
        blank=True,
        help_text=_("The name the organiser typed, kept when records are merged."),
    )
    added_by = _account_link(_("added by"))
    added_at = models.DateTimeField(_("added"), default=timezone.now)
    active = models.BooleanField(_("active"), default=True)

    class Meta:
        verbose_name = _("roster entry")
        verbose_name_plural = _("roster entries")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "player"], condition=Q(active=True), name="clubplayer_one_active_row"
            )
        ]
        ordering = ["club", "player__display_name", "id"]

    def __str__(self) -> str:
        return f"{self.player} @ {self.club}"


def _new_token() -> str:
    return secrets.token_urlsafe(24)


class PlayerInvitation(models.Model):
    """A link an organiser gives a village player so they can claim their profile with an account."""

    token = models.CharField(_("token"), max_length=64, unique=True, default=_new_token, editable=False)
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.CASCADE, related_name="invitations"
    )
    club = models.ForeignKey(
        Club, verbose_name=_("club"), on_delete=models.CASCADE, related_name="invitations"
    )
    created_by = _account_link(_("created by"), blank=False)
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    expires_at = models.DateTimeField(_("expires"))
    claimed_by = _account_link(_("claimed by"))
    claimed_at = models.DateTimeField(_("claimed"), null=True, blank=True)

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.player} → {self.club}"

    def get_absolute_url(self) -> str:
        return reverse("clubs:claim", kwargs={"token": self.token})

    @property
    def is_expired(self) -> bool:
        return timezone.now() >= self.expires_at

    @property
    def is_usable(self) -> bool:
        return self.claimed_at is None and not self.is_expired


class InvitationStatus(models.TextChoices):
    SENT = "sent", _("waiting for an answer")
    ACCEPTED = "accepted", _("accepted")
    DECLINED = "declined", _("declined")
    WITHDRAWN = "withdrawn", _("withdrawn")


class MemberInvitation(models.Model):
    """An owner's invitation to join the club with a role: nobody becomes a member until he accepts.

    Sent to an account by name or e-mail (``addressed_to``, as the owner typed it): ``user`` is the
    account it reached, and stays empty when none has that name or address, or one was not told
    again (already a member, already invited, declined lately). The owner's pages show the row the
    same either way, so an invitation never tells whether an address has an account. An invitation
    shown in person (a QR code) has no address: whoever opens it signed in may accept it once."""

    club = models.ForeignKey(
        Club, verbose_name=_("club"), on_delete=models.CASCADE, related_name="member_invitations"
    )
    role = models.CharField(_("role"), max_length=16, choices=Role.choices, default=Role.MEMBER)
    token = models.CharField(_("token"), max_length=64, unique=True, default=_new_token, editable=False)
    addressed_to = models.CharField(_("name or e-mail"), max_length=254, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("account"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="club_invitations",
    )
    created_by = _account_link(_("invited by"), blank=False)
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    expires_at = models.DateTimeField(_("expires"))
    status = models.CharField(
        _("status"), max_length=12, choices=InvitationStatus.choices, default=InvitationStatus.SENT
    )
    answered_at = models.DateTimeField(_("answered"), null=True, blank=True)

    class Meta:
        verbose_name = _("invitation to a club")
        verbose_name_plural = _("invitations to clubs")
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["created_by", "created_at"], name="member_invitation_by_at")]

    def __str__(self) -> str:
        return f"{self.addressed_to or '—'} → {self.club}"

    def get_absolute_url(self) -> str:
        return reverse("clubs:join_invitation", kwargs={"token": self.token})

    @property
    def in_person(self) -> bool:
        return not self.addressed_to

    @property
    def is_expired(self) -> bool:
        return timezone.now() >= self.expires_at

    @property
    def is_open(self) -> bool:
        return self.status == InvitationStatus.SENT and not self.is_expired


class AuditEntry(models.Model):
    """Who changed what, with the state before and after. Written by every service."""

    actor = _account_link(_("who"))
    action = models.CharField(_("action"), max_length=64, db_index=True)
    club = models.ForeignKey(
        Club, verbose_name=_("club"), null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    object_type = models.CharField(_("object type"), max_length=64)
    object_id = models.CharField(_("object id"), max_length=64, blank=True)
    object_repr = models.CharField(_("object"), max_length=200, blank=True)
    """The object as ``str()`` gave it when written (in the actor's language): shown only for rows
    written before ``subject`` existed."""
    subject = models.JSONField(_("subject"), null=True, blank=True)
    """What the row is about as codes and parameters (``{"kind": "match", "round": 2, "table": 3,
    "home": "…", "away": "…"}``), worded in the reader's language when the log is read."""
    tournament_id = models.PositiveIntegerField(_("tournament"), null=True, blank=True, db_index=True)
    """The tournament the change belongs to (a plain id: the clubs never import the tournaments)."""
    round_number = models.PositiveSmallIntegerField(_("round"), null=True, blank=True)
    reason = models.CharField(_("reason"), max_length=300, blank=True)
    before = models.JSONField(_("before"), null=True, blank=True)
    after = models.JSONField(_("after"), null=True, blank=True)
    at = models.DateTimeField(_("when"), default=timezone.now, db_index=True)

    class Meta:
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit entries")
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["tournament_id", "-at"], name="audit_tournament_at")]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action} {self.object_repr}"


class TokenScope(models.TextChoices):
    READ = "read", _("read only")
    WRITE = "write", _("read, and enter results for chosen clubs")
    ORGANISE = "organise", _("read, enter results and run events for chosen clubs")


class ApiToken(models.Model):
    """A key for the site's API, made on the account page and shown once.

    Only the SHA-256 digest of the key is kept: a copy of the database opens nothing. The first
    characters (``prefix``) are kept in the clear so the owner can tell his keys apart. A write key
    enters results only for the clubs it names, and only where its owner may (the services check);
    an organising key also runs those clubs' events (create, fill, pair, correct), again only
    where its owner may."""

    PREFIX_LENGTH = 8

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("account"),
        on_delete=models.CASCADE,
        related_name="api_tokens",
    )
    name = NameField(_("name"), max_length=80)
    prefix = models.CharField(_("beginning"), max_length=PREFIX_LENGTH, editable=False)
    digest = models.CharField(max_length=64, unique=True, editable=False)
    scope = models.CharField(_("scope"), max_length=8, choices=TokenScope.choices, default=TokenScope.READ)
    clubs = models.ManyToManyField(Club, verbose_name=_("clubs"), blank=True, related_name="+")
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    last_used_at = models.DateTimeField(_("last used"), null=True, blank=True)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)

    class Meta:
        verbose_name = _("API key")
        verbose_name_plural = _("API keys")
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @staticmethod
    def digest_of(key: str) -> str:
        return hashlib.sha256(key.encode()).hexdigest()

    @staticmethod
    def new_key() -> str:
        """A fresh key: 32 random bytes, URL-safe, so it fits a header as it is."""
        return secrets.token_urlsafe(32)

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None


class SentForm(models.Model):
    """A page's form posted with a form key (``clubs.form_keys``): while it runs a second copy
    waits or is refused, and once it has been answered with a redirect a copy sent again (a phone
    that kept a report while offline and sends it when the network returns, or sends it twice) gets
    the same redirect and messages instead of doing the write again. The key is the sender's own
    (an account, or a browser session for a visitor without one) and the page's."""

    owner = models.CharField(max_length=80, help_text="u:<account id> or s:<session key>")
    path = models.CharField(max_length=300)
    key = models.CharField(max_length=64)
    fingerprint = models.CharField(max_length=64, help_text="SHA-256 of the posted fields")
    location = models.CharField(max_length=500, blank=True)
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    notices = models.JSONField(default=list, blank=True, help_text="[level, text, tags] of each message")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["owner", "path", "key"], name="clubs_sentform_owner_path_key")
        ]
        indexes = [models.Index(fields=["created_at"], name="clubs_sentform_created")]

    def __str__(self) -> str:
        return f"{self.key} ({self.status_code or 'running'})"
