"""What every trainer shares: run folders, checkpoints, logs, option checks, periodic evaluation."""
