"""Ratings people compare: Bradley-Terry/Elo and OpenSkill, ladders, ``rate``, ``match``, SPRT."""
