"""Serenissima: Mediterranean trade with galleys, blocking and combat (2-4 players)."""
