"""The engine's heuristic (V4): the fitted value function and the material score."""
