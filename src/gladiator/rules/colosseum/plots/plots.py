"""The Colosseum Basic Game's phase plot (§7.2): what a gladiator writes for one movement phase.

A `PhasePlot` is either up to two movement actions (F, B, SFL, SFR, SBL, SBR) or one special
action (C, KN, R, RO-FL/RO-FR/RO-BL/RO-BR, S, X), with facing changes written in parentheses
before or after them (§7.2, §7.2.2), or the empty plot (nothing written; or, not offered by
`legal_plots`, a bare rotation). What each action does and how much it may rotate is read from
T39 (data/actions.toml via `tables()`, as plot_actions.py reads it); this module adds the notation
and the geometry, plot_legality.py the per-status legality.

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

`legal_plots(status)` (plot_legality.py) lists every plot a gladiator in that `PlotStatus` may
write this phase, in a fixed order; `uses_movement_phase(plot)` says whether it counts against
his move rate; `path(plot, hex, facing)` gives every position he passes through.

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
R17 §7.2: the two movement actions are an ordered pair, may repeat (`F F`) and may undo each other
    (`F B`); nothing in §7.3 forbids either.
R18 §7.6: a plot that breaks T39 itself (too much rotation, three movement actions, a special with
    a movement action) is malformed and `parse_plot` refuses it; whether a well-formed plot is
    allowed for this gladiator now is `legal_plots`' business.
R19 §13.3 ("requires no CFs"), §13.5: a throw or a kick written with a plot (`+TW-HEAD`,
    `+KS-F`) costs no movement phase and no rotation; the notation holds at most one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Literal, NamedTuple

from gladiator.core.hexgrid import Hex, neighbor_at, turn
from gladiator.rules.colosseum.plots.plot_actions import action_limits, action_specs, is_sprint
from gladiator.rules.colosseum.vocabulary import AREAS, Area

__all__ = [
    "EMPTY",
    "KICK_DIRECTIONS",
    "Extra",
    "ItemKind",
    "Kick",
    "PhasePlot",
    "PlotError",
    "Pose",
    "Posture",
    "Throw",
    "format_plot",
    "parse_extra",
    "parse_plot",
    "path",
    "uses_movement_phase",
]

Posture = Literal["standing", "kneeling", "prone"]

# An allowance of this many hex-sides or more reaches every facing (T39's "3" for Pause).
_ANY = 3


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
    specs = action_specs()
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
    max_movement, max_special = action_limits()
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
        return bool(self.actions) and not action_specs()[self.actions[0]].movement

    @property
    def rotates(self) -> bool:
        """Whether any facing change is written."""
        return any(self.turns)

    def allocation(self) -> tuple[tuple[int, int], ...]:
        """Per action, the (before, after) signed rotation the notation charges to it (R2): a
        gap between two actions goes to the earlier one as far as its allowance goes."""
        specs = action_specs()
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
    codes = sorted(action_specs(), key=len, reverse=True)
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
            f"(actions: {', '.join(action_specs())}; rotations: (L), (R))"
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


def uses_movement_phase(plot: PhasePlot) -> bool:
    """Whether the plot counts as one of the turn's movement phases (R6: §7.4 NOTE, Q3)."""
    if plot.rotates:
        return True
    specs = action_specs()
    return any(not specs[code].free_without_rotation for code in plot.actions)


# --- geometry -----------------------------------------------------------------------------------


class Pose(NamedTuple):
    """Where a figure is and which hex-side it faces."""

    hex: Hex
    facing: int


def path(plot: PhasePlot, start_hex: Hex, start_facing: int) -> list[Pose]:
    """Every position of the plot in order (R3): the start, then one pose per hex-side turned
    and per hex entered. The last is where he ends. For collisions (§8.1.1) and map edges
    (§7.7); a collision stopping him (§8.2) is the engine's to apply."""
    specs = action_specs()
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
