"""The game: the pure rules engine, live tables, their sockets, pages and tasks."""
