"""The Colosseum Basic Game's phase plot (§7.2): what a gladiator writes for one movement phase.

A `PhasePlot` is either up to two movement actions (F, B, SFL, SFR, SBL, SBR) or one special
action (C, KN, R, RO-FL/RO-FR/RO-BL/RO-BR, S, X), with facing changes written in parentheses
before or after them (§7.2, §7.2.2), or the empty plot (nothing written; or, not offered by
`legal_plots`, a bare rotation). What each action does and how much it may rotate is read from
T39 (data/actions.toml via `tables()`); this module adds the notation, the per-status legality and
the geometry.

Rotations. Each action carries its own allowance from T39 (F, SFL, SFR, KN, R, S: one hex-side;
B, SBL, SBR, C, RO: none; X: any facing) and may spend it before or after itself; two movement
actions each bring their own, so `F F` may turn up to two hex-sides in all (RULINGS R1, R2). The
value stores the rotations by *gap*: `turns[0]` is written before the first action, `turns[i]`
between action i-1 and action i, `turns[-1]` after the last, each a signed number of hex-sides
(+ = (R), clockwise). Rotations are applied in the order written: a rotation written before an
action is taken first, so the action moves from the new facing (§7.2.2).

Notation (principle 8 of shared/design.md). Actions are separated by spaces; a rotation is `(L)`
or `(R)`, or `(nL)`/`(nR)` for n hex-sides (n = 1..3) and is written against the action whose
allowance it uses, e.g. `F F(R)`, `(L)SFL`, `F(R) F`, `F(R) (R)F`, `B (R)F`, `KN(L)`, `RO-FL`, and
a Pause's free turn `X(2L)`, `X(3R)` (an about-face). The empty plot is `-`. Input is
case-insensitive and spaces are optional (`ff(r)` reads as `F F(R)`); `(R)KN` is read as `KN(R)`
and `X(3L)` as `X(3R)`, so `format_plot(parse_plot(text))` is the canonical form. Malformed text,
or text that breaks T39 (`B(R)`, `F F F`, `C F`), raises `PlotError` with a one-line message.

Throws and kicks (§13.3, §13.5) are written after the plot, behind a `+`: `X +TW-HEAD` (throw
the weapon; on a 6 for the area it strikes the head), `X +TS-LEGS` (the shield), `F +KW-FL` (kick
the weapon in the hex he ends in toward his left-front; directions F, FR, BR, B, BL, FL as for a
Roll). The value keeps it as `PhasePlot.extra`; it changes neither the path nor the movement phase
(R19). Which plots may carry one is the engine's business (it depends on the items on the floor).

`legal_plots(status)` lists every plot a gladiator in that `PlotStatus` may write this phase, in a
fixed order; `uses_movement_phase(plot)` says whether it counts against his move rate;
`path(plot, hex, facing)` gives every position he passes through.

RULINGS (each choice this module makes where the rulebook leaves room; shared/rules/colosseum.md)

R1  §7.2.2, §7.3, T39, Q48: the rotation allowance belongs to each action, not to the plot. F, SFL
    and SFR may each rotate one hex-side; B, SBL, SBR, C and RO none; KN, R and S one; X any. In a
    two-action plot each action brings its own allowance, so `F F` may turn up to 2 hex-sides
    (`(L)F (R)F`, `F(R) (R)F`), `F B` and `B F` at most 1 (F's), `B SBL` none. Q48 (Sprinting:
    "each may rotate one hex-side") reads the same way.
R2  §7.2.2 "before or after a movement or special action": per action. An action with an
    allowance of one hex-side spends it either before or after itself, not both; `(L)F(R)` is
    malformed. A rotation between two actions may use the first action's allowance (after it) or
    the second's (before it); the value stores only how much is turned between them, and the
    notation charges it to the first action as far as it can (`F(R) F`, but `B (R)F`).
R3  §7.2.2 "If the rotation is written first, the action is taken from the new facing": rotations
    and actions are applied strictly in the order written, one hex-side at a time (`path`).
R4  §7.4, T39 ("3" printed for Pause): X may end in any facing. Its turn is written `(L)`, `(2L)`,
    `(R)`, `(2R)` or `(3R)`; `(3L)` is the same about-face and reads as `(3R)`; larger or
    repeated turns are taken modulo six.
R5  KN, R, S and X do not leave the hex, so a rotation before them is the same as one after: the
    value keeps it after (`(R)KN` reads as `KN(R)`).
R6  §7.4 NOTE, §15.6 (2nd), Q3, NOTE-7.4-free-stumble-pause: a plot uses one of the turn's
    movement phases if it holds a movement action, C, KN, R or RO, or any rotation (so a rotating
    S or X, and a bare rotation). A non-rotating S or X, and the empty plot, are free.
R7  §3.5, §5.2.1, §10.5 (LMP), §17.3, Q3: he may move in `moves_allowed` = max(0, move rate -
    LMP results - 2 if he exceeded his rate last turn) phases, and in one phase more (§17.3).
    `legal_plots` offers that excess phase too (see `exceeds_rate`; it costs +1 on this turn's
    endurance check and the -2 next turn, which the engine records). Once the excess is used,
    only the free plots remain.
R8  §15.1, §15.3, Q3: S is only ever the forced action of the phase after a trip; it is never
    offered otherwise. A gladiator who must stumble may write nothing but S, rotating one
    hex-side only if he still has a movement phase (normal or excess) and his facing is free.
    §15.3 ("whether or not he could move in that phase") puts the forced S before posture: it is
    also what a Kneeling or Prone gladiator writes after tripping (§16.4 forbids a *voluntary*
    Pause, not a forced Stumble).
R9  §16.4, Q3: a Prone gladiator writes KN or RO-FL/RO-FR/RO-BL/RO-BR, and may not Pause. Both use
    a movement phase; with none left he is "unable to move" (§16.3.1, Q3) and his only plot is the
    empty one.
R10 §16.4.1, §11.4: an unconscious gladiator takes no action: his only plot is the empty one.
R11 §14, §14.3, Q24: a Kneeling gladiator may write whatever a standing one may (a movement
    action, C or a rotating X stands him up; KN or a non-rotating X keeps him kneeling), and a
    standing gladiator may KN to take the defensive stance. Their plot lists are the same.
R12 §7.4 (R), §13.4: R is offered only when `can_recover` says an item he may pick up lies in his
    own or an adjacent hex; the two-item limit and the Retiarius's shield (§13.4 NOTE) are the
    caller's to fold into that flag.
R13 §7.2.2: a bare rotation (`(R)`, no action) has no action to belong to, and turning in place
    is what X is for; the value and the notation can hold one (a log sheet may show it), it uses
    a movement phase (R6), but `legal_plots` never offers it (X(R) does the same).
R14 §5.2.1, R9, R10: the empty plot `-` ("" reads the same) is offered only when nothing else is
    legal; a standing or kneeling gladiator who does not move writes a non-rotating X.
R15 Q24: RO moves one hex to his left-front (RO-FL), right-front (RO-FR), left-rear (RO-BL) or
    right-rear (RO-BR) hex and leaves his facing as it was. §7.4: C moves three hexes forward,
    one at a time.
R16 §20.5.4 (Advanced Game): `facing_free=False` (an ensnared gladiator "may move but may not
    rotate") drops every plot that rotates.
R17 §7.2: the two movement actions are an ordered pair, may repeat (`F F`) and may undo each other
    (`F B`); nothing in §7.3 forbids either.
R18 §7.6: a plot that breaks T39 itself (too much rotation, three movement actions, a special with
    a movement action) is malformed and `parse_plot` refuses it; whether a well-formed plot is
    allowed for this gladiator now is `legal_plots`' business.
R19 §13.3 ("requires no CFs"), §13.5: a throw or a kick written with a plot (`+TW-HEAD`,
    `+KS-F`) costs no movement phase and no rotation; the notation holds at most one.
R20 §36.3 SP, Q48 (Campaign Game, TL7): three movement actions, each F, SFL or SFR, are a
    sprint: well formed (each with its own allowance, R1), but offered by `legal_plots` only
    with `PlotStatus.sprint` (the Sprinting talent), after every ordinary plot. Any other three
    actions, or four, break §7.2 as before.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Literal, NamedTuple

from gladiator.core.hexgrid import Hex, Relation, neighbor_at, turn
from gladiator.rules.colosseum.tables import tables
from gladiator.rules.colosseum.vocabulary import AREAS, Area

__all__ = [
    "EMPTY",
    "KICK_DIRECTIONS",
    "Extra",
    "ItemKind",
    "Kick",
    "PhasePlot",
    "PlotError",
    "PlotStatus",
    "Pose",
    "Posture",
    "Throw",
    "action_codes",
    "exceeds_rate",
    "format_plot",
    "is_sprint",
    "legal_plots",
    "parse_extra",
    "parse_plot",
    "path",
    "posture_after",
    "uses_movement_phase",
]

Posture = Literal["standing", "kneeling", "prone"]
_POSTURES: tuple[Posture, ...] = ("standing", "kneeling", "prone")

# A Roll names the hex it rolls into by its relation to his facing (§7.4); T39 gives the relations
# in core.hexgrid's codes, the notation uses the rulebook's (RO-BL, not RO-RL).
_DIRECTION_SUFFIX = {"FL": "FL", "FR": "FR", "RL": "BL", "RR": "BR"}
# An allowance of this many hex-sides or more reaches every facing (T39's "3" for Pause).
_ANY = 3
# Gap values tried when listing plots: none, (L), (R), (2L), (2R), (3R).
_GAP_VALUES = (0, -1, 1, -2, 2, 3)
# §36.3 SP, Q48 (R20): the Sprinting talent's plot, three of these movement actions.
SPRINT_ACTIONS = ("F", "SFL", "SFR")
SPRINT_LENGTH = 3


class PlotError(ValueError):
    """A phase plot that cannot be read, or that breaks T39. The message is one line."""


# --- throws and kicks written with a plot (§13.3, §13.5) ----------------------------------------

ItemKind = Literal["weapon", "shield"]
_ITEM_LETTER: dict[ItemKind, str] = {"weapon": "W", "shield": "S"}
_LETTER_ITEM: dict[str, ItemKind] = {"W": "weapon", "S": "shield"}
# A kick's direction relative to his facing, by core.hexgrid relation (F, FR, RR, R, RL, FL),
# written as a Roll's are (B for back).
KICK_DIRECTIONS: tuple[str, ...] = ("F", "FR", "BR", "B", "BL", "FL")


@dataclass(frozen=True, slots=True)
class Throw:
    """§13.3: throw his weapon or shield at the opponent; `area` is the one he strikes on a 6 of
    the area roll (§13.3.1.1, "attacker's choice", written in advance)."""

    item: ItemKind
    area: Area

    def __str__(self) -> str:
        return f"+T{_ITEM_LETTER[self.item]}-{self.area.upper()}"


@dataclass(frozen=True, slots=True)
class Kick:
    """§13.5: kick an item of this kind lying in the hex he ends his movement in; `direction` is
    the side of his hex it flies through (0 front ... 5 left-front, as core.hexgrid's relations;
    Q17: the kicker chooses)."""

    item: ItemKind
    direction: int

    def __str__(self) -> str:
        return f"+K{_ITEM_LETTER[self.item]}-{KICK_DIRECTIONS[self.direction]}"


Extra = Throw | Kick
_EXTRA = re.compile(r"^([TK])\s*([WS])\s*-?\s*([A-Z]+)$")


def parse_extra(text: str) -> Extra:
    """`+TW-HEAD`, `TS-LEGS`, `+KW-FL` (case-insensitive, the `+` and `-` optional)."""
    raw = text.strip().upper().removeprefix("+").strip()
    m = _EXTRA.match(raw)
    if m is None:
        raise PlotError(
            f"{text!r}: a throw is written +TW-<area> or +TS-<area>, a kick +KW-<side> or "
            "+KS-<side> (§13.3, §13.5)"
        )
    kind, letter, what = m.groups()
    item = _LETTER_ITEM[letter]
    if kind == "T":
        areas = {a.upper(): a for a in AREAS}
        if what not in areas:
            raise PlotError(f"{text!r}: the area is one of {', '.join(areas)} (§13.3.1.1)")
        return Throw(item, areas[what])
    if what not in KICK_DIRECTIONS:
        raise PlotError(f"{text!r}: a kick goes {', '.join(KICK_DIRECTIONS)} (§13.5, Q17)")
    return Kick(item, KICK_DIRECTIONS.index(what))


@dataclass(frozen=True, slots=True)
class _Spec:
    """One action of T39 as the plot needs it; RO is split into its four directions."""

    code: str
    movement: bool
    hexes: int
    relation: int | None
    rotation: int
    free_without_rotation: bool
    prone_only: bool


@cache
def _specs() -> dict[str, _Spec]:
    """T39 by plot code, in the table's order."""
    out: dict[str, _Spec] = {}
    for code, action in tables().actions.t39.actions.items():
        movement = action.kind == "movement"
        variants: list[tuple[str, str | None]]
        if len(action.directions) > 1:  # RO: the plot names the direction (RO-FL ...)
            variants = [(f"{code}-{_DIRECTION_SUFFIX[d]}", d) for d in action.directions]
        else:
            variants = [(code, action.directions[0] if action.directions else None)]
        for name, direction in variants:
            out[name] = _Spec(
                code=name,
                movement=movement,
                hexes=action.hexes,
                relation=None if direction is None else int(Relation.from_code(direction)),
                rotation=action.rotation,
                free_without_rotation=action.free_without_rotation,
                prone_only=action.prone_only,
            )
    return out


@cache
def _limits() -> tuple[int, int]:
    t39 = tables().actions.t39
    return t39.max_movement_actions, t39.max_special_actions


def action_codes() -> tuple[str, ...]:
    """Every action code a plot may hold, in T39's order (RO as RO-FL, RO-FR, RO-BL, RO-BR)."""
    return tuple(_specs())


# --- the value ----------------------------------------------------------------------------------


def _rotation_text(n: int) -> str:
    if n == 0:
        return ""
    side = "R" if n > 0 else "L"
    return f"({side})" if abs(n) == 1 else f"({abs(n)}{side})"


def _raw_text(actions: tuple[str, ...], turns: tuple[int, ...]) -> str:
    """The plot as written, gap by gap, for messages about plots that are not well formed."""
    parts: list[str] = []
    for i, code in enumerate(actions):
        parts.append(_rotation_text(turns[i]) + code)
    text = " ".join(parts) + (_rotation_text(turns[-1]) if turns else "")
    return text or "-"


def _allowance(n: int) -> str:
    if n == 0:
        return "no rotation"
    if n >= _ANY:
        return "any facing"
    return "one hex-side of rotation" if n == 1 else f"{n} hex-sides of rotation"


def _wrap(n: int) -> int:
    """A net turn as -2..3 hex-sides (any facing: R4)."""
    return (n + 2) % 6 - 2


def _normalise(
    actions: tuple[str, ...], turns: tuple[int, ...], shown: str | None
) -> tuple[int, ...]:
    """Check a plot against §7.2 and T39; its canonical gaps, or PlotError if it breaks them."""
    specs = _specs()
    if not isinstance(actions, tuple) or not all(isinstance(a, str) for a in actions):
        raise PlotError(f"plot actions must be a tuple of codes, got {actions!r}")
    if not isinstance(turns, tuple) or not all(
        isinstance(t, int) and not isinstance(t, bool) for t in turns
    ):
        raise PlotError(f"plot turns must be a tuple of integers, got {turns!r}")
    if len(turns) != len(actions) + 1:
        raise PlotError(
            f"a plot of {len(actions)} action(s) has {len(actions) + 1} rotation gaps, "
            f"got {len(turns)}"
        )
    for code in actions:
        if code not in specs:
            raise PlotError(f"unknown action {code!r} (expected one of {', '.join(specs)})")
    text = shown if shown is not None else _raw_text(actions, turns)
    max_movement, max_special = _limits()
    chosen = [specs[code] for code in actions]
    special = [s.code for s in chosen if not s.movement]
    if special and len(chosen) > max_special:
        raise PlotError(f"{text!r}: {special[0]} is a special action and is written alone (§7.2)")
    if len(chosen) > max_movement and not is_sprint(actions):
        raise PlotError(f"{text!r}: at most {max_movement} movement actions a phase (§7.2)")
    if not chosen:
        return (_wrap(turns[0]),)  # a bare rotation: any facing, like X (R13)
    if len(chosen) == 1 and chosen[0].hexes == 0:
        # KN, R, S, X: before and after are the same (R5).
        only = chosen[0]
        before, after = turns
        if only.rotation >= _ANY:
            return (0, _wrap(before + after))
        if abs(before) + abs(after) > only.rotation:
            raise PlotError(f"{text!r}: {only.code} allows {_allowance(only.rotation)} (T39)")
        return (0, before + after)
    # Greedy: a gap between two actions is charged to the earlier one as far as its allowance
    # left over goes (which can serve nothing later), the rest to the later one (R1, R2).
    left = 0  # allowance the previous action still has for after itself
    for i, spec in enumerate(chosen):
        need = max(0, abs(turns[i]) - left)
        if need > spec.rotation:
            raise PlotError(f"{text!r}: {spec.code} allows {_allowance(spec.rotation)} (T39)")
        left = spec.rotation - need
    last = chosen[-1]
    if abs(turns[-1]) > left:
        raise PlotError(f"{text!r}: {last.code} allows {_allowance(last.rotation)} (T39)")
    return turns


@dataclass(frozen=True, slots=True)
class PhasePlot:
    """One phase's orders (§7.2): `actions` (T39 codes, in the order written) and `turns`.

    `turns` has one entry per gap: before the first action, between actions, after the last, each
    the signed hex-sides turned there (+ clockwise, (R)). The empty plot is `PhasePlot()`. The
    constructor checks §7.2 and T39 and stores the canonical form (R4, R5); PlotError otherwise.
    """

    actions: tuple[str, ...] = ()
    turns: tuple[int, ...] = (0,)
    extra: Extra | None = None  # a throw or a kick written with it (R19)

    def __post_init__(self) -> None:
        canonical = _normalise(self.actions, self.turns, None)
        if canonical != self.turns:
            object.__setattr__(self, "turns", canonical)
        if self.extra is not None and not isinstance(self.extra, Throw | Kick):
            raise PlotError(f"a plot's extra is a throw or a kick, not {self.extra!r}")

    def bare(self) -> PhasePlot:
        """The plot without its throw or kick."""
        return self if self.extra is None else PhasePlot(self.actions, self.turns)

    def __str__(self) -> str:
        return format_plot(self)

    @property
    def is_empty(self) -> bool:
        """No action written (nothing, or a bare rotation)."""
        return not self.actions

    @property
    def is_special(self) -> bool:
        return bool(self.actions) and not _specs()[self.actions[0]].movement

    @property
    def rotates(self) -> bool:
        """Whether any facing change is written."""
        return any(self.turns)

    def allocation(self) -> tuple[tuple[int, int], ...]:
        """Per action, the (before, after) signed rotation the notation charges to it (R2): a
        gap between two actions goes to the earlier one as far as its allowance goes."""
        specs = _specs()
        out: list[tuple[int, int]] = []
        before = self.turns[0]
        last = len(self.actions) - 1
        for i, code in enumerate(self.actions):
            gap = self.turns[i + 1]
            if i == last:
                after = gap
            else:
                take = min(abs(gap), max(0, specs[code].rotation - abs(before)))
                after = take if gap > 0 else -take
            out.append((before, after))
            before = gap - after
        return tuple(out)


EMPTY = PhasePlot()


# --- notation -----------------------------------------------------------------------------------


def format_plot(plot: PhasePlot) -> str:
    """The canonical text of a plot: `F F(R)`, `(L)SFL`, `F(R) (R)F`, `RO-FL`, `X(3R)`, `-`."""
    if not plot.actions:
        text = _rotation_text(plot.turns[0]) or "-"
    else:
        text = " ".join(
            _rotation_text(before) + code + _rotation_text(after)
            for code, (before, after) in zip(plot.actions, plot.allocation(), strict=True)
        )
    return text if plot.extra is None else f"{text} {plot.extra}"


@cache
def _code_pattern() -> tuple[re.Pattern[str], dict[str, str]]:
    """The action codes, longest first (so SFL is never read as S + F...), RO's hyphen optional;
    and each code by its spelling without the hyphen."""
    codes = sorted(_specs(), key=len, reverse=True)
    alternatives = "|".join(re.escape(c).replace(r"\-", "-?") for c in codes)
    return re.compile(alternatives), {c.replace("-", ""): c for c in codes}


_ROTATION = re.compile(r"\(\s*([0-9]*)\s*([LR])\s*\)")


def parse_plot(text: str) -> PhasePlot:
    """Read a plot in the notation (case-insensitive, spaces optional); PlotError if malformed."""
    if not isinstance(text, str):
        raise PlotError(f"a plot is text, not {type(text).__name__}")
    return _parse_plot(text)


@lru_cache(maxsize=8192)
def _parse_plot(text: str) -> PhasePlot:
    # Every order is read twice a phase (checked, then applied): the few hundred plots repeat.
    base, plus, written = text.partition("+")
    if plus:
        extra = parse_extra(written)
        plot = parse_plot(base)
        return PhasePlot(plot.actions, plot.turns, extra)
    upper = text.upper()
    stripped = upper.strip()
    if stripped in ("", "-"):
        return EMPTY
    codes, by_spelling = _code_pattern()
    actions: list[str] = []
    gaps: list[list[tuple[int, str]]] = [[]]
    pos = 0
    while pos < len(upper):
        ch = upper[pos]
        if ch.isspace():
            pos += 1
            continue
        m = _ROTATION.match(upper, pos)
        if m is not None:
            count = int(m.group(1)) if m.group(1) else 1
            if not 1 <= count <= _ANY:
                raise PlotError(f"{text!r}: a rotation is 1 to 3 hex-sides, not {m.group(0)!r}")
            gaps[-1].append((count if m.group(2) == "R" else -count, m.group(0)))
            pos = m.end()
            continue
        m = codes.match(upper, pos)
        if m is not None and not (m.group(0) == "R" and upper.startswith("RO", pos)):
            actions.append(by_spelling[m.group(0).replace("-", "")])
            gaps.append([])
            pos = m.end()
            continue
        if upper.startswith("RO", pos):
            raise PlotError(
                f"{text!r}: a Roll names its direction: RO-FL, RO-FR, RO-BL or RO-BR (§7.4)"
            )
        if ch == "(":
            raise PlotError(f"{text!r}: a rotation is written (L), (R), (2L) ... (3R)")
        found = upper[pos:].split()[0][:8]
        raise PlotError(
            f"{text!r}: cannot read {found!r} at position {pos + 1} "
            f"(actions: {', '.join(_specs())}; rotations: (L), (R))"
        )
    turns: list[int] = []
    for gap in gaps:
        signs = {n > 0 for n, _ in gap}
        if len(signs) > 1:
            written = "".join(w for _, w in gap)
            raise PlotError(f"{text!r}: {written} turns both ways; write the net turn")
        turns.append(sum(n for n, _ in gap))
    actions_t, turns_t = tuple(actions), tuple(turns)
    _normalise(actions_t, turns_t, text)
    return PhasePlot(actions_t, turns_t)


# --- movement phases and status -----------------------------------------------------------------


def is_sprint(actions: tuple[str, ...]) -> bool:
    """§36.3 SP, Q48 (R20): three movement actions, each F, SFL or SFR: a sprint."""
    return len(actions) == SPRINT_LENGTH and all(a in SPRINT_ACTIONS for a in actions)


def uses_movement_phase(plot: PhasePlot) -> bool:
    """Whether the plot counts as one of the turn's movement phases (R6: §7.4 NOTE, Q3)."""
    if plot.rotates:
        return True
    specs = _specs()
    return any(not specs[code].free_without_rotation for code in plot.actions)


@dataclass(frozen=True, slots=True)
class PlotStatus:
    """What decides a gladiator's legal plots this phase.

    move_rate           §3.5 / T37: phases per turn he may move (light 6, medium 5, heavy 4).
    moves_used          phases of this turn already plotted that used a movement phase (R6).
    posture             standing, kneeling (§14) or prone (§16).
    must_stumble        he tripped last phase and must write S now (§15.1, §15.3).
    can_recover         an item he may pick up lies in his own or an adjacent hex (§7.4 R, R12).
    unconscious         Stun above CF (§11.4): no action at all (§16.4.1).
    lmp                 LMP critical results (§10.5): each takes a movement phase a turn.
    exceeded_last_turn  he used the §17.3 extra phase last turn: two fewer phases this turn.
    sprint              he has the Sprinting talent (§36.3 SP, Q48, R20): the sprints too.
    """

    move_rate: int
    moves_used: int = 0
    posture: Posture = "standing"
    must_stumble: bool = False
    can_recover: bool = False
    unconscious: bool = False
    lmp: int = 0
    exceeded_last_turn: bool = False
    sprint: bool = False

    def __post_init__(self) -> None:
        for name in ("move_rate", "moves_used", "lmp"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ValueError(f"plot status {name} must be an integer >= 0, got {value!r}")
        if self.posture not in _POSTURES:
            raise ValueError(
                f"plot status posture must be one of {_POSTURES}, not {self.posture!r}"
            )

    @property
    def moves_allowed(self) -> int:
        """§3.5, §7.1, §10.5, §17.3 (R7): phases he may move this turn before exceeding his rate."""
        penalty = tables().turn_end.endurance.exceeded_next_turn_penalty
        return max(0, self.move_rate - self.lmp - (penalty if self.exceeded_last_turn else 0))

    @property
    def moves_left(self) -> int:
        """Movement phases left this turn within his rate (not counting the §17.3 extra one)."""
        return max(0, self.moves_allowed - self.moves_used)

    @property
    def can_move(self) -> bool:
        """Whether a plot that uses a movement phase is allowed: within the rate, or the one
        extra phase of §17.3."""
        extra = tables().turn_end.endurance.exceeded_extra_phases
        return self.moves_used < self.moves_allowed + extra


def posture_after(plot: PhasePlot, posture: Posture) -> Posture:
    """§14.1, R11 (Q24): his posture once the plot is done. KN kneels (from Prone or standing); a
    Kneeling gladiator who plots a movement action, C or a rotating X stands up; a Prone one stays
    Prone unless he kneels (a Roll leaves him Prone, §7.4)."""
    acts = plot.actions
    if posture == "prone":
        return "kneeling" if acts == ("KN",) else "prone"
    if posture == "kneeling":
        stays = not acts or acts in (("KN",), ("S",)) or (acts == ("X",) and not plot.rotates)
        return "kneeling" if stays else "standing"
    return "kneeling" if acts == ("KN",) else "standing"


def exceeds_rate(status: PlotStatus, plot: PhasePlot) -> bool:
    """Whether this plot would be the §17.3 extra movement phase (R7)."""
    return uses_movement_phase(plot) and status.moves_used >= status.moves_allowed


# --- legal plots --------------------------------------------------------------------------------


def _variants(actions: tuple[str, ...]) -> list[PhasePlot]:
    """Every well-formed rotation of these actions, in the _GAP_VALUES order, once each."""
    out: dict[PhasePlot, None] = {}
    for turns in itertools.product(_GAP_VALUES, repeat=len(actions) + 1):
        try:
            out[PhasePlot(actions, turns)] = None
        except PlotError:
            continue
    return list(out)


@cache
def _candidates(
    kind: Literal["upright", "prone", "stumble", "sprint"],
) -> tuple[PhasePlot, ...]:
    """Before status filters: the plots of a standing/kneeling, a prone or a stumbling man, and
    the sprints (R20)."""
    specs = _specs()
    if kind == "sprint":
        triples = itertools.product(SPRINT_ACTIONS, repeat=SPRINT_LENGTH)
        return tuple(p for actions in triples for p in _variants(actions))
    if kind == "stumble":
        return tuple(_variants(("S",)))
    if kind == "prone":
        codes = ["KN", *(c for c, s in specs.items() if s.prone_only)]
        return tuple(p for c in codes for p in _variants((c,)))
    movement = [c for c, s in specs.items() if s.movement]
    plots: list[PhasePlot] = []
    for code in movement:
        plots.extend(_variants((code,)))
    for first in movement:
        for second in movement:
            plots.extend(_variants((first, second)))
    for code, spec in specs.items():
        if not spec.movement and not spec.prone_only and code != "S":
            plots.extend(_variants((code,)))
    return tuple(plots)


@lru_cache(maxsize=1024)
def _legal(status: PlotStatus, facing_free: bool) -> tuple[PhasePlot, ...]:
    if status.unconscious:
        return (EMPTY,)
    if status.must_stumble:
        candidates = _candidates("stumble")
    elif status.posture == "prone":
        candidates = _candidates("prone")
    else:
        candidates = _candidates("upright")
        if status.sprint:  # R20: after the ordinary plots, so their order is unchanged
            candidates = (*candidates, *_candidates("sprint"))
    can_move = status.can_move
    out = tuple(
        p
        for p in candidates
        if (facing_free or not p.rotates)
        and (can_move or not uses_movement_phase(p))
        and (status.can_recover or p.actions != ("R",))
    )
    return out or (EMPTY,)


def legal_plots(status: PlotStatus, *, facing_free: bool = True) -> list[PhasePlot]:
    """Every plot this gladiator may write this phase, in a fixed order (R6-R16).

    Order: single movement actions, then pairs (both in T39 order), then special actions. For
    each list of actions, its rotations run through the gaps (first gap slowest), each gap taking
    none, (L), (R), (2L), (2R), (3R): F, F(L), F(R), (L)F, (R)F.
    `facing_free=False` is for a gladiator who may not rotate (ensnared, §20.5.4).
    """
    return list(_legal(status, facing_free))


# --- geometry -----------------------------------------------------------------------------------


class Pose(NamedTuple):
    """Where a figure is and which hex-side it faces."""

    hex: Hex
    facing: int


def path(plot: PhasePlot, start_hex: Hex, start_facing: int) -> list[Pose]:
    """Every position of the plot in order (R3): the start, then one pose per hex-side turned
    and per hex entered. The last is where he ends. For collisions (§8.1.1) and map edges
    (§7.7); a collision stopping him (§8.2) is the engine's to apply."""
    specs = _specs()
    h, f = start_hex, start_facing
    poses = [Pose(h, f)]

    def rotate(n: int) -> None:
        nonlocal f
        step = 1 if n > 0 else -1
        for _ in range(abs(n)):
            f = turn(f, step)
            poses.append(Pose(h, f))

    for i, code in enumerate(plot.actions):
        rotate(plot.turns[i])
        spec = specs[code]
        if spec.relation is not None:
            for _ in range(spec.hexes):
                h = neighbor_at(h, f, spec.relation)
                poses.append(Pose(h, f))
    rotate(plot.turns[-1])
    return poses
