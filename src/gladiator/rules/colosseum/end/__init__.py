"""The end of a phase, a turn and the match (§5.2.7, §5.4, §18, §27.7, §28)."""
