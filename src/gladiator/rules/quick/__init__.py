"""The quick rules (Penny Whistle #48): Heavy, Medium, Light and Retiarius, action points."""

from gladiator.rules.quick import tables as _tables
from gladiator.rules.quick.engine import QuickRules

__all__ = ["QuickRules"]

_tables.tables()  # check the tables file at import, not in the middle of a match
