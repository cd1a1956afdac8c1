"""Tournaments for fixed pairs: leagues (round robin), Swiss evenings and knockout cups.

- ``core/``: pure pairing, brackets, standings and eye scoring (no Django).
- ``models``: the rows (tournament, entry = a fixed pair, round, match, deal line, corrections,
  substitutions); ``services``: every change (permission check, one transaction, audit row,
  tasks on commit); ``selectors``: reads for pages, a fixed number of queries each;
  ``tasks``: the auto-confirm sweep (a django-celery-beat row, see ``schedule``) and notifications.

Pages: /clubs/<club>/tournaments/ (list, new), /t/<slug>/ (home, prizes), entries/, results/,
rounds/<n>/ (pairings; print/ and sheets/ for paper), standings/, crosstable/, bracket/,
matches/<id>/ (enter, confirm, dispute, correct), export/{standings,results}.{csv,json};
/me/matches/ for a player.
"""
