"""What the Colosseum's orders, badges and log-sheet rows mean, in a sentence each, for front ends
(the web arena's tooltips and help, the terminal's `?`). The notation itself is plots.py's (§7.2),
nets.py's (§20) and cf_allocation.py's (§9.3); this module only explains it."""

from __future__ import annotations

from typing import Any

__all__ = ["glossary"]

# §7.3, §7.4, T39: the actions of a phase plot; §13.3, §13.5 throws and kicks; §20 the net.
_ORDERS: dict[str, str] = {
    "F": "forward one hex (§7.3)",
    "B": "backward one hex, no turn (§7.3)",
    "SFL": "sidestep forward left: one hex to the left-front (§7.3)",
    "SFR": "sidestep forward right: one hex to the right-front (§7.3)",
    "SBL": "sidestep backward left: one hex to the left-rear, no turn (§7.3)",
    "SBR": "sidestep backward right: one hex to the right-rear, no turn (§7.3)",
    "C": "charge: three hexes straight ahead, the whole phase, no turn (§7.4.1)",
    "KN": "kneel, or rise from Prone to Kneeling (§7.4.2, §14, §16)",
    "R": "recover a weapon or shield lying in his hex or the hex in front (§7.4.3, §13.4)",
    "RO": "roll while Prone, one hex to a side: RO-FL, RO-FR, RO-BL, RO-BR (§7.4.4, §16)",
    "S": "stumble: the forced action after a failed Stumble check (§7.4.5, §15)",
    "X": "pause: stay in the hex; he may turn to any facing (§7.4.6)",
    "RN": "repel net: fend off the opponent's net this phase (§20.4)",
    "-": "the empty plot: neither moves nor turns",
    "(L)": "turn one hex-side left (anticlockwise)",
    "(R)": "turn one hex-side right (clockwise)",
    "(2L)": "turn two hex-sides left",
    "(2R)": "turn two hex-sides right",
    "(3R)": "about-face (three hex-sides)",
    "(3L)": "about-face (three hex-sides)",
    "+TW": "throw the weapon (§13.3); the area after - is the one a 6 strikes",
    "+TS": "throw the shield (§13.3); the area after - is the one a 6 strikes",
    "+KW": "kick the weapon on the floor toward the side after - (§13.5)",
    "+KS": "kick the shield on the floor toward the side after - (§13.5)",
    "+TN": "toss the net (§20.5)",
    "+SN": "swing the net (§20.6)",
    "+LN1": "lay the net on the left-front hex (§20.7)",
    "+LN2": "lay the net on the front hex (§20.7)",
    "+LN3": "lay the net on the right-front hex (§20.7)",
    "+LG": "let go of the net that ensnares the opponent (§20.5.6)",
    "+DN": "drop the net into the adjacent hex on the side after - (§20.8.2)",
    # The sides of a roll, a kick or a dropped net (§16, §13.5).
    "-F": "front",
    "-FR": "right-front",
    "-BR": "right-rear",
    "-B": "rear",
    "-BL": "left-rear",
    "-FL": "left-front",
    "-HEAD": "head",
    "-CHEST": "chest",
    "-GROIN": "groin",
    "-ARMS": "arms",
    "-LEGS": "legs",
    # §9.3: the allocation's slots.
    "A": "attack CFs on a body area: A3:head is 3 CF on an attack at the head (§9.3.2)",
    "D": "defence CFs on a body area: D2:arms is 2 CF guarding the arms (§9.3.3)",
}

# The badges a figure carries (presentation._states).
_STATES: dict[str, str] = {
    "kneeling": "Kneeling: lower, cannot move until he rises with KN (§14)",
    "prone": "Prone: on the ground; defends at half CF and may only KN or RO (§16)",
    "face up": "Prone face up (§16.2)",
    "face down": "Prone face down (§16.2)",
    "stumbling": "Stumbling this phase (§15.3)",
    "must stumble": "must plot S next phase: a failed Stumble check (§15.1)",
    "stunned": "Stun in effect: his CFs available are lowered (§11)",
    "unconscious": "unconscious: at his opponent's mercy (§11.4)",
    "unarmed": "no weapon in hand: it was dropped or thrown (§13.2)",
    "no shield": "no usable shield: dropped, thrown or destroyed (§12.3, §13.2)",
    "ensnared": "caught in a net (§20.5.4)",
    "net": "holds a net (§20)",
    "reared": "the beast has reared up (§28)",
    "dead": "dead (§10.6, §18)",
}

# The log sheet's rows (§3).
_ROWS: dict[str, str] = {
    "Class": "light, medium or heavy: sets armour and characteristics (§3.4)",
    "Style": "the fighting style of the Advanced Game (§19, T37)",
    "TR": "training (§3.11)",
    "ST": "strength, current/permanent (§3.11)",
    "AG": "agility, current/permanent (§3.11)",
    "CN": "constitution (§3.11)",
    "W": "weight (§3.11)",
    "CF": "combat factors, current/permanent: what he can spend in a phase (§3.13)",
    "NF": "nerve factor, current/permanent (§3.11, §18)",
    "Move": "movement phases used this turn of his move rate (§3.5, §5.2.1)",
    "Shield": "his shield and its damage (§3.17, §12)",
    "Stun": "Stun in effect: taken off his CFs available (§11)",
    "CF available": "CF he may allocate this phase (§9.3.1)",
    "PA": "positional advantage: extra CF that must go to attack (§9.2, §10.3.3)",
    "Last plot": "his last phase plot, as revealed (§7.2)",
    "Last allocation": "his last CF allocation, as revealed (§9.3)",
    "Armour": "armour on that body area, taken off a wound's roll (§3.10.1, §10.2)",
}

_NOTES: tuple[str, ...] = (
    "A plot is up to two movement actions or one special action (§7.2).",
    "A rotation is written before or after the action it goes with: (R)F turns first and then "
    "moves forward from the new facing; F(R) moves forward and then turns (§7.2.2).",
    "X(2L) is a pause turning two hex-sides left; a pause may end in any facing (§7.4.6).",
    "A throw or kick goes after a +: X +TW-HEAD throws the weapon, F +KW-FL kicks it to the "
    "left-front (§13.3, §13.5).",
    "An allocation gives CF per slot: A3:head A2:chest D2:arms D1:legs; the attacks strike in "
    "the order written (§9.3, Q25). At most 8 CF on one attack and one attack per body area "
    "(§9.3.2, §9.4.1).",
)


def glossary() -> dict[str, Any]:
    """{orders: {token: meaning}, states: {badge: meaning}, rows: {sheet row: meaning},
    notes: [sentences]}."""
    return {
        "orders": dict(_ORDERS),
        "states": dict(_STATES),
        "rows": dict(_ROWS),
        "notes": list(_NOTES),
    }
