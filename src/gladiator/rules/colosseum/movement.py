"""The Colosseum Basic Game's simultaneous movement (§5.2.2, §7.7, §8) and combat geometry (§9.1,
§9.2, T11, T40).

`resolve_movement(figures, paths, dice, board=...)` takes every gladiator's revealed path for the
phase (a list of `(hex, facing)` poses, the start first, as the phase-plot module's `path` gives
it), executes them together, finds and resolves the collisions (§8: same hex, crossing paths,
Prone opponents at mercy, Impact Factors, placement, the Stun roll and the Stumble check) and
brings everyone back onto the map (§7.7). It returns a `MovementResult`: the new positions, the
event dicts `{"type", "rule", "text", ...}` (the text ends with the rule section, e.g.
"... (§8.4.1)"), a `Collision` record per collision and the §7.7 shift. Every die goes through
`dice` with its purpose and rule section.

It is pure: the caller applies the Stun, the stumble and the Moment of Truth to its own state.
The geometry of combat is `combat_geometry.py`, the board and its §7.7 shift `board.py`, the
records this step returns `collision_records.py`; M13-M15 are written down there.

RULINGS (each choice this module makes where the rulebook leaves room; shared/rules/colosseum.md)

M1  §5.2.2, §8.1.1: movement is executed step by step, one step per hex entered (rotations take
    no time). A path's poses in one hex are one step; the figure's track is the hexes he occupies,
    his start hex included, so a gladiator standing still occupies his hex all phase.
M2  §8.1: two gladiators whose tracks end in the same hex collide there, always. This includes
    ending in the hex of a gladiator who does not move.
M3  §8.1, §8.1.1: a gladiator who stays in his hex all phase (he may turn in it) occupies it, so
    anyone entering it collides with him there, always, with no dice (cause "occupied"). Two
    gladiators whose tracks share any other hex (crossing, swapping places, entering the hex the
    other has just left, or will leave) each roll 1D6 once for the pair;
    equal rolls are a collision in the first hex they share. Steps are ordered by
    (the later of the two arrivals, the earlier one); unequal rolls let both paths run on, and
    the pair does not roll again this phase.
M4  §8.2: a collision cuts both tracks at the contested hex. A gladiator who enters it keeps the
    facing he entered with (rotations after it are movement left, cancelled); one who started in
    it keeps the last facing he had there.
M5  §8.3, Q24, §18.2.1: a Prone gladiator who is not rolling occupies his hex; anyone entering it
    collides, without dice. If the one entering is not Prone he has the other at his mercy: no
    Impact Factor is rolled, he stops in the hex he came from, and the match goes to the Moment of
    Truth (the collision says `moment_of_truth`). A Prone roller (RO) collides normally (+4 IF),
    also with a Prone gladiator who is not rolling. A Prone gladiator getting up (he plotted KN,
    `rising`) is at nobody's mercy: he holds his hex and the collision is an ordinary one, in which
    he counts as Kneeling (T12 −2); option `prone_kn = "mercy"` reads §8.3 to the letter.
M6  §8.4, T12: IF = 1D6 + T12's DRMs as the data file gives them; sidesteps forward (SFL, SFR)
    count as hexes moved forward, sidesteps backward (SBL, SBR) as backward, only hexes moved
    before the collision count, and a Roll's hex counts as neither (its +4 covers it). Stun in
    effect includes Stun from an earlier collision this phase. The Hold Ground talent adds +3
    (§8.4, §36; Campaign Game, a flag).
M7  T12 "+PA": each gladiator's T11 value (with the opponent's handedness, §9.2 NOTE) from the
    positions just before the impact: his last hex before the contested hex (the contested hex if
    he started there) against the opponent's, in the opponent's facing. No §9.2.1 status bonus is
    added: T12 already prices Stumbling and Ensnared, and Prone is M5. Same hex: 0.
M8  §8.4.1: the attacker stays in the contested hex; the defender goes to the hex beyond it,
    straight on from the attacker's hex of entry, keeping his facing. An attacker who did not enter
    the contested hex (he did not move, or was cut in his own start hex) has no hex of entry: the
    defender goes back to the last hex he occupied before it, keeping his facing.
M9  §8.4.2, Q36: equal IFs make both defenders; each goes back to the last hex he occupied before
    the contested hex, facing it (one who started there stays). Each rolls 2D6 + 0 for Stun and
    checks for Stumble.
M10 §8.4.3, Q2: the defender's Stun roll is 2D6 + (attacker's IF - defender's IF), read on T7's
    Stun row (so at least 1 Stun); the record keeps the 2D6, the total and the T7 result.
M11 §8.4.4, §15.2.1, Q5: the defender then checks for Stumble with the rules text's formula,
    1D6 - hexes moved backward this phase - Stun in effect (the new Stun included) < 1; the
    reference sheet's 2D6 - Stun - backward hexes < 7 is the option `stumble_rule="reference"`.
M12 Q36: a defender put into a hex another gladiator holds collides with him there, resolved the
    same way (cause "push"). After a pair has collided it does not roll for a crossing again. A
    runaway chain (only possible with three or more figures) stops after `2·n²` collisions and
    anyone still sharing a hex is put in the nearest free hex (proposal).

In the Advanced Game the map's edges may be walls (§7.7.1, §25): given an `arena`, tracks stop
at walls, pushes into them pin, and leaving the map rolls for a wall (walls.py, W3-W9).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal, NamedTuple, Protocol

from gladiator.core.hexgrid import (
    Hex,
    HexMap,
    direction_to,
    distance,
    neighbor,
    relation_of,
    ring,
)
from gladiator.rules.colosseum.board import BoardTooSmall, map_edge_shift
from gladiator.rules.colosseum.collision_records import (
    Collision,
    CollisionCause,
    FigureState,
    Impact,
    MovementResult,
    StumbleCheck,
    StumbleRule,
    StunRoll,
)
from gladiator.rules.colosseum.combat_geometry import positional_advantage
from gladiator.rules.colosseum.events import Event, event
from gladiator.rules.colosseum.positions import Position, as_position, hex_text
from gladiator.rules.colosseum.tables import stun_result, tables
from gladiator.rules.colosseum.walls import (
    Arena,
    Edge,
    EdgeCheck,
    WallCollision,
    check_edges,
    wall_stun,
)

__all__ = ["HOLD_GROUND_IF", "MovementDice", "resolve_movement", "stumble_check"]

HOLD_GROUND_IF = 3  # §8.4, §36: the Hold Ground talent's IF bonus (not printed in T12)

_StepKind = Literal["start", "forward", "backward", "roll", "push"]


class MovementDice(Protocol):
    """What this module needs of `gladiator.core.dice.Dice`."""

    def d(self, sides: int, purpose: str, rule: str) -> int: ...

    def roll(self, notation: str, purpose: str, rule: str) -> int: ...


# --- tracks (M1) ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Step:
    """One hex of a track: the facing he had on entering it and the last one he had in it."""

    hex: Hex
    entry_facing: int
    last_facing: int
    kind: _StepKind


def _track(name: str, figure: FigureState, poses: Sequence[Any]) -> list[_Step]:
    if len(poses) == 0:
        raise ValueError(f"{name}: a path needs at least its starting position")
    positions = [as_position(p) for p in poses]
    first = positions[0]
    steps = [_Step(first.hex, first.facing, first.facing, "start")]
    for pos in positions[1:]:
        last = steps[-1]
        if pos.hex == last.hex:
            steps[-1] = _Step(last.hex, last.entry_facing, pos.facing, last.kind)
            continue
        if direction_to(last.hex, pos.hex) is None:
            raise ValueError(
                f"{name}: a path moves one hex at a time, {hex_text(last.hex)} to "
                f"{hex_text(pos.hex)} is not"
            )
        kind: _StepKind
        if figure.rolling:
            kind = "roll"
        else:
            rel = relation_of(last.hex, last.last_facing, pos.hex)
            kind = "forward" if rel in (0, 1, 5) else "backward"
        steps.append(_Step(pos.hex, pos.facing, pos.facing, kind))
    if figure.holds_hex and len(steps) > 1:
        raise ValueError(f"{name}: a Prone gladiator who does not Roll cannot move (§16.4)")
    return steps


def _cut(track: list[_Step], i: int) -> list[_Step]:
    """M4: the track stopped at its i-th step, facing as he was when the collision happened."""
    step = track[i]
    facing = step.entry_facing if i > 0 else step.last_facing
    return [*track[:i], _Step(step.hex, step.entry_facing, facing, step.kind)]


def _final(track: list[_Step]) -> Position:
    return Position(track[-1].hex, track[-1].last_facing)


def _first_index(track: list[_Step]) -> dict[Hex, int]:
    out: dict[Hex, int] = {}
    for i, step in enumerate(track):
        out.setdefault(step.hex, i)
    return out


class _Candidate(NamedTuple):
    key: tuple[int, int, int]
    x: str
    y: str
    hex: Hex
    ix: int
    iy: int
    cause: CollisionCause
    certain: bool


def _pair_candidate(
    order: int,
    x: str,
    y: str,
    tracks: Mapping[str, list[_Step]],
    figures: Mapping[str, FigureState],
    rolled: set[frozenset[str]],
    collided: set[frozenset[str]],
) -> _Candidate | None:
    tx, ty = tracks[x], tracks[y]
    pair = frozenset((x, y))
    best: _Candidate | None = None

    def consider(h: Hex, ix: int, iy: int, cause: CollisionCause, certain: bool) -> None:
        nonlocal best
        cand = _Candidate((max(ix, iy), min(ix, iy), order), x, y, h, ix, iy, cause, certain)
        if best is None or cand.key < best.key:
            best = cand

    end = tx[-1].hex if tx[-1].hex == ty[-1].hex else None
    if end is not None:  # M2
        ix, iy = len(tx) - 1, len(ty) - 1
        pushed = tx[ix].kind == "push" or ty[iy].kind == "push"
        holds = figures[x].holds_hex or figures[y].holds_hex
        cause: CollisionCause = "push" if pushed else "prone" if holds else "same_hex"
        consider(end, ix, iy, cause, True)
    if pair not in collided:
        first_x, first_y = _first_index(tx), _first_index(ty)
        for h, ix in first_x.items():
            iy_ = first_y.get(h)
            if iy_ is None or h == end:
                continue
            if figures[x].holds_hex or figures[y].holds_hex:  # M5
                consider(h, ix, iy_, "prone", True)
            elif len(tx) == 1 or len(ty) == 1:  # M3: one of them holds his hex all phase
                consider(h, ix, iy_, "occupied", True)
            elif pair not in rolled:  # M3
                consider(h, ix, iy_, "crossing", False)
    return best


# --- collisions (§8) -----------------------------------------------------------------------------


def _impact_drms(
    figure: FigureState, forward: int, backward: int, pa: int, stun: int
) -> list[tuple[str, int]]:
    """M6: T12's DRMs that apply, by their names in data/collision.toml."""
    t = tables().collision.t12.drms
    out: list[tuple[str, int]] = []
    if figure.gladiator_class == "heavy":
        out.append(("heavy", t.heavy.drm))
    elif figure.gladiator_class == "medium":
        out.append(("medium", t.medium.drm))
    if figure.shield == "large":
        out.append(("large_shield", t.large_shield.drm))
    elif figure.shield is None:
        out.append(("no_shield", t.no_shield.drm))
    if forward:
        out.append(("moved_forward", forward * t.moved_forward.drm))
    if backward:
        out.append(("moved_backward", backward * t.moved_backward.drm))
    if figure.rolling:
        out.append(("rolled", t.rolled.drm))
    if figure.kneeling or figure.stumbling or figure.rising:  # M5: one getting up is Kneeling
        out.append(("kneeling_or_stumbling", t.kneeling_or_stumbling.drm))
    if figure.ensnared:
        out.append(("ensnared", t.ensnared.drm))
    if figure.recovering:
        out.append(("attempted_recover", t.attempted_recover.drm))
    if stun:
        out.append(("stun", stun * t.stun.drm))
    if figure.st:
        out.append(("strength", figure.st * t.strength.drm))
    if figure.ag:
        out.append(("agility", figure.ag * t.agility.drm))
    if pa:
        out.append(("positional_advantage", pa * t.positional_advantage.drm))
    if figure.hold_ground:
        out.append(("hold_ground", HOLD_GROUND_IF))
    return out


def _moved(track: list[_Step], i: int) -> tuple[int, int]:
    """Hexes he moved forward and backward by his own plot up to his i-th step (M6)."""
    kinds = [s.kind for s in track[1 : i + 1]]
    return kinds.count("forward"), kinds.count("backward")


def _before(track: list[_Step], i: int) -> Position:
    """M7: where he stood just before the collision in his i-th step's hex."""
    if i > 0:
        return Position(track[i - 1].hex, track[i - 1].last_facing)
    return Position(track[0].hex, track[0].last_facing)


@dataclass
class _Phase:
    figures: Mapping[str, FigureState]
    tracks: dict[str, list[_Step]]
    dice: MovementDice
    stumble_rule: StumbleRule
    arena: Arena | None = None
    events: list[Event] = field(default_factory=list)
    collisions: list[Collision] = field(default_factory=list)
    added_stun: dict[str, int] = field(default_factory=dict)
    # §25 (W3, W6): when each figure's first collision happened (the later arrival's step), and
    # the collisions with walls.
    stopped: dict[str, int] = field(default_factory=dict)
    wall_hits: list[WallCollision] = field(default_factory=list)

    def stun_now(self, name: str) -> int:
        return self.figures[name].stun + self.added_stun.get(name, 0)

    # -- one collision -------------------------------------------------------------------------

    def collide(self, c: _Candidate, crossing: tuple[int, int] | None) -> None:
        x, y, h = c.x, c.y, c.hex
        tx, ty = self.tracks[x], self.tracks[y]
        for f in (x, y):
            self.stopped.setdefault(f, c.key[0])
        rule = {
            "same_hex": "§8.1",
            "occupied": "§8.1",
            "crossing": "§8.1.1",
            "prone": "§8.3",
            "push": "Q36",
        }[c.cause]
        how = {
            "same_hex": "end their movement in the same hex",
            "occupied": "meet in the hex one of them holds all phase",
            "crossing": "rolled equal dice where their paths cross",
            "prone": "meet where a Prone gladiator lies",
            "push": "meet where one of them was pushed",
        }[c.cause]
        self.events.append(
            event("collision", rule, f"{x} and {y} {how}: they collide in {hex_text(h)}", hex=h)
        )
        self.events.append(
            event(
                "stop",
                "§8.2",
                f"{x} and {y} stop where they collided; any movement left is cancelled",
                figures=[x, y],
            )
        )
        fx, fy = self.figures[x], self.figures[y]
        prone_one = x if fx.at_mercy else y if fy.at_mercy else None
        if prone_one is not None:
            other = y if prone_one == x else x
            if not self.figures[other].prone:
                self.mercy(c, prone_one, other, crossing)
                return
        self.impact(c, tx, ty, crossing)

    def mercy(
        self, c: _Candidate, victim: str, victor: str, crossing: tuple[int, int] | None
    ) -> None:
        """M5: §8.3 a standing gladiator runs into a Prone one who is not rolling."""
        i = c.ix if victor == c.x else c.iy
        track = self.tracks[victor]
        # He stops in the hex he came from, as he stood there (he never entered the Prone's hex).
        self.tracks[victor] = track[:i] if i > 0 else _cut(track, 0)
        placed = _final(self.tracks[victor])
        self.events.append(
            event(
                "mercy",
                "§8.3",
                f"{victor} has the Prone {victim} at his mercy: the match ends and goes to the "
                f"Moment of Truth; {victor} stops in {hex_text(placed.hex)}",
                victor=victor,
                victim=victim,
            )
        )
        self.events.append(
            event("moment_of_truth", "§18.2.1", f"Moment of Truth: {victim} Prone before {victor}")
        )
        self.collisions.append(
            Collision(
                c.hex,
                (c.x, c.y),
                c.cause,
                crossing_dice=crossing,
                mercy=victim,
                placements=tuple((n, _final(self.tracks[n])) for n in (c.x, c.y)),
            )
        )

    def impact(
        self, c: _Candidate, tx: list[_Step], ty: list[_Step], crossing: tuple[int, int] | None
    ) -> None:
        x, y, h = c.x, c.y, c.hex
        index = {x: c.ix, y: c.iy}
        old = {x: tx, y: ty}
        pinned: dict[str, Edge] = {}
        before = {n: _before(old[n], index[n]) for n in (x, y)}
        impacts: dict[str, Impact] = {}
        for me, other in ((x, y), (y, x)):
            fig = self.figures[me]
            forward, backward = _moved(old[me], index[me])
            pa = 0
            if before[me].hex != before[other].hex:
                pa = positional_advantage(
                    before[me], before[other], left_handed=self.figures[other].left_handed
                )
            drms = _impact_drms(fig, forward, backward, pa, self.stun_now(me))
            die = self.dice.d(6, f"{me} Impact Factor (T12)", "§8.4")
            total = die + sum(v for _, v in drms)
            impacts[me] = Impact(me, die, tuple(drms), total, forward, backward, pa)
            detail = "".join(f" {v:+d} {name}" for name, v in drms)
            self.events.append(
                event(
                    "impact_factor",
                    "§8.4",
                    f"{me} Impact Factor: 1D6 {die}{detail} = {total}",
                    figure=me,
                    total=total,
                )
            )
        ifx, ify = impacts[x].total, impacts[y].total
        placements: dict[str, Position] = {}
        if ifx == ify:
            attacker: str | None = None
            defenders: tuple[str, ...] = (x, y)
            self.events.append(
                event("tie", "§8.4.2", f"equal Impact Factors ({ifx}): both are defenders")
            )
            for n in (x, y):
                i = index[n]
                if i == 0:
                    self.tracks[n] = _cut(old[n], 0)
                else:
                    prev = old[n][i - 1]
                    face = direction_to(prev.hex, h)
                    assert face is not None
                    self.tracks[n] = [
                        *old[n][: i - 1],
                        _Step(prev.hex, prev.entry_facing, face, prev.kind),
                    ]
                placements[n] = _final(self.tracks[n])
                where = "stays in" if i == 0 else "goes back to"
                self.events.append(
                    event(
                        "placed",
                        "§8.4.2",
                        f"{n} {where} {hex_text(placements[n].hex)} facing {placements[n].facing}",
                        figure=n,
                        hex=placements[n].hex,
                        facing=placements[n].facing,
                    )
                )
        else:
            attacker = x if ifx > ify else y
            defender = y if attacker == x else x
            defenders = (defender,)
            self.events.append(
                event(
                    "attacker",
                    "§8.4.1",
                    f"{attacker} (IF {impacts[attacker].total}) is the attacker, {defender} "
                    f"(IF {impacts[defender].total}) the defender",
                    attacker=attacker,
                    defender=defender,
                )
            )
            ia, idf = index[attacker], index[defender]
            wall = self.wall_behind(old[attacker], ia, h)
            if wall is None:
                self.tracks[attacker] = _cut(old[attacker], ia)
                text = f"{attacker} stays in the contested hex {hex_text(h)}"
            else:  # W6: the defender's hex is taken, so he stops where he entered from
                self.tracks[attacker] = old[attacker][:ia]
                text = (
                    f"{defender} has the {wall} wall at his back: {attacker} stops in "
                    f"{hex_text(old[attacker][ia - 1].hex)}"
                )
                pinned[defender] = wall
            placements[attacker] = _final(self.tracks[attacker])
            self.events.append(
                event(
                    "placed",
                    "§8.4.1" if wall is None else "§25.4",
                    text,
                    figure=attacker,
                    hex=placements[attacker].hex,
                    facing=placements[attacker].facing,
                )
            )
            d_cut = _cut(old[defender], idf)
            facing = d_cut[-1].last_facing
            if wall is not None:
                self.tracks[defender] = d_cut
                to = h
                text = f"{defender} is pinned against the {wall} wall in {hex_text(h)}"
            elif ia > 0:
                d = direction_to(old[attacker][ia - 1].hex, h)
                assert d is not None
                to = neighbor(h, d)
                self.tracks[defender] = [*d_cut, _Step(to, facing, facing, "push")]
                text = f"{defender} is pushed straight through to {hex_text(to)}"
            else:
                prev = old[defender][idf - 1]
                to = prev.hex
                self.tracks[defender] = [
                    *old[defender][: idf - 1],
                    _Step(to, prev.entry_facing, facing, prev.kind),
                ]
                text = f"{attacker} did not move: {defender} goes back to {hex_text(to)}"
            placements[defender] = _final(self.tracks[defender])
            self.events.append(
                event(
                    "placed",
                    "§8.4.1" if wall is None else "§25.4",
                    text,
                    figure=defender,
                    hex=to,
                    facing=facing,
                )
            )
        stun_rolls: list[StunRoll] = []
        checks: list[StumbleCheck] = []
        for n in defenders:
            modifier = 0 if attacker is None else impacts[attacker].total - impacts[n].total
            roll = self.dice.roll("2D6", f"{n} collision Stun (T7 Stun row)", "§8.4.3")
            points, extra = stun_result(roll + modifier)
            stun_rolls.append(StunRoll(n, roll, modifier, roll + modifier, points, extra))
            self.added_stun[n] = self.added_stun.get(n, 0) + points
            more = f" and {extra.replace('_', ' ')}" if extra else ""
            self.events.append(
                event(
                    "stun",
                    "§8.4.3",
                    f"{n} Stun roll: 2D6 {roll} {modifier:+d} = {roll + modifier}: "
                    f"{points} Stun{more}",
                    figure=n,
                    stun=points,
                    extra=extra,
                )
            )
            if n in pinned:  # W6, Q36: the wall is a positional penalty, before the check
                self.wall_hit(n, h, pinned[n], impacts[n].forward, 0, pushed=True)
            checks.append(self.stumble_check(n, impacts[n].backward))
        self.collisions.append(
            Collision(
                h,
                (x, y),
                c.cause,
                crossing_dice=crossing,
                impacts=(impacts[x], impacts[y]),
                attacker=attacker,
                defenders=defenders,
                placements=tuple((n, placements[n]) for n in (x, y)),
                stun_rolls=tuple(stun_rolls),
                stumble_checks=tuple(checks),
            )
        )

    def stumble_check(
        self,
        n: str,
        backward: int,
        why: str = "after losing a collision",
        section: str = "§8.4.4",
    ) -> StumbleCheck:
        """M11: §8.4.4, §15.2.1 (Q5)."""
        check, event = stumble_check(
            n, backward, self.stun_now(n), self.dice, self.stumble_rule, why, section
        )
        self.events.append(event)
        return check

    # -- walls (§25, walls.py) -------------------------------------------------------------------

    def wall_behind(self, track: list[_Step], i: int, h: Hex) -> Edge | None:
        """W6: the wall beyond the contested hex `h`, straight on from the attacker's hex of
        entry (his i-th step is `h`); None without one, or if he has no hex of entry."""
        if self.arena is None or i == 0:
            return None
        d = direction_to(track[i - 1].hex, h)
        assert d is not None
        return self.arena.wall_beyond(neighbor(h, d))

    def wall_hit(
        self, n: str, h: Hex, edge: Edge, forward: int, backward: int, *, pushed: bool
    ) -> None:
        """§25.4 (W4, W5): his T13 Stun roll, and his Stumble check unless he was pushed (the
        collision's check follows) or option `wall_stumble` is off."""
        assert self.arena is not None
        hit, ev = wall_stun(
            n, h, edge, ag=self.figures[n].ag, forward=forward, pushed=pushed, dice=self.dice
        )
        self.events.append(ev)
        self.added_stun[n] = self.added_stun.get(n, 0) + hit.stun_roll.stun
        if not pushed and self.arena.stumble:
            check = self.stumble_check(n, backward, "after running into a wall", "§25.4")
            hit = replace(hit, stumble_check=check)
        self.wall_hits.append(hit)


def stumble_check(
    n: str,
    backward: int,
    stun: int,
    dice: MovementDice,
    rule: StumbleRule = "text",
    why: str = "after losing a collision",
    section: str = "§8.4.4",
) -> tuple[StumbleCheck, Event]:
    """§15.1, §15.2.1 (Q5, M11): 1D6 - hexes moved backward - Stun in effect, below 1 he has
    stumbled (`rule="reference"`: 2D6 - Stun - backward, below 7). `section` names the rule that
    asked for the check (§8.4.4 a lost collision, §15.1 stepping back onto an item)."""
    if rule == "text":
        roll = dice.d(6, f"{n} Stumble check {why}", "§15.2.1")
        total = roll - backward - stun
        stumbled = total < 1
        formula = f"1D6 {roll} - {backward} backward - {stun} Stun = {total}, below 1"
    else:
        roll = dice.roll("2D6", f"{n} Stumble check {why}", "§15.2.1")
        total = roll - stun - backward
        stumbled = total < 7
        formula = f"2D6 {roll} - {stun} Stun - {backward} backward = {total}, below 7"
    verdict = "he stumbles and must Stumble next phase" if stumbled else "he keeps his feet"
    ev = event(
        "stumble_check",
        section,
        f"{n} Stumble check (§15.2.1): {formula}? {verdict}",
        figure=n,
        stumbled=stumbled,
    )
    return StumbleCheck(n, rule, roll, backward, stun, total, stumbled), ev


def _nearest_free(h: Hex, taken: set[Hex]) -> Hex:
    radius = 1
    while True:
        for cand in ring(h, radius):
            if cand not in taken:
                return cand
        radius += 1


def _uncrowded(
    names: Sequence[str], tracks: Mapping[str, list[_Step]]
) -> tuple[dict[str, Position], list[Event]]:
    """Where the tracks end; M12: only a runaway chain of pushes can leave two in one hex."""
    positions = {n: _final(tracks[n]) for n in names}
    events: list[Event] = []
    taken: set[Hex] = set()
    for n in names:
        if positions[n].hex in taken:
            free = _nearest_free(positions[n].hex, taken)
            events.append(
                event(
                    "crowded",
                    "Q36",
                    f"{n} cannot stay in crowded {hex_text(positions[n].hex)}; "
                    f"he moves to {hex_text(free)}",
                    figure=n,
                )
            )
            positions[n] = Position(free, positions[n].facing)
        taken.add(positions[n].hex)
    return positions, events


def _hold_at_edge(
    names: Sequence[str],
    tracks: dict[str, list[_Step]],
    events: list[Event],
    walled: Collection[str] = (),
) -> None:
    """E9, §7.7: the board cannot hold everyone where the tracks end (they have run farther
    apart than it is wide). Each man whose last step took him farther from the nearest other is
    held one step short (all who moved, if none did); the caller tries the shift again. They all
    began the phase on the board, so this ends. W9: a man a wall holds (`walled`) stays there."""

    def nearest(n: str, h: Hex) -> int:
        return min((distance(h, tracks[o][-1].hex) for o in names if o != n), default=0)

    moved = [n for n in names if len(tracks[n]) > 1 and n not in walled]
    moved = moved or [n for n in names if len(tracks[n]) > 1]
    away = [n for n in moved if nearest(n, tracks[n][-1].hex) > nearest(n, tracks[n][-2].hex)]
    for n in away or moved:
        tracks[n] = _cut(tracks[n], len(tracks[n]) - 2)
        events.append(
            event(
                "held_at_edge",
                "§7.7",
                f"{n} is held at the edge of the arena in {hex_text(tracks[n][-1].hex)}: the "
                "board cannot keep everyone on it farther apart (E9)",
                figure=n,
                hex=tracks[n][-1].hex,
            )
        )


def resolve_movement(
    figures: Mapping[str, FigureState],
    paths: Mapping[str, Sequence[Any]],
    dice: MovementDice,
    *,
    board: HexMap,
    stumble_rule: StumbleRule = "text",
    arena: Arena | None = None,
) -> MovementResult:
    """§5.2.2, §8, §7.7: reveal every path and execute them together (RULINGS M1-M13).

    `paths[name]` is the gladiator's list of `(hex, facing)` poses for this phase, his current
    position first; one who does not move gives just that. Every figure in `figures` needs a
    path and they must start in different hexes of `board`. Figures are handled in the mapping's
    order (dice are rolled in that order within each collision). With an `arena` (the Advanced
    Game's walls, §25) the walls it marks stop the tracks and leaving the map rolls for a wall
    (W3-W9); `board` must be the arena's rectangle.
    """
    if set(figures) != set(paths):
        raise ValueError(
            f"figures {sorted(figures)} and paths {sorted(paths)} must name the same gladiators"
        )
    if stumble_rule not in ("text", "reference"):
        raise ValueError(f"stumble_rule must be 'text' or 'reference', got {stumble_rule!r}")
    names = list(figures)
    tracks = {n: _track(n, figures[n], paths[n]) for n in names}
    starts: dict[Hex, str] = {}
    for n in names:
        start = tracks[n][0].hex
        if start in starts:
            raise ValueError(f"{starts[start]} and {n} cannot start in the same hex (§8.1)")
        if start not in board:
            raise ValueError(f"{n} starts off the board at {hex_text(start)}")
        starts[start] = n
    phase = _Phase(figures, tracks, dice, stumble_rule, arena)
    for n in names:
        end = _final(tracks[n])
        steps = len(tracks[n]) - 1
        phase.events.append(
            event(
                "reveal",
                "§5.2.2",
                f"{n} plots {steps} hex{'es' if steps != 1 else ''} from "
                f"{hex_text(tracks[n][0].hex)} "
                f"to {hex_text(end.hex)} facing {end.facing}",
                figure=n,
            )
        )

    # W3: a walled edge stops him where he meets it; (index of the step, wall, track before it).
    at_wall: dict[str, tuple[int, Edge, list[_Step]]] = {}
    if arena is not None:
        for n in names:
            blocked = arena.blocked_step([s.hex for s in tracks[n]])
            if blocked is not None:
                tracks[n] = tracks[n][: blocked[0]]
                at_wall[n] = (blocked[0], blocked[1], list(tracks[n]))

    def reach_walls(until: int | None) -> None:
        """W3: the wall collisions of those whose step into the wall came by step `until`."""
        for n in names:
            if n in at_wall and (until is None or at_wall[n][0] <= until):
                i, edge, before = at_wall.pop(n)
                if phase.stopped.get(n, i) >= i:  # no collision stopped him short of it
                    forward, backward = _moved(before, i - 1)
                    phase.wall_hit(n, before[-1].hex, edge, forward, backward, pushed=False)

    pairs = [(names[i], names[j]) for i in range(len(names)) for j in range(i + 1, len(names))]
    rolled: set[frozenset[str]] = set()
    collided: set[frozenset[str]] = set()
    limit = 2 * len(names) ** 2
    while len(phase.collisions) < limit:
        found = [
            cand
            for order, (x, y) in enumerate(pairs)
            if (cand := _pair_candidate(order, x, y, tracks, figures, rolled, collided)) is not None
        ]
        if not found:
            break
        c = min(found, key=lambda cand: cand.key)
        reach_walls(c.key[0])
        pair = frozenset((c.x, c.y))
        crossing: tuple[int, int] | None = None
        if not c.certain:
            a = dice.d(6, f"{c.x} crossing {c.y}'s path", "§8.1.1")
            b = dice.d(6, f"{c.y} crossing {c.x}'s path", "§8.1.1")
            crossing = (a, b)
            rolled.add(pair)
            verdict = "match: they collide" if a == b else "no collision"
            phase.events.append(
                event(
                    "crossing",
                    "§8.1.1",
                    f"{c.x} and {c.y} both pass through {hex_text(c.hex)}: "
                    f"1D6 {a} and {b}, {verdict}",
                    hex=c.hex,
                    dice=[a, b],
                    collide=a == b,
                )
            )
            if a != b:
                continue
        collided.add(pair)
        phase.collide(c, crossing)

    reach_walls(None)

    walled = {w.figure for w in phase.wall_hits}
    while True:
        positions, crowd_events = _uncrowded(names, tracks)
        try:
            positions, shift, shift_events = map_edge_shift(positions, board)
        except BoardTooSmall:
            _hold_at_edge(names, tracks, phase.events, walled)  # E9, W9
            continue
        phase.events.extend(crowd_events)
        break
    markers: frozenset[str] | None = None
    edge_checks: tuple[EdgeCheck, ...] = ()
    if arena is not None:  # W7: the wall check for each edge he left the map across
        # W3, W6: nobody's track ever goes into a wall (the property tests lean on this).
        assert all(arena.blocked_step([s.hex for s in tracks[n]]) is None for n in names)
        crossings = sorted(
            (i, k, n, e)
            for k, n in enumerate(names)
            for i, e in arena.crossings([s.hex for s in tracks[n]])
        )
        walls_now, edge_checks, edge_events = check_edges(
            arena, [(n, e) for _, _, n, e in crossings], dice
        )
        markers = frozenset(walls_now)
        phase.events.extend(edge_events)
    phase.events.extend(shift_events)
    for n in names:
        phase.events.append(
            event(
                "moved",
                "§5.2.2",
                f"{n} ends in {hex_text(positions[n].hex)} facing {positions[n].facing}",
                figure=n,
                hex=positions[n].hex,
                facing=positions[n].facing,
            )
        )
    moved = {n: tuple((step.hex, str(step.kind)) for step in tracks[n]) for n in names}
    return MovementResult(
        positions,
        phase.events,
        phase.collisions,
        shift,
        moved,
        tuple(phase.wall_hits),
        edge_checks,
        markers,
    )
