"""The terminal's compact redraw: after an order, only what changed on screen is printed again.

A ruleset's `render_text` is blocks separated by blank lines (a heading, the hex map, the status
lines, the log sheets). A block that did not change is not printed; the map, when it changed, is
printed whole (a map's rows make sense only together; it is the block drawn mostly in `·`, the
empty hexes of core.textmap); any other block prints its first line (what it is: "red Light", a
sheet's title) and then only its lines that changed."""

from __future__ import annotations

__all__ = ["changes"]

EMPTY_HEX = "·"  # core.textmap's empty hex


def _is_map(block: str) -> bool:
    marks = "".join(block.split())
    return bool(marks) and marks.count(EMPTY_HEX) * 3 > len(marks)


def changes(old: str | None, new: str) -> str:
    """What to print to bring a screen showing `old` up to `new` ("" when nothing changed;
    all of `new` when nothing was shown)."""
    if old is None:
        return new
    if old == new:
        return ""
    before = old.split("\n\n")
    out: list[str] = []
    for i, block in enumerate(new.split("\n\n")):
        was = before[i] if i < len(before) else None
        if block == was:
            continue
        if was is None or _is_map(block):
            out.append(block)
            continue
        lines = block.split("\n")
        seen = set(was.split("\n"))
        changed = [line for line in lines[1:] if line not in seen]
        head = lines[0]
        shown = [head] if head not in seen or changed else []
        out.append("\n".join(shown + [f"  {line.strip()}" for line in changed]))
    return "\n\n".join(part for part in out if part)
