"""The Campaign Game's talents (§36, T36) as the match engine sees them: reading the option
`talents` (one entry per seat, codes separated by commas: "FA,TH,MS:sword,WS:axe"), the
prerequisites a campaign match checks (option `talent_prerequisites`), and the small numbers each
talent changes. Where a talent acts, the module of that step asks `has(g, code)` (talent_combat.py
for combat, sprint.py for Sprinting, plus one line each in items.py, movement_step.py and the log
sheet for TH, HG and TG).

RULINGS (docs/rulings.md, Colosseum Campaign Game, the TL series)

TL1 §36.3, T36, option `talents` (Advanced Game only): per seat, T36 codes separated by commas,
    case-insensitive, "" none. WS and MS name a T19 weapon (`WS:axe`, `MS:sword`); WS may be
    written once per weapon (§36.3 "may be learned once per weapon"), every other code once (MS
    too: "one weapon of his choice"). BR is accepted and stored, but Bravado's +2 PR and +1 on
    the Prestige change roll (§35.5) are the campaign's (prestige is not the match's business).
    Stored on the gladiator as the codes as written, upper-cased (`WS:AXE` reads `WS:axe`).
TL2 §21.1.1, §19.3.2, §19.3.4, §36.3, option `talent_prerequisites` (off by default, on for
    campaign matches): a weapon taken through the option `weapons` that is not one of his
    style's chart weapons (T37) needs WS for it (a Dimachaeri's pair other than swords, a sword
    style's one weapon, the Retiarius's optional dagger); the Retiarius style needs SR and the
    Dimachaeri style needs SD. A style left "random" (the chart's weapons) is never refused: the
    campaign chooses styles itself (§30.2.3.1). Off, any gladiator may take what §19-§24 allow
    (F2 reads the WS talent as granted by the choice).
TL9 §36.3 TH, HG: Throwing's +3 is added to the throw's distance roll (1D6 + Thr, Q10, I3), the
    one roll §13.3 makes before the CRT; Hold Ground's +3 to every collision IF he rolls (T12,
    §8.4; a beast's collision too, B5), not to a wall's (§25.4 rolls no IF).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from gladiator.rules.colosseum.tables.advanced_tables import advanced_tables

__all__ = [
    "CODES",
    "FIND_WEAKNESS",
    "HOLD_GROUND",
    "MASTERY_CF",
    "SPRINT",
    "THROWING_BONUS",
    "chart_weapons",
    "check_prerequisites",
    "format_talents",
    "has",
    "mastered",
    "parse_talents",
    "skilled",
]

# T36 in table order.
CODES = ("WS", "FA", "TH", "HG", "SR", "SD", "SU", "BR", "TG", "SP", "FW", "MS")
_WITH_WEAPON = ("WS", "MS")
THROWING_BONUS = 3  # §36.3 TH, §13.3
MASTERY_CF = 3  # §36.3 MS
HOLD_GROUND = "HG"
SPRINT = "SP"
FIND_WEAKNESS = "FW"


class _Talented(Protocol):
    @property
    def talents(self) -> frozenset[str]: ...


def parse_talents(text: str, where: str = "talents") -> frozenset[str]:
    """TL1: one seat's entry, e.g. "FA, th, MS:sword, WS:axe"; ValueError in one line naming
    §36 if a code is unknown, repeated, or names no T19 weapon."""
    weapons = advanced_tables().weapons.t19.weapons
    out: list[str] = []
    for raw in (w.strip() for w in text.split(",")):
        if not raw:
            continue
        code, colon, arm = (p.strip() for p in raw.partition(":"))
        code = code.upper()
        if code not in CODES:
            raise ValueError(f"{where}: {raw!r} is not a T36 talent ({', '.join(CODES)}) (§36.3)")
        if code in _WITH_WEAPON:
            arm = arm.lower()
            if not colon or arm not in weapons:
                raise ValueError(
                    f"{where}: {code} names a T19 weapon, e.g. {code}:axe (§36.3; weapons: "
                    f"{', '.join(weapons)})"
                )
            entry = f"{code}:{arm}"
        elif colon:
            raise ValueError(f"{where}: {code} names no weapon, not {raw!r} (§36.3)")
        else:
            entry = code
        if entry in out:
            raise ValueError(f"{where}: {entry} is written twice; a talent is learned once (§36.3)")
        if code == "MS" and any(e.startswith("MS:") for e in out):
            raise ValueError(f"{where}: Weapon Mastery is learned once, for one weapon (§36.3)")
        out.append(entry)
    return frozenset(out)


def format_talents(talents: frozenset[str]) -> str:
    """TL1: the canonical entry, in T36's order (WS by weapon): "WS:axe,FA,MS:sword"."""
    return ",".join(sorted(talents, key=lambda t: (CODES.index(t[:2]), t)))


def has(g: _Talented, code: str) -> bool:
    """Whether he has the talent (a code without a weapon: FA, TH, HG, SU, TG, SP, FW ...)."""
    return code in g.talents


def skilled(g: _Talented, weapon: str) -> bool:
    """§36.3 WS: whether he is trained in this optional weapon."""
    return f"WS:{weapon}" in g.talents


def mastered(g: _Talented) -> str | None:
    """§36.3 MS: the weapon he has mastered, or None."""
    return next((t[3:] for t in g.talents if t.startswith("MS:")), None)


def chart_weapons(style_key: str) -> tuple[str, ...]:
    """T37's weapons of a style (or of §28.2's beast fighters)."""
    # T37's styles, or §28.2's beast fighters (Bestiarius, Venator), whose kit is their own.
    styles = advanced_tables().styles
    table = styles.t37.styles if style_key in styles.t37.styles else styles.beast_fighters.styles
    return table[style_key].weapons


def check_prerequisites(
    styles: Sequence[str], weapons: Sequence[Sequence[str]], talents: Sequence[frozenset[str]]
) -> None:
    """TL2: refuse, in one line naming §36, a style or weapon his talents do not allow."""
    needs = {"retiarius": ("SR", "Retiarius Style"), "dimachaeri": ("SD", "Dimachaeri Style")}
    for i, (key, chosen, known) in enumerate(zip(styles, weapons, talents, strict=True)):
        if key in needs and needs[key][0] not in known:
            code, name = needs[key]
            raise ValueError(
                f"talents[{i}]: fighting as a {key.capitalize()} needs the {name} talent ({code}, "
                "§36.3)"
            )
        if key == "random":
            continue  # F2: a random style takes the chart's weapons
        chart = ("sword",) if key == "standard" else chart_weapons(key)
        for w in chosen:
            if w not in chart and f"WS:{w}" not in known:
                raise ValueError(
                    f"talents[{i}]: the {w} is an optional weapon; it needs Weapon Skill WS:{w} "
                    "(§21.1.1, §36.3)"
                )
