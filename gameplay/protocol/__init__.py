"""What goes over the wire: per-viewer views, event frames and snapshots (see `frames.py`)."""
