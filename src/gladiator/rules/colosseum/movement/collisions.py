"""One movement phase's collisions resolved (§8.2-§8.4, §25.4): who is at whose mercy, the
Impact Factors (T12), who is the attacker, where each ends, the Stun roll and the Stumble check,
and the collisions with walls. `movement.py` finds the collisions, in order, along the tracks
(`movement_tracks.py`) and hands each one to a `CollisionPhase`, which keeps the phase's events,
collision records, the Stun added and the wall hits.

RULINGS (shared/rules/colosseum.md; numbered with movement.py's M series)

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
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from gladiator.core.hexgrid import Hex, direction_to, neighbor
from gladiator.rules.colosseum.arena.combat_geometry import positional_advantage
from gladiator.rules.colosseum.arena.positions import Position, hex_text
from gladiator.rules.colosseum.arena.walls import Arena, Edge, WallCollision, wall_stun
from gladiator.rules.colosseum.events import Event, event
from gladiator.rules.colosseum.movement.collision_records import (
    Collision,
    FigureState,
    Impact,
    StumbleCheck,
    StumbleRule,
    StunRoll,
)
from gladiator.rules.colosseum.movement.movement_tracks import (
    Candidate,
    Step,
    cut_track,
    hexes_moved,
    track_end,
)
from gladiator.rules.colosseum.movement.stumble_check import (
    HOLD_GROUND_IF,
    MovementDice,
    stumble_check,
)
from gladiator.rules.colosseum.tables.tables import stun_result, tables

__all__ = ["CollisionPhase"]


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


def _before(track: list[Step], i: int) -> Position:
    """M7: where he stood just before the collision in his i-th step's hex."""
    if i > 0:
        return Position(track[i - 1].hex, track[i - 1].last_facing)
    return Position(track[0].hex, track[0].last_facing)


@dataclass
class CollisionPhase:
    figures: Mapping[str, FigureState]
    tracks: dict[str, list[Step]]
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

    def collide(self, c: Candidate, crossing: tuple[int, int] | None) -> None:
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
        self, c: Candidate, victim: str, victor: str, crossing: tuple[int, int] | None
    ) -> None:
        """M5: §8.3 a standing gladiator runs into a Prone one who is not rolling."""
        i = c.ix if victor == c.x else c.iy
        track = self.tracks[victor]
        # He stops in the hex he came from, as he stood there (he never entered the Prone's hex).
        self.tracks[victor] = track[:i] if i > 0 else cut_track(track, 0)
        placed = track_end(self.tracks[victor])
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
                placements=tuple((n, track_end(self.tracks[n])) for n in (c.x, c.y)),
            )
        )

    def impact(
        self, c: Candidate, tx: list[Step], ty: list[Step], crossing: tuple[int, int] | None
    ) -> None:
        x, y, h = c.x, c.y, c.hex
        index = {x: c.ix, y: c.iy}
        old = {x: tx, y: ty}
        pinned: dict[str, Edge] = {}
        before = {n: _before(old[n], index[n]) for n in (x, y)}
        impacts: dict[str, Impact] = {}
        for me, other in ((x, y), (y, x)):
            fig = self.figures[me]
            forward, backward = hexes_moved(old[me], index[me])
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
                    self.tracks[n] = cut_track(old[n], 0)
                else:
                    prev = old[n][i - 1]
                    face = direction_to(prev.hex, h)
                    assert face is not None
                    self.tracks[n] = [
                        *old[n][: i - 1],
                        Step(prev.hex, prev.entry_facing, face, prev.kind),
                    ]
                placements[n] = track_end(self.tracks[n])
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
                self.tracks[attacker] = cut_track(old[attacker], ia)
                text = f"{attacker} stays in the contested hex {hex_text(h)}"
            else:  # W6: the defender's hex is taken, so he stops where he entered from
                self.tracks[attacker] = old[attacker][:ia]
                text = (
                    f"{defender} has the {wall} wall at his back: {attacker} stops in "
                    f"{hex_text(old[attacker][ia - 1].hex)}"
                )
                pinned[defender] = wall
            placements[attacker] = track_end(self.tracks[attacker])
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
            d_cut = cut_track(old[defender], idf)
            facing = d_cut[-1].last_facing
            if wall is not None:
                self.tracks[defender] = d_cut
                to = h
                text = f"{defender} is pinned against the {wall} wall in {hex_text(h)}"
            elif ia > 0:
                d = direction_to(old[attacker][ia - 1].hex, h)
                assert d is not None
                to = neighbor(h, d)
                self.tracks[defender] = [*d_cut, Step(to, facing, facing, "push")]
                text = f"{defender} is pushed straight through to {hex_text(to)}"
            else:
                prev = old[defender][idf - 1]
                to = prev.hex
                self.tracks[defender] = [
                    *old[defender][: idf - 1],
                    Step(to, prev.entry_facing, facing, prev.kind),
                ]
                text = f"{attacker} did not move: {defender} goes back to {hex_text(to)}"
            placements[defender] = track_end(self.tracks[defender])
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

    def wall_behind(self, track: list[Step], i: int, h: Hex) -> Edge | None:
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
