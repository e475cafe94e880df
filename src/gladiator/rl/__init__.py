"""Reinforcement learning over the rulesets: environments and a numpy PPO example."""
