"""Words for the audit log's action codes, shown to club owners and organisers."""

from django.utils.translation import gettext_lazy as _

ACTION_LABELS = {
    "club.create": _("Club created"),
    "club.update": _("Club details edited"),
    "invitation.create": _("Invitation link made"),
    "membership.add": _("Member added"),
    "membership.join": _("Joined the club"),
    "membership.remove": _("Member removed or left"),
    "membership.set_role": _("Role changed"),
    "player.claim": _("Profile claimed with a link"),
    "player.create_for_user": _("Player profile created"),
    "player.merge": _("Two records merged"),
    "player.update": _("Player details edited"),
    "roster.activate": _("Put back on the roster"),
    "roster.deactivate": _("Taken off the roster"),
    "roster.add": _("Player added to the roster"),
    "roster.add_existing": _("Member put on the roster"),
    "roster.bulk_add": _("List of players pasted"),
}


def action_label(code: str) -> str:
    return str(ACTION_LABELS.get(code, code))
