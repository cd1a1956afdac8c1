"""Tournament pages. Reads go through selectors, every write through one service.

- ``events``: a club's list, a new event, its settings, its home; ``entries``: pairs and players;
  ``byes``: a round sat out at the entry's ask;
  ``rounds``: pairings, round options, print views, results; ``standings``: standings,
  crosstable, brackets, exports; ``matches``: a match and a player's matches; ``day``: the
  organiser's dashboard and the live board. ``common`` holds what every page shares.
"""
