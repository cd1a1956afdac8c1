"""Who may watch a duplicate event's live tables: anyone signed in but the event's own players."""

from __future__ import annotations

from clubs.models import Player
from gameplay import services as tables

from ..models import Entry, IndividualEntry, Match, MatchStatus, Substitution, Tournament


def bar_event_players(tournament: Tournament) -> int:
    """Let anyone signed in watch a duplicate event's live tables, except the event's own players
    (entrants, substitutes, individual entrants with an account): they play the same boards at other
    tables, so a board watched at one table must not be learnt before it is played at another.
    Called when a round's tables open and when a substitute joins. Returns the tables changed."""
    player_ids: set[int] = set()
    for a, b in Entry.objects.filter(tournament=tournament).values_list("player_a_id", "player_b_id"):
        player_ids.update(p for p in (a, b) if p is not None)
    subs = Substitution.objects.filter(entry__tournament=tournament)
    player_ids.update(subs.values_list("player_in_id", flat=True))
    alone = IndividualEntry.objects.filter(tournament=tournament)
    player_ids.update(alone.values_list("player_id", flat=True))
    users = Player.objects.filter(pk__in=player_ids, user__isnull=False).values_list("user_id", flat=True)
    live = Match.objects.filter(tournament=tournament, live_table__isnull=False, status=MatchStatus.SCHEDULED)
    return tables.bar_spectators(table_ids=live.values_list("live_table", flat=True), user_ids=users)
