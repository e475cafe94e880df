"""§34: customised armour, bought piece by piece at T35's prices instead of rolled.

Only the standard styles may customise (§34.1 NOTE: every style but Myrmillo, Secutor and Gallus
is specialised). The class allowance (Light 400, Medium 850, Heavy 1,100) is the limit; what is
not spent is not kept (§34.2); with Lanistas the lanista pays from his purse (§34.3). L9: T35
prices armour only, so the shield is his choice of large or small, at no cost.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from gladiator.campaign.errors import CampaignError
from gladiator.campaign.tables import campaign_tables, chart

__all__ = ["AREAS", "armour_cost"]

AREAS = ("head", "chest", "groin", "arms", "legs")
_PIECE = re.compile(r"^(?:-|([ABC])([2-5])?)$")
_FULL = 6


def armour_cost(style: str, pieces: Sequence[str], shield: str) -> int:
    """The sesterces §34 charges for `pieces` (one code per area: "B4", "A" full, "-" none) on
    a gladiator of `style`; refused in one line past the rules."""
    t35 = campaign_tables().t35
    styles = chart()
    if style not in styles:
        raise CampaignError(f"unknown style {style!r}")
    if style not in t35.styles:
        raise CampaignError(
            f"a {styles[style].name} is specialised and may not customise his armour (§34.1)"
        )
    if len(pieces) != len(AREAS):
        raise CampaignError(f"custom armour needs one piece per area ({', '.join(AREAS)})")
    if shield not in ("large", "small"):
        raise CampaignError(f"custom armour's shield is large or small, not {shield!r} (L9)")
    total = 0
    for area, piece in zip(AREAS, pieces, strict=True):
        m = _PIECE.match(piece)
        if m is None:
            raise CampaignError(
                f"armour {piece!r} on the {area} is not '-' or A/B/C with coverage 2-5 (T35)"
            )
        if m[1]:
            total += t35.cost(m[1], int(m[2]) if m[2] else _FULL)
    allowance = t35.allowance[styles[style].gladiator_class]
    if total > allowance:
        raise CampaignError(
            f"the armour costs {total}, over the {styles[style].gladiator_class} allowance "
            f"of {allowance} (§34.2)"
        )
    return total
