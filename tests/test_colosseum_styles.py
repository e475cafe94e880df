"""§19 fighting styles (Advanced Game, option `advanced`): the options `styles` and `weapons`
(rulings F1, F2) with their one-line refusals, the styled log sheet (F4: armour, shield and move
per T37), the kit in hand (F3), the Crupellarius's kneel, and that the Basic Game is untouched."""

from __future__ import annotations

from typing import Any, get_args

import pytest

from colosseum_helpers import RULES, RiggedDice, duel, of_type, play
from colosseum_styles_helpers import arena, styled
from gladiator.core.dice import Dice
from gladiator.rules.colosseum.kit.styles import armour_value, style_keys, style_roll
from gladiator.rules.colosseum.options import StyleChoice
from gladiator.rules.colosseum.sheet.logsheet_input import log_sheet_from_dict
from gladiator.rules.colosseum.sheet.logsheet_roll import roll_log_sheet
from gladiator.rules.colosseum.tables.advanced_tables import advanced_tables
from gladiator.rules.colosseum.tables.sheet_tables import Armour


def options(**given: Any) -> dict[str, Any]:
    return RULES.normalise_options(given)


def start(seed: int = 1, **given: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The initial state's gladiators (as dicts) and the events of the set-up."""
    dice = Dice(seed)
    state, events = RULES.initial_state(options(advanced=True, **given), dice)
    return {s: g.to_dict() for s, g in state.gladiators.items()}, events


# --- the options (§19, F1, F2) --------------------------------------------------------------------


def test_s19_the_options_schema_offers_every_style_as_a_choice() -> None:
    """The lobby draws choice lists from the schema: `styles` items are an enum of T37's styles
    (in chart order) with "random" and "standard"; `weapons` is one text per seat, T19 names
    separated by commas, written back lower-cased and without spaces."""
    schema = RULES.options_schema()
    styles = schema["properties"]["styles"]["items"]["enum"]
    fighters = list(advanced_tables().styles.beast_fighters.styles)  # §28.2, against a beast
    assert styles == ["random", "standard", *style_keys(), *fighters]
    assert set(get_args(StyleChoice)) == {
        "random",
        "standard",
        *advanced_tables().styles.t37.styles,
        *fighters,
    }
    assert schema["properties"]["weapons"]["items"]["type"] == "string"
    given = options(advanced=True, styles=["dimachaeri", "gallus"], weapons=[" Sword, axe", ""])
    assert given["weapons"] == ["sword,axe", ""]


def test_s19_the_default_styles_are_random_and_play_only_with_advanced() -> None:
    """F1: `styles` defaults to random for both; a Basic Game refuses a style or a weapon."""
    assert options()["styles"] == ["random", "random"]
    for given in ({"styles": ["velite", "gallus"]}, {"weapons": ["axe", ""]}):
        with pytest.raises(ValueError, match="set advanced = true") as info:
            options(**given)
        assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    ("given", "message"),
    [
        (
            {"styles": ["velite", "gallus"], "gladiators": ["heavy", "random"]},
            "styles[0]: a Velite is a light gladiator, but gladiators[0] is heavy (§19)",
        ),
        (
            {"styles": ["contra_retiarius", "random"]},
            "a Contra-Retiarius fights only a Retiarius (§19.2.3)",
        ),
        (
            {"styles": ["dimachaeri", "gallus"], "weapons": ["sword,maul", ""]},
            "a Dimachaeri cannot pair a maul: two-handed weapons cannot be used in a pair (§24.4)",
        ),
        (
            {"styles": ["dimachaeri", "gallus"], "weapons": ["sword,flail", ""]},
            "the flail cannot be used in a pair (§24.4)",
        ),
        (
            {"styles": ["dimachaeri", "gallus"], "weapons": ["sword", ""]},
            "a Dimachaeri fights with two weapons, not 1 (§24)",
        ),
        (
            {"styles": ["dimachaeri", "gallus"], "weapons": ["sword,club", ""]},
            "weapons[0]: 'club' is not a T19 weapon (§21)",
        ),
        (
            {"styles": ["velite", "gallus"], "weapons": ["sword", ""]},
            "a Velite's weapons are fixed by his style (javelin, T37)",
        ),
        (
            {"styles": ["retiarius", "gallus"], "weapons": ["trident,axe", ""]},
            "a Retiarius carries the trident, and may add a dagger (§19.3.2, §21.3.1)",
        ),
        (
            {"styles": ["myrmillo", "gallus"], "weapons": ["trident", ""]},
            "a Myrmillo cannot take the trident: only the Retiarius uses it",
        ),
        (
            {"styles": ["myrmillo", "gallus"], "weapons": ["", "hook"]},
            "weapons[1]: a Gallus cannot take the hook: it is a shield (§21.5)",
        ),
        (
            {"styles": ["contra_retiarius", "retiarius"], "weapons": ["maul", ""]},
            "a Contra-Retiarius fights with his hook (§19.2.3)",
        ),
        (
            {"styles": ["random", "gallus"], "weapons": ["axe", ""]},
            "choose a style (styles[0]) to choose his weapons (§19)",
        ),
        ({"styles": ["myrmillo"]}, "one entry per gladiator (2), not 1"),
        ({"styles": ["bestiarius", "gallus"]}, "a bestiarius fights beasts"),  # §28.2, B1
    ],
)
def test_s19_a_choice_the_rules_forbid_is_refused_in_one_line(
    given: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValueError) as info:
        options(advanced=True, **given)
    text = str(info.value)
    assert "\n" not in text and message in text, text


@pytest.mark.parametrize("beasts", ["blue:bear", "blue:wolf,green:leopard"], ids=["hunt", "pack"])
def test_s19_2_3_a_contra_retiarius_fights_no_beast(beasts: str) -> None:
    """§19.2.3, F1: a Contra-Retiarius fights only a Retiarius, so a hunt and a pack both refuse
    him, in the same one line."""
    seats = len(beasts.split(","))
    with pytest.raises(ValueError) as info:
        options(advanced=True, beasts=beasts, styles=["contra_retiarius"] + ["random"] * seats)
    text = str(info.value)
    assert "\n" not in text
    assert text.endswith(
        "styles[0]: a Contra-Retiarius fights only a Retiarius (§19.2.3), not beasts"
    ), text


def test_s19_choices_the_rules_allow_are_accepted() -> None:
    """F2: a Dimachaeri's axe and dagger, a Retiarius's dagger, a Gallus's maul, the standard
    style's spear (a sword style), a Contra-Retiarius against a Retiarius."""
    for given in (
        {"styles": ["dimachaeri", "gallus"], "weapons": ["axe,dagger", ""]},
        {"styles": ["retiarius", "gallus"], "weapons": ["trident,dagger", "maul"]},
        {"styles": ["standard", "gallus"], "weapons": ["spear", ""]},
        {"styles": ["retiarius", "contra_retiarius"]},
    ):
        assert options(advanced=True, **given)["styles"] == given["styles"]


def test_s19_1_random_settles_the_class_then_rolls_among_its_styles() -> None:
    """F1, §3.4: red random: 1D3 = 3 → heavy, then one die over the heavy styles in chart order
    (Gallus, Hoplomachus, Cataphractarius, Crupellarius): 4 → Crupellarius. Blue, given medium,
    rolls no class: 3 → Retiarius."""
    dice = RiggedDice(1, {"§3.4": [5], "§19.1": [4, 3]})
    state, _events = RULES.initial_state(
        options(advanced=True, gladiators=["random", "medium"]), dice
    )
    assert [state.gladiators[s].style for s in ("red", "blue")] == ["crupellarius", "retiarius"]
    rolls = [r for r in dice.log if r.rule in ("§3.4", "§19.1")]
    assert [(r.rule, r.notation) for r in rolls] == [
        ("§3.4", "1D3"),
        ("§19.1", "1D4"),
        ("§19.1", "1D4"),
    ]
    assert "1 Gallus, 2 Hoplomachus, 3 Cataphractarius, 4 Crupellarius" in rolls[1].purpose
    assert dice.spent()


def test_s19_2_3_a_random_roll_gives_a_contra_retiarius_only_against_a_retiarius() -> None:
    """F1: the light pool is Myrmillo, Velite, Thracian; against a settled Retiarius it has the
    Contra-Retiarius too (fixed seats are settled before random ones)."""
    assert style_roll("light", None) == ("myrmillo", "velite", "thracian")
    assert style_roll("light", "secutor") == ("myrmillo", "velite", "thracian")
    assert style_roll("light", "retiarius")[-1] == "contra_retiarius"
    dice = RiggedDice(1, {"§19.1": [4]})
    state, _ = RULES.initial_state(
        options(advanced=True, gladiators=["light", "random"], styles=["random", "retiarius"]),
        dice,
    )
    assert state.gladiators["red"].style == "contra_retiarius"
    assert state.gladiators["red"].hook and state.gladiators["red"].sheet.shield == "small"


def test_s19_standard_is_the_standard_style_of_his_class() -> None:
    """§19.2, §19.3, §19.4: Myrmillo, Secutor, Gallus."""
    for cls, key in (("light", "myrmillo"), ("medium", "secutor"), ("heavy", "gallus")):
        glads, _ = start(gladiators=[cls, cls], styles=["standard", "standard"])
        assert glads["red"]["style"] == key and glads["red"]["weapons"] == ["sword"]


# --- the styled log sheet (§19, F4) ---------------------------------------------------------------


def test_s19_2_1_a_velite_rolls_no_armour_wears_none_moves_7_and_carries_six_javelins() -> None:
    """§19.2.1, A17: no armour roll at all (the first die of his sheet is a characteristic), every
    area bare, a small shield, move 7; a javelin in hand and five more carried."""
    dice = RiggedDice(1, {})
    state, events = RULES.initial_state(options(advanced=True, styles=["velite", "secutor"]), dice)
    red = state.gladiators["red"]
    first = next(r for r in dice.log if r.rule in ("§3.10", "§3.11.1"))
    assert first.rule == "§3.11.1"
    assert [str(a) for a in red.sheet.armour] == ["-"] * 5 and red.sheet.armour_roll is None
    assert red.sheet.shield == "small" and red.has_shield
    assert red.sheet.move == 7
    assert red.weapons == ("javelin",) and red.spare == ("javelin",) * 5
    assert "Velite (light)" in of_type(events, "gladiator")[0]["text"]


def test_s19_3_2_a_retiarius_has_no_helmet_no_shield_moves_6_and_holds_net_and_trident() -> None:
    """§19.3.2: T2 roll 3 gives head A; a Retiarius's head is bare all the same; no shield;
    move 6; the net (§20) and the trident in his hands."""
    dice = RiggedDice(1, {"§3.10": [3, 3]})
    state, _ = RULES.initial_state(options(advanced=True, styles=["retiarius", "secutor"]), dice)
    red, blue = state.gladiators["red"], state.gladiators["blue"]
    assert [str(a) for a in red.sheet.armour] == ["-", "-", "C", "C5", "A4"]
    assert red.sheet.shield is None and not red.has_shield and red.sheet.shield_track == ()
    assert red.sheet.move == 6 and red.net and red.weapons == ("trident",)
    # §3.10.2: his opponent carries a small shield although T2 roll 3 is large.
    assert blue.sheet.shield == "small" and blue.sheet.opponent_is_retiarius


def test_s19_3_1_a_provocator_always_wears_a_full_chest_plate() -> None:
    """§19.3.1: T2 roll 3 leaves the chest bare; a Provocator's is A (full) whatever he rolls."""
    dice = RiggedDice(1, {"§3.10": [3]})
    state, _ = RULES.initial_state(options(advanced=True, styles=["provocator", "secutor"]), dice)
    red = state.gladiators["red"].sheet
    assert str(red.armour_of("chest")) == "A" and str(red.armour_of("head")) == "A"
    assert red.move == 5 and red.shield == "large"


def test_s19_4_4_a_crupellarius_rolls_twice_and_keeps_the_better_armour_per_area() -> None:
    """§19.4.4, A19: T3 rolls 1 (A4 B5 C B4 B4) and 4 (A B4 A2 B4 A4): head A (8 > 5.3), chest
    B5 (5 > 4), groin C (3 > 2.7), arms B4 (a tie: the first), legs A4 (5.3 > 4); move 3."""
    dice = RiggedDice(1, {"§3.10": [1, 4]})
    state, _ = RULES.initial_state(options(advanced=True, styles=["crupellarius", "secutor"]), dice)
    red = state.gladiators["red"].sheet
    assert [str(a) for a in red.armour] == ["A", "B5", "C", "B4", "A4"]
    assert (red.armour_roll, red.armour_roll_2, red.move) == (1, 4, 3)
    assert armour_value(Armour.model_validate("A2")) < armour_value(Armour.model_validate("C"))


def test_s19_4_4_a_crupellarius_who_kneels_checks_for_a_fall() -> None:
    """§19.4.4, §15.4: his KN makes him roll 2D6 + AG (1): 2 + 1 = 3 < 7, he lies Prone instead
    of kneeling; a Secutor's KN asks for no such roll."""
    state = arena("crupellarius", "secutor", gap=4)
    events = play(state, RiggedDice(1, {"§19.4.4": [(1, 1)]}), red="KN", blue="KN")
    assert state.gladiators["red"].posture == "prone"
    assert state.gladiators["blue"].posture == "kneeling"
    assert len(of_type(events, "fall_prone_check")) == 1
    state = arena("crupellarius", "secutor", gap=4)
    play(state, RiggedDice(1, {"§19.4.4": [(3, 3)]}), red="KN", blue="X")
    assert state.gladiators["red"].posture == "kneeling"


def test_s19_3_4_s19_4_1_the_kit_of_a_pair_and_of_a_spearman() -> None:
    """F3: a Dimachaeri has both swords in hand and no shield; a Hoplomachus the spear in hand,
    the sword carried, and a small shield; a Gallus who takes a maul leaves his shield (F2)."""
    glads, _ = start(styles=["dimachaeri", "hoplomachus"])
    assert glads["red"]["weapons"] == ["sword", "sword"] and not glads["red"]["has_shield"]
    assert glads["red"]["sheet"]["shield"] is None
    assert glads["blue"]["weapons"] == ["spear"] and glads["blue"]["spare"] == ["sword"]
    assert glads["blue"]["sheet"]["shield"] == "small"
    glads, _ = start(styles=["gallus", "retiarius"], weapons=["maul", "trident,dagger"])
    assert glads["red"]["weapons"] == ["maul"] and glads["red"]["sheet"]["shield"] is None
    assert glads["blue"]["spare"] == ["dagger"] and glads["blue"]["net"]


def test_s19_a_styled_sheet_reads_back_and_a_wrong_one_is_refused() -> None:
    """F4: a styled sheet survives to_dict / log_sheet_from_dict; a Velite in armour, a Retiarius
    with a helmet or a shield, a Provocator with a bare chest are refused in one line."""
    for key in ("velite", "retiarius", "provocator", "crupellarius", "dimachaeri"):
        sheet = styled(key)
        assert log_sheet_from_dict(sheet.to_dict()) == sheet
    bad = [
        ({"style": "velite", "armour_roll": 2}, "a Velite makes 0 armour roll(s), not 1"),
        (
            {
                **styled("velite").to_dict(),
                "armour": {**styled("velite").to_dict()["armour"], "legs": "A"},
            },
            "armour legs A is not a Velite's - for rolls none (§19.2.1)",
        ),
        (
            {
                **styled("retiarius").to_dict(),
                "armour_roll": None,
                "armour": {**styled("retiarius").to_dict()["armour"], "head": "A"},
            },
            "a Retiarius has no helmet (§19.3.2)",
        ),
        (
            {**styled("retiarius").to_dict(), "shield": "small"},
            "shield small is not a Retiarius's None",
        ),
        (
            {
                **styled("provocator").to_dict(),
                "armour_roll": None,
                "armour": {**styled("provocator").to_dict()["armour"], "chest": "-"},
            },
            "a Provocator's chest armour is A (§19.3.1)",
        ),
        ({**styled("myrmillo").to_dict(), "move": 7}, "move 7 is not the myrmillo rate 6 (§19)"),
        (
            {**styled("myrmillo").to_dict(), "style": "gladiator"},
            "style 'gladiator' is not on the Gladiator chart",
        ),
    ]
    for data, message in bad:
        if "class" not in data:
            data = {**styled("myrmillo").to_dict(), **data}
            data.pop("armour")
            data["class"] = "light"
        with pytest.raises(ValueError) as info:
            log_sheet_from_dict(data)
        text = str(info.value)
        assert "\n" not in text and message in text, text


def test_s19_a_basic_game_sheet_and_match_are_as_before() -> None:
    """With `advanced` off nothing of §19 is written: no style on the sheet or the gladiator, the
    class as the seat label, the same dice as a sheet rolled without a style."""
    sheet = roll_log_sheet(Dice(4), "medium", id=5, name="x")
    assert "style" not in sheet.to_dict() and "armour_roll_2" not in sheet.to_dict()
    state = duel(2)
    g = state.gladiators["red"].to_dict()
    assert not {"style", "weapons", "spare", "net", "hook"} & set(g)
    assert RULES.seat_label(state, "red") == state.gladiators["red"].sheet.gladiator_class


def test_s19_the_seat_label_names_class_and_style() -> None:
    """A batch reports by class and by style (sim report): "light/Velite"."""
    state = arena("velite", "gallus")
    assert RULES.seat_label(state, "red") == "light/Velite"
    assert RULES.seat_label(state, "blue") == "heavy/Gallus"
