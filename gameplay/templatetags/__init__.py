"""Template filters of the live tables."""
