"""How the tactician plays: its judgement, not rules, in CF-like units of a phase's worth."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Weights"]


@dataclass(frozen=True, slots=True)
class Weights:
    """How the tactician plays (judgement, not rules), in CF-like units of a phase's worth."""

    engaged: float = 6.0  # in range, each in the other's front
    engaged_free: float = 7.0  # in range, he must turn to me (§9.1.2) and gets no PA
    turned: float = 2.0  # he may strike and I am turned to face him
    near: float = 2.0  # adjacent, nobody in a front
    per_hex: float = 1.5  # farther than adjacent: per hex
    cone: float = 1.0  # farther, but he is ahead of me: one step closes in
    collide: float = -6.0  # ending in his hex (§8.1)
    cross: float = -2.0  # passing through his hex (§8.1.1 crossing roll)
    mercy: float = 50.0  # entering a Prone man's hex: the Moment of Truth (§8.3, §18.2.1)
    move: float = 0.5  # a movement phase spent (§5.2.1), more when they run short
    scarce: float = 2.5
    exceed: float = 9.0  # the §17.3 extra phase: endurance +1, two phases fewer next turn
    kneel: float = 5.0  # kneeling voluntarily (§14.3: his attacks at half CF)
    rise: float = 3.0  # KN from Prone, or standing up from Kneeling (§14.1, §16.4)
    recover_weapon: float = 5.0  # R for a weapon within reach (§13.4)
    recover_shield: float = 1.0
    to_item: float = 2.0  # per hex to the weapon he lacks
    throw: float = 20.0  # throwing away his weapon or shield (§13.3)
    kick: float = 2.0  # an item he lacks kicked three hexes farther from him (§13.5)
    noise: float = 0.3  # plot score noise (ties broken at random)
    area_noise: float = 0.25  # +-25% on each target area's worth
    performance: float = 1.0  # worth of one point of §18.3 performance value
    min_attack: int = 1  # the smallest attack considered (§9.5: 1 CF is an attack)
    # The Advanced Game (§19-§26); none of these is read in the Basic Game.
    outreached: float = -3.0  # at range 2+ he strikes me and I cannot strike back (F8)
    reach_edge: float = 3.0  # at range 2+ he cannot strike back and I can (§21, F8)
    halved: float = 1.5  # each halving of my attack where I end (F10: scimitar at range 2...)
    wall_hit: float = -12.0  # a plot that runs into a wall: a collision and Stun (§25.4, W3)
    my_wall: float = 1.5  # my back a hex from a wall: a push pins me there (W6)
    foe_wall: float = 1.5  # his back a hex from a wall, and I have him in my front
    blood: float = -2.0  # entering a Blood counter: a Stumble check (§26.3)
    unknown: float = 0.1  # how often a plot it cannot read is drawn at random instead
    throw_gain: float = 3.0  # per CF of worth of a throw with another weapon to draw (§13.3)
    throw_melee: float = 3.0  # the attacks of the phase a throw cancels (F5)
    # Issue 38: the Advanced Game's orders it weighs (off: the tactician before them, for studies).
    specials: bool = True  # §22's special attacks and defences (tactician/specials.py)
    nets: bool = True  # §20's net attacks, escape and drag (tactician/nets.py)
    net_range: float = 3.0  # net in hand: he two or three hexes off, in my toss's front (T16)
    # The trident in both hands at full CF (§20.9.2 NOTE) once the net is dropped (§20.8.2) or
    # let go round a man it ensnares (§20.5.6): on 200 Retiarius v Secutor duels against this
    # tactician, a Retiarius who drops it wins 56.5%, one forbidden the net (who keeps it in
    # hand) 25.5% (docs/ai/advanced-bots.json).
    drop_net: float = 25.0
    beasts: bool = True  # §28: where to stand against a beast (tactician/beasts.py)
    teams: bool = True  # §27: fight the opponent worth most, ganging up (team_aim.focus)
