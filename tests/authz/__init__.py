"""The authorisation matrix: every route and socket action, what each kind of person may do."""
