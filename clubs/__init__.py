"""The clubs app: accounts, players (who may have no account), clubs, their roles and rosters."""
