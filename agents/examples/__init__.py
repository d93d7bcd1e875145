"""Example agents to copy from: see ``my_agent.py``."""
