"""The pure engine: the double-dummy solver's time per deal."""
