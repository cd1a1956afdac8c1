"""Formats for Ukrainian pages."""
