"""What the scripted players of the browser tests choose, and how they enter it in the page.

A plain function of the decision and scene the server sends (docs/web.md), so that a test's
match is the same every run: close in on the nearest enemy, face him, strike when a strike is
offered (quick rules); a fixed random draw where tactics do not matter (skirmish moves). The
page is then driven the way a player would: a click in the option list, a click on a
highlighted hex, numbers typed into the distribute form."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any, Literal

How = Literal["option", "hex", "slots", "as-is"]


@dataclass(frozen=True)
class Entry:
    """An order and the way to give it in the page: `option` clicks the option's button,
    `hex` clicks the hex `hex` on the board, `slots` types `slots` into the distribute form,
    `as-is` submits what the form shows (an arrangement)."""

    text: str
    how: How
    hex: tuple[int, int] | None = None
    slots: dict[str, int] = field(default_factory=dict)


def distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Hex distance in axial coordinates (core.hexgrid)."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def direction(a: tuple[int, int], b: tuple[int, int]) -> int:
    """The facing (0 = north, clockwise) that points from a most nearly at b, flat-top hexes."""
    x = 1.5 * (b[0] - a[0])
    y = math.sqrt(3) * ((b[1] - a[1]) + (b[0] - a[0]) / 2)
    return round(math.degrees(math.atan2(x, -y)) / 60) % 6


def _figures(scene: dict[str, Any], seat: str) -> tuple[dict[str, Any] | None, list[Any]]:
    alive = [f for f in scene.get("figures", []) if f.get("alive", True)]
    me = next((f for f in alive if f["seat"] == seat), None)
    return me, [tuple(f["hex"]) for f in alive if f["seat"] != seat]


def quick_entry(decision: dict[str, Any], scene: dict[str, Any], seat: str) -> Entry:
    """Quick rules: strike or cast when offered, spare a helpless man, else close in on the
    nearest enemy (a click on the highlighted hex), turn to face him, and end the turn."""
    options = decision["options"]
    texts = [o["text"] for o in options]
    for wanted in ("ST", "NET", "UP"):
        if wanted in texts:
            return Entry(wanted, "option")
    me, enemies = _figures(scene, seat)
    if me is None or not enemies:
        return Entry("E" if "E" in texts else texts[0], "option")
    here = tuple(me["hex"])
    target = min(enemies, key=lambda e: distance(here, e))
    now = distance(here, target)
    steps = [o for o in options if "hex" in o and distance(tuple(o["hex"]), target) > 0]
    closer = [o for o in steps if distance(tuple(o["hex"]), target) < now]
    if closer:
        best = min(
            closer, key=lambda o: (distance(tuple(o["hex"]), target), texts.index(o["text"]))
        )
        # The first option that ends on that hex is what a click there selects.
        first = next(o for o in options if o.get("hex") == best["hex"])
        return Entry(first["text"], "hex", hex=(best["hex"][0], best["hex"][1]))
    turn = (direction(here, target) - me["facing"]) % 6
    if turn and "R" in texts and turn <= 3:
        return Entry("R", "option")
    if turn and "L" in texts:
        return Entry("L", "option")
    return Entry("E" if "E" in texts else texts[0], "option")


def colosseum_entry(decision: dict[str, Any], scene: dict[str, Any], seat: str) -> Entry:
    """Colosseum: plot the move that ends nearest the enemy, facing him (from the option
    list), tossing the net (`+TN`, §20.5) when the move ends with him in reach ahead;
    allocate the CFs (`_allocation`)."""
    if decision["kind"] == "distribute":
        return _allocation(decision)
    if decision["kind"] != "choose":
        return Entry("", "as-is")
    options = decision["options"]
    me, enemies = _figures(scene, seat)
    if me is None or not enemies:
        return Entry(options[0]["text"], "option")
    here = tuple(me["hex"])
    target = min(enemies, key=lambda e: distance(here, e))

    def off(o: dict[str, Any]) -> tuple[int, int]:
        end = tuple(o.get("hex") or here)
        turn = (direction(end, target) - o.get("facing", me["facing"])) % 6
        return distance(end, target), min(turn, 6 - turn)

    def worth(o: dict[str, Any]) -> tuple[int, int, int]:
        far, turn = off(o)
        return (far if far else 99, turn, len(o["text"]))

    # §20.5, T40: a toss reaches a man up to three hexes straight ahead when the move is done.
    tosses = [o for o in options if o["text"].endswith("+TN") and 1 <= off(o)[0] <= 3]
    tosses = [o for o in tosses if off(o)[1] == 0]
    if tosses:
        return Entry(min(tosses, key=worth)["text"], "option")
    # Any other net order (swing, lay, let go, drop, Repel Net) and thrown weapons are left
    # alone: the plain moves are enough to close in.
    plain = [o for o in options if "+" not in o["text"] and o["text"] != "RN"] or options
    return Entry(min(plain, key=worth)["text"], "option")


def _plain(slots: list[dict[str, Any]], prefix: str) -> dict[str, Any] | None:
    """The first plain attack (A-AREA) or defence (D-AREA) box that may take CFs; special
    attacks and defences (§22, `A-ARMS-DISARM`, `D-HEAD-DUCK`) are left alone."""
    plain = (s for s in slots if s["name"].startswith(prefix) and s["name"].count("-") == 1)
    return next((s for s in plain if s["max"]), None)


def _allocation(decision: dict[str, Any]) -> Entry:
    """Half the CFs to one attack and the rest to one defence; the net's slots first where
    offered (§20.5.4 an ensnared man's ESCAPE, §20.5.5 the Retiarius's DRAG): half to them."""
    slots = decision["slots"]
    budget = decision["budget"]
    by_name = {s["name"]: s for s in slots}
    values: dict[str, int] = {}
    left = budget

    groups = decision.get("groups", [])

    def room(slot: dict[str, Any]) -> int:
        """What the slot may still take, within its own limit and every group's cap on it
        (§10.3.3: the CFs of positional advantage go to attacks, not defences)."""
        caps = [slot["max"] - values.get(slot["name"], 0)]
        for g in groups:
            if slot["name"] in g["slots"]:
                caps.append(g["max"] - sum(values.get(n, 0) for n in g["slots"]))
        return min(caps)

    def give(slot: dict[str, Any] | None, wanted: int) -> None:
        nonlocal left
        n = min(room(slot), wanted, left) if slot else 0
        if slot and n > 0:
            values[slot["name"]] = values.get(slot["name"], 0) + n
            left -= n

    for net in ("ESCAPE", "DRAG"):
        give(by_name.get(net), (budget + 1) // 2)
    attack = _plain(slots, "A-")
    give(attack, (left + 1) // 2)
    give(_plain(slots, "D-"), left)
    give(attack, left)  # what no defence may take goes on the attack
    text = " ".join(f"{s['name']}:{values[s['name']]}" for s in slots if values.get(s["name"]))
    return Entry(text or "-", "slots", slots=values)


def random_entry(decision: dict[str, Any], rng: random.Random) -> Entry:
    """A fixed random draw: an option from the list, or a highlighted hex on the board."""
    if decision["kind"] == "choose":
        return Entry(rng.choice(decision["options"])["text"], "option")
    if decision["kind"] == "hex":
        q, r = rng.choice(decision["hexes"])
        return Entry(f"{q},{r}", "hex", hex=(q, r))
    return Entry("", "as-is")
