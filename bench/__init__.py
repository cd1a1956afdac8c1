"""Benchmarks: scripts that print figures, by subject, run as modules from the repository root."""
