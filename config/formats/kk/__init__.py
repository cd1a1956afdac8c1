"""Formats for Kazakh pages."""
