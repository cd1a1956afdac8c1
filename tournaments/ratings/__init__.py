"""Where the rating model lived before ratings had an app of their own (`ratings.core`): kept only so
that `python -m tournaments.ratings predict`, which scripts call, still runs it."""
