"""Formats for English pages."""
