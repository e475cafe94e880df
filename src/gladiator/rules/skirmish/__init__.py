"""The 1999 GLADIATOR skirmish rules: secret written moves, initiative, a d20 wound table."""

from gladiator.rules.skirmish import tables as _tables
from gladiator.rules.skirmish.engine import SkirmishRules

__all__ = ["SkirmishRules"]

_tables.tables()  # check the tables at import, not in the middle of a match
