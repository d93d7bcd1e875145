"""PPO by self-play: batched collection, an opponent pool, the warm start from expert games."""
