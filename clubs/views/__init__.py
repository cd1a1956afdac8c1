"""Club, player and account pages. Reads go through selectors, every write through one service.

One module per group of pages; ``clubs.urls`` names them from here.
"""

from .app import manifest, offline
from .audit import club_audit
from .clubs import club_create, club_edit, club_join, club_leave, member_remove, member_role
from .joining import (
    join_invitation,
    member_add,
    member_invitation,
    member_invitation_withdraw,
    member_invite_in_person,
    members,
)
from .pages import EVENTS_TEMPLATE, club_detail, club_list, home, player_detail, player_search
from .profile import api_token_create, api_token_revoke, claim, my_profile, player_edit
from .roster import (
    invitation,
    roster,
    roster_add,
    roster_add_member,
    roster_bulk,
    roster_invite,
    roster_merge,
    roster_toggle,
)

__all__ = [
    "manifest",
    "offline",
    "api_token_create",
    "api_token_revoke",
    "EVENTS_TEMPLATE",
    "claim",
    "club_audit",
    "club_create",
    "club_detail",
    "club_edit",
    "club_join",
    "club_leave",
    "club_list",
    "home",
    "invitation",
    "join_invitation",
    "member_add",
    "member_invitation",
    "member_invitation_withdraw",
    "member_invite_in_person",
    "member_remove",
    "member_role",
    "members",
    "my_profile",
    "player_detail",
    "player_edit",
    "player_search",
    "roster",
    "roster_add",
    "roster_add_member",
    "roster_bulk",
    "roster_invite",
    "roster_merge",
    "roster_toggle",
]
