"""The bots: their strength over duplicate deals and the time of their decisions."""
