"""The Colosseum tactician (`bot.py`): a fast heuristic player of the Basic and Advanced Game,
with what it knows of the weapon in hand, walls and Blood counters (`advanced_kit.py`), §22's
special attacks and defences (`specials.py`), the net, Repel Net, escape and drag (`nets.py`),
and its judgement of poses and of what the opponent will do (`judgement.py`)."""

from gladiator.bots.tactician.bot import TacticianBot, Weights

__all__ = ["TacticianBot", "Weights"]
