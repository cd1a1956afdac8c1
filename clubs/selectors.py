"""Read-only queries for club and player pages, each a fixed number of SQL queries."""

from __future__ import annotations

from django.db.models import Count, Prefetch, Q, QuerySet
from django.utils import timezone

from .models import (
    ApiToken,
    AuditEntry,
    Club,
    ClubPlayer,
    InvitationStatus,
    MemberInvitation,
    Membership,
    Player,
    PlayerInvitation,
    Role,
    User,
)
from .translit import search_key

SEARCH_LIMIT = 50

_ROLE_ORDER = {Role.OWNER: 0, Role.ORGANISER: 1, Role.MEMBER: 2}


def club_list() -> QuerySet[Club]:
    return Club.objects.annotate(
        member_count=Count("memberships", distinct=True),
        player_count=Count("roster", filter=Q(roster__active=True), distinct=True),
    ).order_by("name", "id")


def club_members(*, club: Club) -> list[Membership]:
    members = list(Membership.objects.filter(club=club).select_related("user", "user__player"))
    members.sort(key=lambda m: (_ROLE_ORDER.get(m.role, 9), m.user.get_username().casefold()))
    return members


def club_roster(*, club: Club, include_inactive: bool = False) -> list[ClubPlayer]:
    qs = ClubPlayer.objects.filter(club=club).select_related("player", "player__user", "added_by")
    if not include_inactive:
        qs = qs.filter(active=True)
    return list(qs.order_by("-active", "player__display_name", "id"))


def open_invitations(*, club: Club) -> dict[int, PlayerInvitation]:
    """The newest unclaimed invitation per player of the club, keyed by player id."""
    result: dict[int, PlayerInvitation] = {}
    for inv in PlayerInvitation.objects.filter(club=club, claimed_at__isnull=True).order_by("created_at"):
        if inv.is_usable:
            result[inv.player_id] = inv
    return result


def sent_invitations(*, club: Club) -> list[MemberInvitation]:
    """The club's invitations still waiting for an answer, newest first, for its owners' page: each
    as the owner typed it, whether or not it reached an account."""
    return list(
        MemberInvitation.objects.filter(
            club=club, status=InvitationStatus.SENT, expires_at__gt=timezone.now()
        ).select_related("created_by")
    )


def invitations_for(*, user) -> list[MemberInvitation]:
    """The clubs' invitations waiting for this account's answer, newest first."""
    if not user.is_authenticated:
        return []
    return list(
        MemberInvitation.objects.filter(
            user=user, status=InvitationStatus.SENT, expires_at__gt=timezone.now()
        ).select_related("club", "created_by")
    )


def own_player(*, user) -> Player | None:
    """The signed-in user's own player profile; None for visitors and accounts without one."""
    if not user.is_authenticated:
        return None
    return Player.objects.filter(user=user).first()


def clubs_of_user(*, user) -> list[Membership]:
    if not user.is_authenticated:
        return []
    return list(Membership.objects.filter(user=user).select_related("club").order_by("club__name"))


def search_players(*, query: str, limit: int = SEARCH_LIMIT) -> list[Player]:
    """Players whose name or city matches every word of the query, in any alphabet.

    A record merged into another still answers to its old name ("Nurlan A."), but the
    person is shown once, as the surviving record.
    """
    words = search_key(query).split()
    if not words:
        return []
    matches = Player.objects.all()
    for word in words:
        matches = matches.filter(search_name__icontains=word)
    ids: list[int] = []
    for pk, merged_into in matches.order_by("display_name", "id").values_list("id", "merged_into_id")[
        : limit * 4
    ]:
        survivor = merged_into or pk
        if survivor not in ids:
            ids.append(survivor)
    ids = ids[:limit]
    found = (
        Player.objects.filter(pk__in=ids, merged_into__isnull=True)
        .select_related("user")
        .prefetch_related(
            Prefetch("roster_entries", queryset=ClubPlayer.objects.filter(active=True).select_related("club"))
        )
    )
    by_id = {p.pk: p for p in found}
    return [by_id[i] for i in ids if i in by_id]


def player_detail(*, pk: int) -> Player:
    return (
        Player.objects.select_related("user", "merged_into")
        .prefetch_related(
            Prefetch(
                "roster_entries",
                queryset=ClubPlayer.objects.select_related("club").order_by("-active", "club__name"),
            )
        )
        .get(pk=pk)
    )


def owner_count(*, club_id: int) -> int:
    """How many owners the club has (a club always keeps one)."""
    return Membership.objects.filter(club_id=club_id, role=Role.OWNER).count()


def club_audit(*, club: Club, limit: int = 20) -> list[AuditEntry]:
    return list(AuditEntry.objects.filter(club=club).select_related("actor", "actor__player")[:limit])


def audit_log(
    *, club: Club | None = None, tournament_id: int | None = None, kind: str = "", round_number=None
):
    """The audit rows of a club (every change in it, its tournaments' too) or of one tournament,
    newest first, filtered by kind (an action code's first part) and round; a queryset to page."""
    rows = AuditEntry.objects.select_related("actor", "actor__player")
    if tournament_id is not None:
        rows = rows.filter(tournament_id=tournament_id)
    else:
        rows = rows.filter(club=club)
    if kind:
        rows = rows.filter(action__startswith=f"{kind}.")
    if round_number is not None:
        rows = rows.filter(round_number=round_number)
    return rows.order_by("-at", "-id")


def audit_filters(
    *, club: Club | None = None, tournament_id: int | None = None
) -> tuple[list[str], list[int]]:
    """The action codes and round numbers a log holds, for its filter's choices."""
    if tournament_id is not None:
        rows = AuditEntry.objects.filter(tournament_id=tournament_id)
    else:
        rows = AuditEntry.objects.filter(club=club)
    codes = sorted(set(rows.values_list("action", flat=True)))
    rounds = sorted(set(rows.exclude(round_number=None).values_list("round_number", flat=True)))
    return codes, rounds


def members_off_roster(*, club: Club) -> list[Membership]:
    """Members whose player profile is not on the club's active roster (organisers may add them)."""
    on_roster = ClubPlayer.objects.filter(club=club, active=True).values("player_id")
    return list(
        Membership.objects.filter(
            club=club, user__player__isnull=False, user__player__merged_into__isnull=True
        )
        .exclude(user__player__in=on_roster)
        .select_related("user", "user__player")
        .order_by("user__player__display_name")
    )


def sign_in_key(login: str) -> str:
    """The one name a sign-in attempt counts against, whether typed as username or email.

    Typing the email and then the username must not double the attempts a guesser gets, so
    both resolve to the account's username; a name with no account counts as typed.
    """
    typed = (login or "").strip()
    lookup = Q(email__iexact=typed) if "@" in typed else Q(username__iexact=typed)
    usernames = list(User.objects.filter(lookup).values_list("username", flat=True)[:2])
    return (usernames[0] if len(usernames) == 1 else typed).casefold()


def api_tokens(*, user) -> list[ApiToken]:
    """The account's API keys, newest first, with the clubs each may write for."""
    return list(ApiToken.objects.filter(user=user).prefetch_related("clubs"))


def api_token_by_key(key: str) -> ApiToken | None:
    """The key's row with its account and clubs, found by the key's digest (the key is never stored)."""
    return (
        ApiToken.objects.select_related("user")
        .prefetch_related("clubs")
        .filter(digest=ApiToken.digest_of(key))
        .first()
    )


def member_clubs(*, user) -> QuerySet[Club]:
    """The clubs the account belongs to: those a write key may name."""
    return Club.objects.filter(memberships__user=user).order_by("name", "id")
