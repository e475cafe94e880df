"""The centurion's Retiarius actions (§29.5, T29), on the net orders of §20 (nets.py).

C8 (docs/rulings.md): the Repel Net check (§29.5.1.1, in `centurion_movement`) is made when the
plot decision offers RN, and the T29 roll (§29.5.2) when it offers a net attack (`F +TN`,
`X +LN2`): he writes the first offered plot that carries the code rolled.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from gladiator.rules.colosseum.state import Gladiator
from gladiator.rules.colosseum.tables.advanced_tables import advanced_tables

__all__ = ["is_retiarius", "net_attack", "net_option", "offers_net_attack"]


def is_retiarius(g: Gladiator) -> bool:
    """C8: no gladiator has a fighting style before §19 is played."""
    return getattr(g, "style", None) == "retiarius"


def net_attack(rng: random.Random) -> tuple[str, int | None]:
    """§29.5.2, T29 (A18): the net attack of a centurion Retiarius, and a Net Lay's hex: the one
    die picks both, "Net Lay ('1' = left, '2' = center, '3' = right)" on 1-3."""
    row = advanced_tables().centurions.t29.row(rng.randint(1, 6))
    return row.attack, row.lay_hex


_NET_CODES = ("LN", "SN", "TN")


def _tokens(text: str) -> list[str]:
    return [t.lstrip("+").upper() for t in text.split()]


def offers_net_attack(texts: Sequence[str]) -> bool:
    return any(tok[:2] in _NET_CODES for t in texts for tok in _tokens(t))


def net_option(texts: Sequence[str], code: str, lay: int | None) -> str | None:
    """The offered plot that writes this net attack (and a Net Lay's hex), if any (C8)."""
    with_code = [t for t in texts if any(tok.startswith(code) for tok in _tokens(t))]
    if lay is not None:
        exact = [t for t in with_code if any(tok.endswith(str(lay)) for tok in _tokens(t))]
        with_code = exact or with_code
    return with_code[0] if with_code else None
