"""Formats for Russian pages."""
