"""Every change to clubs, players, roles and rosters. Views, admin and commands call these.

Each service takes keyword-only arguments, runs in one transaction, checks the actor's role
(raising PermissionDenied) and writes one AuditEntry. Business rules a user can break by
mistake (the last owner, an expired link) raise ValidationError with a message for the page.

The services live in one module per thing they change; callers import them from here.
"""

from .clubs import (
    RESERVED_SLUGS,
    add_member,
    create_club,
    join_club,
    remove_member,
    set_member_role,
    update_club,
)
from .common import without_list_number
from .invitations import INVITATION_DAYS, claim_player, invite_player
from .joining import (
    IN_PERSON_HOURS,
    MEMBER_INVITATION_DAYS,
    accept_invitation,
    decline_invitation,
    invite_in_person,
    invite_member,
    member_invited,
    withdraw_invitation,
)
from .limits import RATE_LIMITED
from .merging import merge_players, players_merged, players_merging
from .players import ensure_player_for_user, update_player
from .roster import (
    BULK_LIMIT,
    BulkAddResult,
    add_player,
    add_to_roster,
    bulk_add_players,
    parse_player_lines,
    set_roster_active,
)
from .tokens import MAX_ACTIVE_TOKENS, create_token, note_token_used, revoke_token

__all__ = [
    "BULK_LIMIT",
    "INVITATION_DAYS",
    "IN_PERSON_HOURS",
    "MAX_ACTIVE_TOKENS",
    "MEMBER_INVITATION_DAYS",
    "RATE_LIMITED",
    "RESERVED_SLUGS",
    "BulkAddResult",
    "accept_invitation",
    "add_member",
    "add_player",
    "add_to_roster",
    "bulk_add_players",
    "claim_player",
    "create_club",
    "create_token",
    "decline_invitation",
    "ensure_player_for_user",
    "invite_in_person",
    "invite_member",
    "invite_player",
    "join_club",
    "member_invited",
    "merge_players",
    "note_token_used",
    "parse_player_lines",
    "players_merged",
    "players_merging",
    "remove_member",
    "revoke_token",
    "set_member_role",
    "set_roster_active",
    "update_club",
    "update_player",
    "withdraw_invitation",
    "without_list_number",
]
