"""The CFs available (§9.3.1, E2) and how the log shows them after engagement: a line per man
where men fight (his targets named where the match has more than two figures, §27.1), one line
for the man and his beasts in a beast hunt (§28.6), in the wording each shape's records have
always had, so that they replay; a beast match's line also names a pair's bonus (§24.2), as the
men's lines do."""

from __future__ import annotations

from collections.abc import Sequence

from gladiator.core.protocol import Event
from gladiator.rules.colosseum.beasts.beast_combat import beast_cf, strikable
from gladiator.rules.colosseum.campaign.campaign_prestige import prestige_bonus
from gladiator.rules.colosseum.combat.talent_combat import mastery_bonus
from gladiator.rules.colosseum.combat.weapon_combat import cf_bonus
from gladiator.rules.colosseum.events import event
from gladiator.rules.colosseum.state import ColosseumState, Gladiator
from gladiator.rules.colosseum.vocabulary import AREAS

__all__ = ["cfs_available", "settle"]

STUMBLE_CF_PENALTY = 2  # §15.5


def cfs_available(g: Gladiator, foes: Sequence[Gladiator] = ()) -> tuple[int, list[str]]:
    """§9.3.1 (E2): his CFs available with his PA as set, and how they were reached: plus his PB
    with one of `foes` in his combat front (§35.4.2, X4), less 2 for a Stumble (§15.5), plus a
    pair's bonus (§24.2, F9), less a net attack's cost (§20.3.2, §9.3.2.2), halved if Prone
    (§16.3)."""
    avail = g.sheet.available_cf(g.pa)
    notes = [f"CF {g.sheet.current_cf}", f"PA {g.pa:+d}", f"Stun −{g.sheet.stun_in_effect}"]
    pb = prestige_bonus(g, foes)  # §35.4.2 (X4): 0 but in the Campaign Game
    if pb:
        avail += pb
        notes.append(f"PB +{pb} (§35.4.2)")
    if g.stumbling:  # §15.5
        avail -= STUMBLE_CF_PENALTY
        notes.append("stumbling −2 (§15.5)")
    bonus, rule = cf_bonus(g)  # §24.2 (F9)
    if bonus:
        avail += bonus
        notes.append(f"two weapons +{bonus} ({rule})")
    mastery = mastery_bonus(g)  # §36.3 MS (TL4)
    if mastery:
        avail += mastery
        notes.append(f"Weapon Mastery +{mastery} (§36.3)")
    if g.net_cf:  # §20.3.2, §9.3.2.2: the net attack made this phase
        avail -= g.net_cf
        notes.append(f"net attack −{g.net_cf} (§20.3.2)")
    if g.posture == "prone":  # §16.3 (E2)
        avail = max(avail, 0) // 2
        notes.append("Prone: half, defence only (§16.3)")
    return avail, notes


def settle(state: ColosseumState, named: bool) -> list[Event]:
    """Everyone's CFs available once who may attack whom and the PA are known (§9.3.1), and
    what the log says of them. A man's PB counts against the men he may attack (X4; in a duel
    his one opponent), never against a beast."""
    men = [g for g in state.gladiators.values() if g.beast is None]
    beasts = [b for b in state.gladiators.values() if b.beast is not None]
    for b in beasts:
        b.available = beast_cf(b)  # B6
    lines: list[Event] = []
    pair = ""
    for g in men:
        foes = [state.gladiators[t] for t, _, _ in g.targets] if named else [state.opponent(g.seat)]
        g.available, notes = cfs_available(g, [f for f in foes if f.beast is None])
        lines.append(_man_line(g, notes, named))
        pair = next((n for n in notes if n.startswith("two weapons")), "")
    if beasts:
        return [_hunt_line(state, men[0], beasts, named, pair)]
    return lines


def _man_line(g: Gladiator, notes: list[str], named: bool) -> Event:
    extra: dict[str, object] = {}
    if named:
        aims = "; may attack " + ", ".join(
            f"{t} (PA {pa:+d}{f', one attack up to {cap} CF (§27.5)' if cap > 8 else ''})"
            for t, pa, cap in g.targets
        )
        tail = aims if g.may_attack else "; he may not attack"
        extra["targets"] = [t for t, _, _ in g.targets]
    else:
        tail = "" if g.may_attack else "; he may not attack"
    return event(
        "available",
        "§9.3.1",
        f"{g.seat}: {', '.join(notes)} → {g.available} CF available{tail}",
        seat=g.seat,
        available=g.available,
        may_attack=g.may_attack,
        **extra,
    )


def _hunt_line(
    state: ColosseumState, g: Gladiator, beasts: list[Gladiator], named: bool, pair: str = ""
) -> Event:
    """§28.6 (B6, B15): each beast's CFs, then his (with a pair's bonus, §24.2, as the duel's
    line has it), with what he may strike on each (T24)."""
    cf = f"{g.available} CF available" + (f" ({pair})" if pair else "")
    notes = []
    for b in beasts:
        assert b.beast is not None
        bonus = b.available - b.sheet.available_cf(b.pa)  # a reared bear's (B6)
        head = (
            f"{b.seat} ({b.beast.name}) CF {b.sheet.current_cf}, PA {b.pa:+d}"
            if named
            else f"{b.seat} ({b.beast.name}): CF {b.sheet.current_cf}, PA {b.pa:+d}, Stun "
            f"−{b.sheet.stun_in_effect}"
        )
        reach = (
            "" if b.may_attack else (", it cannot reach him" if named else "; it cannot reach him")
        )
        notes.append(
            head + (f", reared +{bonus}" if bonus else "") + f" → {b.available} CF" + reach
        )
    if not named:
        b = beasts[0]
        areas = " ".join(str(AREAS.index(a) + 1) for a in strikable(b, g))
        return event(
            "available",
            "§28.6",
            notes[0]
            + f". {g.seat}: {cf}, PA {g.pa:+d}"
            + (f", may strike areas {areas} (T24)" if g.may_attack else "; he may not attack"),
            seat=g.seat,
            available=g.available,
            may_attack=g.may_attack,
        )

    def aim(t: str, pa: int) -> str:
        areas = " ".join(str(AREAS.index(a) + 1) for a in strikable(state.gladiators[t], g))
        return f"{t} (PA {pa:+d}, areas {areas})"

    aims = "; ".join(aim(t, pa) for t, pa, _ in g.targets)
    return event(
        "available",
        "§28.6",
        "; ".join(notes)
        + f". {g.seat}: {cf}"
        + (f", may attack {aims} (T24)" if g.targets else "; he may not attack"),
        seat=g.seat,
        available=g.available,
        may_attack=g.may_attack,
        targets=[t for t, _, _ in g.targets],
    )
