"""Public pages and the API under load: requests/s, latency, CPU per request, freshness."""
