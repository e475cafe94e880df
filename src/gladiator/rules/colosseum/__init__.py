"""GLADIATOR Colosseum Edition: the Basic Game (§2–§18), a first playable engine on tested parts."""

from gladiator.rules.colosseum.engine import ColosseumRules

__all__ = ["ColosseumRules"]
