"""Template tags of the live tables, for pages of other apps."""
