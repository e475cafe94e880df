"""Match options of the Colosseum Basic Game, checked at the edge with pydantic (strict)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
    model_validator,
)

from gladiator.rules.colosseum.campaign.campaign_entrants import check_entrant_seats
from gladiator.rules.colosseum.kit.styles import check_choices, parse_weapons, style
from gladiator.rules.colosseum.setup.roster import parse_beasts, parse_pack
from gladiator.rules.colosseum.teams import (
    ALL_SEATS,
    MAX_SEATS,
    is_pack,
    pack_beasts,
    parse_teams,
)
from gladiator.rules.common import described, validate_options

__all__ = ["SEAT_NAMES", "ColosseumOptions", "normalise"]

SEAT_NAMES = ("red", "blue")
ClassChoice = Literal["light", "medium", "heavy", "random"]
# §19, T37 (styles.toml, in chart order; a test checks the two agree), F1.
StyleChoice = Literal[
    "random",
    "standard",
    "myrmillo",
    "velite",
    "thracian",
    "contra_retiarius",
    "secutor",
    "provocator",
    "retiarius",
    "dimachaeri",
    "gallus",
    "hoplomachus",
    "cataphractarius",
    "crupellarius",
    # §28.2 (A20, B1): the beast fighters, only against a beast (option `beasts`).
    "bestiarius",
    "venator",
]
_BEAST_FIGHTERS = ("bestiarius", "venator")


def _two_random() -> list[ClassChoice]:
    # As in the quick rules: a match on embedded defaults rolls each class (§3.4), so the
    # arena and `sim colosseum` meet all three classes.
    return ["random", "random"]


def _right_handed() -> list[bool]:
    return [False, False]


def _nobody() -> list[str]:
    return []


def _two_random_styles() -> list[StyleChoice]:
    # F1: as the classes, so `sim colosseum -o advanced=true` meets every style.
    return ["random", "random"]


def _chart_weapons() -> list[str]:
    return ["", ""]


def _no_talents() -> list[str]:
    return ["", ""]


# What the lobby shows beside each option (the schema's descriptions, rules.common.described).
OPTION_NOTES: dict[str, str] = {
    "gladiators": "each gladiator's class in seat order; random rolls 1D3 (§3.4)",
    "board_width": "the arena map's width in hex columns (§4.1, §7.7)",
    "board_height": "the arena map's height in hex rows (§4.1, §7.7)",
    "crt": "which Combat Results Table: the rules' (recommended) or the reference sheet's (Q1)",
    "endurance": "the §17.2 endurance constant: the rules' −4 (recommended) or the sheet's −2 (Q4)",
    "stumble_rule": "the §15.2.1 stumble check: the rules' 1D6 form or the sheet's 2D6 form (Q5)",
    "performance": "the §18.3 performance value in tenths (recommended) or raw (Q7)",
    "left_handed": "per seat: a left-handed gladiator swaps T11's positional advantages (§9.2)",
    "reaction_time": "seconds to write a plot; then one that does nothing is given; 0: off (§7.5)",
    "throw_thr": "a throw's distance: 1D6 + Thr (bonus, recommended) or 1D6 − Thr as printed (Q10)",
    "prone_trip": "knocked Prone and tripped at once: the trip is spent, or he stumbles first (E7)",
    "prone_kn": "a Prone man plotting KN is rising, or at the mercy of whoever enters (§8.3, M5)",
    "advanced": "the Advanced Game, §19-§29: styles, nets, weapons, specials, walls, ...",
    "solitaire": "seats the §29 centurion rules move after the others have plotted",
    "arena_size": "the Arena Size: rolled, or 1 (the Colosseum) to 5 (a Fighting Pit) (§25.2)",
    "walls": "the map's edges may be arena walls (§25, Advanced Game)",
    "wall_stumble": "a collision with a wall is followed by a Stumble check (§25.4, W5)",
    "styles": "a T37 fighting style per seat (§19), or random",
    "weapons": "per seat, where the style lets him choose (§21, §24): e.g. sword,axe",
    "two_weapon_results": "two weapons: his results read as defence, or shifted as attack (§24.3)",
    "beasts": "a beast hunt (§28): seat:kind, e.g. blue:lion (or blue:random)",
    "specials": "special attacks and defences in the allocation (§22, Advanced Game)",
    "sand_loss": "Sand's CF loss: the rules' 2D3 + H bonus or the sheet's 1D3 (Q8)",
    "block_result": "Block turns chest attacks into S (text) or no effect (reference) (Q9)",
    "sand_reach": "Sand flies 2 hexes of its own (own) or only where his weapon strikes (S10)",
    "net_reuse": "after a toss or swing the whole net waits (net) or only that attack (kind) (N2)",
    "mirror": "the second side's gladiators are the first side's twins: the same sheets (DM1)",
    "max_turns": "turns before the match is stopped as a draw",
    "teams": "team combat (§27): sides of seats, e.g. red+green:blue",
    "team_end": "a team match ends when one side is down, or after team_turns turns (§27.7)",
    "team_turns": "turns of a timed team match (§27.7.1)",
    "talents": "per seat, T36 talent codes separated by commas, e.g. FA,TH (§36)",
    "talent_prerequisites": "styles and optional weapons need their talents (§36.3, §21.1.1)",
    "entrants": "per seat, a campaign's gladiator (set by the Campaign Game, §30-§35)",
    "sine_missione": "a death match: no mercy is asked or given (§30.2.2)",
}


class ColosseumOptions(BaseModel):
    model_config = ConfigDict(
        extra="forbid", strict=True, json_schema_extra=described(OPTION_NOTES)
    )

    # §3.4: each gladiator's class, in seat order; "random" rolls 1D3 (1 light, 2 medium,
    # 3 heavy) when the log sheet is made (a match option, not a rule of the book).
    gladiators: list[ClassChoice] = Field(default_factory=_two_random)
    # §4.1, §7.7: the arena map. The printed board's size is not in the text we have, so it is
    # an odd-q rectangle of hexes, 20 columns by 16 rows by default.
    board_width: int = Field(default=20, ge=12, le=60)
    board_height: int = Field(default=16, ge=12, le=60)
    # Q1: the CRT inside the rules (§9.5, recommended) or the reference sheet's.
    crt: Literal["rules", "reference"] = "rules"
    # Q4: the §17.2 endurance constant, the rules text's -4 (recommended) or the sheet's -2.
    endurance: Literal["rules", "reference"] = "rules"
    # Q5: the §15.2.1 stumble check, the rules text's 1D6 form or the sheet's 2D6 form.
    stumble_rule: Literal["text", "reference"] = "text"
    # Q7: the §18.3 performance value divided by 10 toward zero ("tenths", recommended) or raw.
    performance: Literal["tenths", "raw"] = "tenths"
    # §9.2 NOTE: a left-handed gladiator swaps T11's +1/+2 and +3/+4 (one flag per seat).
    left_handed: list[bool] = Field(default_factory=_right_handed)
    # §7.5 reaction time (optional rule): seconds each player has to write a phase plot; 0 is off
    # (the default, as the rulebook advises new players), the rulebook's value is 10. Front ends
    # run the clock; when it runs out the plot that moves and turns nothing is given.
    reaction_time: int = Field(default=0, ge=0, le=600)
    # Q10: a throw's distance is 1D6 + Thr ("bonus", recommended: the Thr values only make sense
    # as a bonus) or, as the rules text and the reference sheet print it, 1D6 − Thr ("text").
    throw_thr: Literal["bonus", "text"] = "bonus"
    # E7: a man knocked Prone and tripped by one collision: §16.4 "must select a KN or RO" first
    # ("spent", the trip is lost on the ground) or §15.3 "must be entered ... regardless" first
    # ("stumble": he lies through a Stumble phase before he may get up).
    prone_trip: Literal["spent", "stumble"] = "spent"
    # §8.3, M5: a Prone man who plotted KN is getting up: "rising" (he is at nobody's mercy; one
    # who steps into his hex collides with him as with a Kneeling man) or "mercy" (§8.3 to the
    # letter: Prone and not rolling, so at the mercy of whoever enters his hex).
    prone_kn: Literal["rising", "mercy"] = "rising"
    # §19-§29: the Advanced Game. Off, the Basic Game (§2-§18) exactly; on, the Advanced Game's
    # rules apply, each optional one behind its own flag below where the book marks it optional.
    advanced: bool = False
    # §29.3 "gladiators always move first": the seats run by the §29 charts (the centurion
    # bot). Their plots are asked for only once every other seat's plot is in and revealed;
    # movement is still resolved together. Empty (the default): everyone plots at once.
    solitaire: list[str] = Field(default_factory=_nobody)
    # §25.2, T38 (Advanced Game, W1): the Arena Size, "roll" (2D3 − 1 when the match is set up)
    # or fixed 1..5 (1 the Colosseum in Rome, 5 a Fighting Pit whose edges are all walls).
    arena_size: Literal["roll", 1, 2, 3, 4, 5] = "roll"
    # §7.7.1, §25 (Advanced Game): the map's edges may be arena walls; off, they are §7.7's alone.
    walls: bool = True
    # W5: a collision with a wall (§25.4) is followed by §8.4.4's Stumble check; off, T13 alone.
    wall_stumble: bool = True
    # §19 (F1): each gladiator's fighting style (T37), in seat order: a style, "standard" (his
    # class's standard style) or "random". The style sets the class; Advanced Game only.
    styles: list[StyleChoice] = Field(default_factory=_two_random_styles)
    # §19, §21, §24 (F2): each gladiator's weapons where his style lets him choose, in seat
    # order: T19 names separated by commas ("sword,axe"), "" for the chart's. Advanced Game only.
    weapons: list[str] = Field(default_factory=_chart_weapons)
    # §24.3 (F11): "defence" (his own results against him: a shield hit is parried, a P* a body
    # hit, as §9.6 has it for a man without a shield) or "attack" (the results of his attacks
    # are shifted so, as the flail's are).
    two_weapon_results: Literal["defence", "attack"] = "defence"
    # §28 (B1, Advanced Game): the seat a beast plays, "seat:kind" ("blue:lion"; kind a T21
    # beast or "random", P3); the engine plays it. Empty: no beast. B11: two or three beasts
    # against red, "blue:lion,green:bear,gold:random" (§30.2.1.1: 1D3 beasts).
    beasts: str = ""
    # §22 (Advanced Game): special attacks and defences in the allocation (S1); off, none.
    specials: bool = True
    # Q8 (S6): Sand's CF loss, the rules text's 2D3 + H bonus ("text") or the sheet's 1D3.
    sand_loss: Literal["text", "reference"] = "text"
    # Q9 (S7): Block makes every chest attack an S ("text": shield damage is checked) or, as the
    # reference sheet prints it, No Effect ("reference").
    block_result: Literal["text", "reference"] = "text"
    # S10: how far Sand is thrown: "own" (the reference sheet's "Rch = 2-hex": at any man in his
    # 2-hex front, whatever he holds) or "weapon" (only at a man his weapon could strike).
    sand_reach: Literal["own", "weapon"] = "own"
    # N2: after a toss or a swing, "net" (the §20.5.1 EXAMPLE's "could not be used again", T27's
    # "net unavailable"): the whole net waits, lays too; "kind": only that kind of attack waits.
    net_reuse: Literal["net", "kind"] = "net"
    # DM1 (a study's option, not a rule of the book): each gladiator of the second side is the
    # twin of the first side's in the same place: his class or style, log sheet and kit, so
    # that only the players decide a deal. Not with beasts.
    mirror: bool = False
    # Safety net: after this many turns the match is stopped as a plain draw ("time").
    max_turns: int = Field(default=20, ge=1, le=1000)
    # §27 (Advanced Game, G1): a team match, its two sides separated by ":" and the members of
    # a side by "+" ("red+green:blue"), 3 to 12 seats (at most 6 a side, G15) named red, blue,
    # green, gold, white, black, purple, silver, orange, brown, grey, pink. "": a duel.
    teams: str = ""
    # §27.7 (G8, Q35): how a team match ends: "last_standing" (§27.7.2, the default: until one
    # side has nobody standing) or "time" (§27.7.1: after `team_turns` turns the side with the
    # most gladiators still standing wins; equal numbers are a draw).
    team_end: Literal["last_standing", "time"] = "last_standing"
    team_turns: int = Field(default=5, ge=1, le=1000)
    # §36 (Campaign Game, Advanced Game only; talents.py TL1): each gladiator's talents, T36
    # codes separated by commas ("FA,TH,MS:sword,WS:axe"), "" none.
    talents: list[str] = Field(default_factory=_no_talents)
    # §36.3, §21.1.1 (TL2): a campaign match's styles and optional weapons need their talents.
    talent_prerequisites: bool = False
    # §30-§35 (the Campaign Game, Advanced only; campaign_entrants.py, X1-X5): per seat, a
    # campaign's gladiator ({} rolls him as usual; empty: everyone rolled), and §30.2.2's death
    # match (X6: no stans missus, no missus).
    entrants: list[dict[str, Any]] = Field(default_factory=list)
    sine_missione: bool = False

    @model_validator(mode="before")
    @classmethod
    def _seat_lists(cls, raw: Any) -> Any:
        # G1: a team match's per-seat lists, where left out or left at the duel's defaults,
        # get one default entry per seat.
        if isinstance(raw, dict) and isinstance(raw.get("beasts"), str) and is_pack(raw):
            n = 1 + len(pack_beasts(raw))  # B11: the gladiator and his beasts
        elif not isinstance(raw, dict) or not isinstance(raw.get("teams"), str) or not raw["teams"]:
            return raw
        else:
            try:
                n = sum(len(side) for side in parse_teams(raw["teams"]))
            except ValueError:
                return raw  # the field's own check gives the message
        out = dict(raw)
        for name, duel, one in (
            ("gladiators", _two_random(), "random"),
            ("left_handed", _right_handed(), False),
            ("styles", _two_random_styles(), "random"),
            ("weapons", _chart_weapons(), ""),
            ("talents", _no_talents(), ""),
        ):
            if name not in out or out[name] == duel:
                out[name] = [one] * n
        return out

    @field_validator("gladiators")
    @classmethod
    def _two(cls, value: list[ClassChoice]) -> list[ClassChoice]:
        # G1: 3 to 12 only in a team match (or a pack, B11) (checked with `teams` in `_choices`).
        if not 2 <= len(value) <= MAX_SEATS:
            raise ValueError(f"the Basic Game is a duel: 2 gladiators, not {len(value)}")
        return value

    @field_validator("solitaire", mode="before")
    @classmethod
    def _seat_list(cls, value: Any) -> Any:
        # `-o solitaire=blue` or `red,blue` on the command line: a comma-separated text.
        if isinstance(value, str):
            return [s.strip().lower() for s in value.split(",") if s.strip()]
        return value

    @field_validator("solitaire")
    @classmethod
    def _seats(cls, value: list[str]) -> list[str]:
        for seat in value:
            if seat not in ALL_SEATS:
                raise ValueError(f"no seat {seat!r}; seats: {', '.join(SEAT_NAMES)}")
        if len(set(value)) != len(value):
            raise ValueError("each solitaire seat once")
        return [s for s in ALL_SEATS if s in value]

    @field_validator("arena_size", mode="before")
    @classmethod
    def _not_a_flag(cls, value: Any) -> Any:
        # True == 1 to Python; a size is a number, not a yes.
        if isinstance(value, bool):
            raise ValueError(f"the arena size is 'roll' or 1..5, not {value}")
        return value

    @field_validator("left_handed")
    @classmethod
    def _two_flags(cls, value: list[bool]) -> list[bool]:
        if not 2 <= len(value) <= MAX_SEATS:
            raise ValueError(f"one left_handed flag per gladiator (2), not {len(value)}")
        return value

    @field_validator("styles", mode="before")
    @classmethod
    def _seat_styles(cls, value: Any) -> Any:
        # `-o styles=red:bestiarius` on the command line: seat:style, the others "random".
        if isinstance(value, str):
            out: list[str] = list(_two_random_styles())
            for entry in (e.strip().lower() for e in value.split(",") if e.strip()):
                seat, _, key = (p.strip() for p in entry.partition(":"))
                if seat not in SEAT_NAMES or not key:
                    raise ValueError(f"styles: {entry!r} is not seat:style (e.g. red:myrmillo)")
                out[SEAT_NAMES.index(seat)] = key
            return out
        return value

    @field_validator("beasts")
    @classmethod
    def _beast_seats(cls, value: str, info: ValidationInfo) -> str:
        if not value.strip():
            return ""
        if not info.data.get("advanced"):
            raise ValueError("the Advanced Game's (§28): set advanced = true")
        if len([e for e in value.split(",") if e.strip()]) > 1:  # B11: a pack
            return ",".join(f"{s}:{k}" for s, k in parse_pack(value).items())
        return ",".join(f"{s}:{k}" for s, k in parse_beasts(value, SEAT_NAMES).items())

    @field_validator("styles", "weapons")
    @classmethod
    def _one_each(cls, value: list[Any]) -> list[Any]:
        if not 2 <= len(value) <= MAX_SEATS:
            raise ValueError(f"one entry per gladiator (2), not {len(value)}")
        return value

    @field_validator("weapons")
    @classmethod
    def _weapon_names(cls, value: list[str]) -> list[str]:
        return [",".join(parse_weapons(text)) for text in value]

    @field_validator("styles", "weapons", "two_weapon_results", "sand_loss", "block_result")
    @classmethod
    def _advanced_only(cls, value: Any, info: ValidationInfo) -> Any:
        # A record's options come back with every default written out, so what counts is a
        # value other than the default.
        defaults = {
            "styles": _two_random_styles(),
            "weapons": _chart_weapons(),
            "two_weapon_results": "defence",
            "sand_loss": "text",
            "block_result": "text",
        }
        if value != defaults[str(info.field_name)] and not info.data.get("advanced"):
            raise ValueError("the Advanced Game's (§19-§24, §22): set advanced = true")
        return value

    @field_validator("talents", mode="before")
    @classmethod
    def _seat_talents(cls, value: Any) -> Any:
        # `-o talents=red:FA+TH` on the command line: seat:codes ("+" between codes), others "".
        if isinstance(value, str):
            out: list[str] = list(_no_talents())
            for entry in (e.strip() for e in value.split(";" if ";" in value else ",")):
                seat, _, codes = (p.strip() for p in entry.partition(":"))
                if not entry:
                    continue
                if seat.lower() not in SEAT_NAMES:
                    raise ValueError(f"talents: {entry!r} is not seat:codes (e.g. red:FA+TH)")
                out[SEAT_NAMES.index(seat.lower())] = codes.replace("+", ",")
            return out
        return value

    @field_validator("talents")
    @classmethod
    def _talent_codes(cls, value: list[str], info: ValidationInfo) -> list[str]:
        from gladiator.rules.colosseum.kit.talents import format_talents, parse_talents

        if not 2 <= len(value) <= MAX_SEATS:
            raise ValueError(f"one entry per gladiator (2), not {len(value)}")
        out = [format_talents(parse_talents(t, f"talents[{i}]")) for i, t in enumerate(value)]
        if any(out) and not info.data.get("advanced"):
            raise ValueError("talents are the Campaign Game's (§36): set advanced = true")
        return out

    @field_validator("teams")
    @classmethod
    def _sides(cls, value: str, info: ValidationInfo) -> str:
        if not value:
            return value
        if not info.data.get("advanced"):
            raise ValueError("team combat is the Advanced Game's (§27): set advanced = true")
        return ":".join("+".join(side) for side in parse_teams(value))

    @field_validator("entrants", mode="before")
    @classmethod
    def _entrants(cls, value: Any, info: ValidationInfo) -> Any:
        from gladiator.rules.colosseum.campaign.campaign_entrants import parse_entrants

        out = parse_entrants(value)
        if any(out) and not info.data.get("advanced"):
            raise ValueError("the Campaign Game's (§30): set advanced = true")
        return out

    @field_validator("sine_missione")
    @classmethod
    def _death_match(cls, value: bool, info: ValidationInfo) -> bool:
        if value and not info.data.get("advanced"):
            raise ValueError("the Campaign Game's (§30.2.2): set advanced = true")
        return value

    @field_validator("team_end", "team_turns")
    @classmethod
    def _team_only(cls, value: Any, info: ValidationInfo) -> Any:
        default = {"team_end": "last_standing", "team_turns": 5}[str(info.field_name)]
        if value != default and not info.data.get("teams"):
            raise ValueError("a team match's (§27.7): set teams, e.g. teams=red+green:blue")
        return value

    @model_validator(mode="after")
    def _choices(self) -> ColosseumOptions:
        n = sum(len(side) for side in parse_teams(self.teams)) if self.teams else 2
        if not self.teams and is_pack({"beasts": self.beasts}):  # B11
            n = 1 + len(pack_beasts({"beasts": self.beasts}))
        seats = ALL_SEATS[:n]
        for name, per_seat in (
            ("gladiators", self.gladiators),
            ("left_handed", self.left_handed),
            ("styles", self.styles),
            ("weapons", self.weapons),
            ("talents", self.talents),
        ):
            if len(per_seat) != n:
                what = "a duel: 2" if n == 2 else f"one entry per gladiator ({n})"
                raise ValueError(f"{name}: {what}, not {len(per_seat)} (G1)")
        for seat in self.solitaire:
            if seat not in seats:
                raise ValueError(f"solitaire: no seat {seat!r}; seats: {', '.join(seats)}")
        beasts = {e.partition(":")[0] for e in self.beasts.split(",") if e}
        if beasts and self.teams:
            raise ValueError("beasts and teams cannot be played together yet (§27, §28, B1)")
        for i, seat in enumerate(seats):
            key = self.styles[i]
            if seat in beasts and key != "random":
                raise ValueError(f"styles: {seat} is a beast (option beasts); it has no style")
            if key in _BEAST_FIGHTERS and not beasts:
                raise ValueError(f"styles: a {key} fights beasts (§28.2); name one with beasts=")
            if beasts and seat not in beasts and key not in ("random", "standard"):
                _no_beast_pairing(i, key)  # §19.2.3 (F1): a hunt and a pack alike
        if beasts and self.solitaire:
            raise ValueError("beasts and solitaire cannot be played together (§28, §29)")
        if beasts and self.mirror:
            raise ValueError("mirror twins the gladiators of two sides: not with beasts (DM1)")
        check_entrant_seats(self.entrants, seats, self.styles, beasts)  # §30, §34 (X3)
        if self.teams:  # G15: the starting lines must fit the board
            from gladiator.rules.colosseum.arena.board import board
            from gladiator.rules.colosseum.teams import team_starting_positions

            team_starting_positions(
                board(self.board_width, self.board_height), parse_teams(self.teams)
            )
        weapons = [parse_weapons(w) for w in self.weapons]
        check_choices(self.gladiators, self.styles, weapons, pairings=n == 2)
        if self.talent_prerequisites:  # §36.3, §21.1.1 (TL2)
            from gladiator.rules.colosseum.kit.talents import check_prerequisites, parse_talents

            if not self.advanced:
                raise ValueError("talent_prerequisites is the Campaign Game's (§36): set advanced")
            check_prerequisites(self.styles, weapons, [parse_talents(t) for t in self.talents])
        return self


def _no_beast_pairing(i: int, key: str) -> None:
    """F1, §19.2.3: a style that fights only certain styles never fights a beast, one beast or
    several."""
    s = style(key)
    if s.opponents:
        names = " or ".join(style(o).name for o in s.opponents)
        raise ValueError(f"styles[{i}]: a {s.name} fights only a {names} ({s.section}), not beasts")


TEAM_OPTIONS = ("teams", "team_end", "team_turns")
# §36 (TL1): written into a match's options only when some gladiator has a talent or the
# prerequisites are checked, so every other match and record stays exactly as it was.
TALENT_OPTIONS = ("talents", "talent_prerequisites")
# Left out of the normalised options while off or at their default, so that records written
# before them stay as they were: §30-§35 (X1, X6), S10 and N2 (issue 37), DM1.
QUIET_OPTIONS = {
    "entrants": [],
    "sine_missione": False,
    "sand_reach": "own",
    "net_reuse": "net",
    "mirror": False,
}


def normalise(raw: Mapping[str, Any]) -> dict[str, Any]:
    out = validate_options(ColosseumOptions, raw, "colosseum")
    if not out["teams"]:  # a duel's options, and so its records, stay exactly as they were
        for name in TEAM_OPTIONS:
            del out[name]
    if not any(out["talents"]) and not out["talent_prerequisites"]:
        for name in TALENT_OPTIONS:
            del out[name]
    for name, off in QUIET_OPTIONS.items():
        if out[name] == off:
            del out[name]
    return out
