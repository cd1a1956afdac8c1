"""Tournaments: pairing and seating time and quality, results and standings on the database."""
