"""Setting up a Colosseum match (§4): the roster of figures on their sides (roster.py), each
seat's figure made (figures.py: a gladiator of the Basic Game, a styled one of the Advanced Game,
a beast of §28) and the arena laid out and the figures placed (match.py)."""
