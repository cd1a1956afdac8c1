"""Tournaments: leagues, Swiss evenings, knockout cups, brackets and individual events, and their day.

- ``core/``: pure pairing, brackets, movements, standings, tiebreaks, eye scoring and the prize
  allocation (no Django).
- ``models/``: the rows (the event, entries, rounds and matches, the day's plans).
- ``formats/``: one class per format behind one interface (next round, round count, standings).
- ``services/``: every change, by what it changes; ``selectors/``: every read, for the pages.
- ``views/``, ``tasks``, ``day_tasks``, ``consumers``, ``broadcast``: pages, Celery, sockets.

Pages: /clubs/<club>/tournaments/ (list, new), /t/<slug>/ (home, prizes), entries/, results/,
rounds/<n>/ (pairings; print/ and sheets/ for paper), standings/, crosstable/, bracket/,
matches/<id>/ (enter, confirm, dispute, correct), export/{standings,results,seats}.{csv,json},
day/ (the organiser's dashboard), prizes/players/ and prizes/print/ (the organiser's players' details
for the prize categories; the prize list and certificates), live/; /me/matches/ and
/me/notifications/ for a player.
"""
