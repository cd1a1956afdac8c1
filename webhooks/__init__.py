"""Webhooks and the event stream: integrators follow a tournament without asking again and again."""
