"""Ratings: the pure model (`core`), its rows, the recompute from the archive, boards, cards and charts."""
