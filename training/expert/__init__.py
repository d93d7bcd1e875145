"""Warm start from the search: expert games and a network fitted to them."""
