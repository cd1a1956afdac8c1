"""`python -m tournaments.ratings predict`: the same command as `python -m ratings.core predict`."""

import sys

from ratings.core.__main__ import main

if __name__ == "__main__":
    sys.exit(main())
