"""The rating model: accuracy against its peers, updates per second, the full recompute."""
