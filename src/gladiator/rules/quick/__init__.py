"""The quick rules (Penny Whistle #48): Heavy, Medium, Light and Retiarius, action points."""

from gladiator.registry import register
from gladiator.rules.quick.engine import QuickRules

__all__ = ["QuickRules"]

register(QuickRules())
