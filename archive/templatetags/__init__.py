"""Template tags of the archive for pages of other apps."""
