"""§23 unarmed combat (Advanced Game): a man with no weapon may strike an adjacent opponent at
half CF and +1 Spd (§23.1, §23.2); shield hits are ignored, parries wound his own arms (A14,
F15); a body hit stuns and calls for a critical roll on the Stun (F16)."""

from __future__ import annotations

from typing import Any

from colosseum_helpers import RiggedDice, of_type, play
from colosseum_styles_helpers import arena, to_combat
from gladiator.rules.colosseum.state import ColosseumState

CRT = "§9.5.1"


def bare(state: ColosseumState, seat: str = "red") -> None:
    """He has lost his weapon and carries no other (F5)."""
    g = state.gladiators[seat]
    g.weapons, g.spare, g.has_weapon = (), (), False


def unarmed_attack(
    script: dict[str, list[Any]], *, blue: str = "secutor", red_order: str = "A4:head"
) -> tuple[ColosseumState, list[dict[str, Any]]]:
    """A bare-handed Myrmillo toe to toe with `blue`; red's 4 CF are halved to 2 (column 2
    against no defence)."""
    state = arena("myrmillo", blue)
    bare(state)
    to_combat(state)
    events = play(state, RiggedDice(1, script), red=red_order, blue="D5:arms")
    return state, events


def test_s23_1_with_advanced_on_a_man_without_a_weapon_may_strike_an_adjacent_opponent() -> None:
    """§23.1 (E4 gives way): adjacent and in his 1-hex front he may attack; two hexes off not."""
    state = arena("myrmillo", "secutor")
    bare(state)
    to_combat(state)
    assert state.gladiators["red"].may_attack
    state = arena("myrmillo", "hoplomachus", gap=2, sand_reach="weapon")  # S10: no sand
    bare(state)
    to_combat(state)
    assert not state.gladiators["red"].may_attack and state.gladiators["blue"].may_attack


def test_s23_2_unarmed_attacks_are_at_half_cf_and_plus_1_spd() -> None:
    """§23.2: one attack: T10 round 3 + 1 = 4; 4 CF halved to 2."""
    _, events = unarmed_attack({CRT: [(1, 1, 3)]})  # column 2, 5: "-"
    (attack,) = of_type(events, "crt")
    assert attack["round"] == 4 and "2 CF against 0 defence" in attack["text"]
    assert "unarmed" in of_type(events, "half_cf")[0]["text"]


def test_s23_2_1_a_shield_hit_from_bare_hands_is_ignored() -> None:
    """§23.2.1: column 2, 7: S against the Secutor's shield: no shield damage roll, no effect."""
    state, events = unarmed_attack({CRT: [(2, 2, 3)]})
    assert of_type(events, "unarmed") and not of_type(events, "shield_damage_roll")
    assert state.gladiators["blue"].sheet.shield_marked == 0


def test_s23_2_1_a_parry_wounds_the_attackers_own_arms() -> None:
    """§23.2.1, A14, F15: column 2, 10: P; the Secutor rolls no weapon drop: red rolls for wounds
    to his own (bare) arms as an H+0: WHITE 4+4+4 = 12 → 2 wounds, −1 CF."""
    state, events = unarmed_attack({CRT: [(3, 3, 4)], "§10.1": [(4, 4, 4, 1, 1)]})
    red = state.gladiators["red"].sheet
    assert red.wounds_in("arms") == 2 and red.current_cf == 12
    assert not of_type(events, "drop_roll")
    assert state.gladiators["blue"].sheet.wounds == (0, 0, 0, 0, 0)


def test_s23_2_1_against_a_man_with_no_shield_the_s_is_parried_and_wounds_the_fist() -> None:
    """F15: the kit converts first (§9.6): a Dimachaeri has no shield, so the S (column 2, 7)
    is a parry, and the bare-handed attacker's arms take the wound roll."""
    state, events = unarmed_attack(
        {CRT: [(2, 2, 3)], "§10.1": [(4, 4, 4, 1, 1)]}, blue="dimachaeri"
    )
    assert state.gladiators["red"].sheet.wounds_in("arms") == 2
    assert any("S becomes P" in e["text"] for e in of_type(events, "conversion"))


def test_s23_2_3_a_body_hit_stuns_instead_of_wounding() -> None:
    """§23.2.3, F16: column 2, 17: H; 2D6 5 + ST 2 + 2 × 0 = 7 on T7's Stun row: Stun 1; then
    the critical roll RED 1 + BLACK 1 + 1 (Stun) = 3 on the head: "-". No wound."""
    script = {CRT: [(5, 6, 6)], "§23.2.3": [(2, 3)], "§23.3": [(1, 1)]}
    state, events = unarmed_attack(script)
    blue = state.gladiators["blue"].sheet
    assert blue.stun_in_effect == 1 and blue.wounds == (0, 0, 0, 0, 0)
    assert "= 3 on Head" in of_type(events, "critical_roll")[0]["text"]
    assert not of_type(events, "wound_roll")


def test_s23_2_3_the_h_bonus_counts_twice_in_the_stun_roll() -> None:
    """§23.2.3: red's 8 CF halved to 4 (column 4), 17: H+1: 2D6 5 + ST 2 + 2 × 1 = 9 → Stun 2
    (the bonus counted once, 8, would give Stun 1)."""
    script = {CRT: [(5, 6, 6)], "§23.2.3": [(2, 3)], "§23.3": [(1, 1)]}
    state, events = unarmed_attack(script, red_order="A8:chest")
    assert "H+1" in of_type(events, "crt")[0]["text"]
    assert state.gladiators["blue"].sheet.stun_in_effect == 2


def test_s23_3_h_m_k_and_sa_criticals_only_make_him_check_for_a_fall() -> None:
    """§23.3.1, §23.3.2, F16: Stun 1 and RED 6 + BLACK 6 + 1 = 13 on the head: "2x+M": 2x of no
    wounds is none, M is ignored, and the defender checks Fall Prone with −2: 2D6 2 + AG 1 − 2 =
    1 < 7: he falls Prone. No mortal wound is recorded."""
    script = {CRT: [(5, 6, 6)], "§23.2.3": [(2, 3)], "§23.3": [(6, 6)], "§23.3.2": [(1, 1)]}
    state, events = unarmed_attack(script)
    blue = state.gladiators["blue"]
    assert "2x+M" in of_type(events, "critical_roll")[0]["text"]
    assert blue.posture == "prone" and not blue.crits.mortal
    assert blue.sheet.wounds == (0, 0, 0, 0, 0)
    assert "AG 1 -2 = 1" in of_type(events, "fall_prone_check")[0]["text"]


def test_s23_3_1_other_criticals_do_real_damage() -> None:
    """§23.3.1: Stun 1, RED 5 + BLACK 4 + 1 = 10 on the head: "S": Stun 2D6 − CN on top."""
    script = {CRT: [(5, 6, 6)], "§23.2.3": [(2, 3)], "§23.3": [(4, 5)], "§10.5": [(6, 6)]}
    state, events = unarmed_attack(script)
    assert state.gladiators["blue"].sheet.stun_in_effect == 1 + (12 - 4)
    assert "= 10 on Head: S" in of_type(events, "critical_roll")[0]["text"]
