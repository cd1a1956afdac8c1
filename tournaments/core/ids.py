"""The one identifier type shared by the pure tournament core."""

from typing import TypeAlias

EntryId: TypeAlias = int
"""An entry (a fixed pair of players) as the database knows it: its primary key."""
