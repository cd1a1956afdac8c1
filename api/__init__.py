"""The site's public REST API under /api/v1/: the pages' reads as JSON, results written with a key."""
