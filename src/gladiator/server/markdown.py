"""A small, safe Markdown renderer for the in-app rules reference (docs/rules/*.md).

Only what those pages use: headings, paragraphs, bullet lists (nested by indentation), `**bold**`,
`*italic*`, `` `code` `` and `[links](target)`. Every character of the source is HTML-escaped
before any markup is added, so a page can never carry a script or an attribute of its own; a
link goes only to a page of this site or an http(s) address.

Anchors, so that a § citation can point into the page: a heading `## §9 Combat` gets
`id="s9"`, a list item opening with `**9.5**` gets `id="s9.5"` and a number in bold inside an
item (`**9.5.3**`) an anchor of its own. Every `§9.5` in the text links to `#s9.5`.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

__all__ = ["Rendered", "render"]

_HEADING = re.compile(r"^(#{1,4})\s+(.*)$")
_ITEM = re.compile(r"^(\s*)[-*]\s+(.*)$")
_SECTION_HEAD = re.compile(r"^§\s*(\d+(?:\.\d+)*)\b")
_NUMBER = re.compile(r"^\*\*(\d+(?:\.\d+)+|\d+)\*\*")
_CODE = re.compile(r"`([^`]+)`")
_BOLD_NUMBER = re.compile(r"\*\*(\d+(?:\.\d+)+)\*\*")
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_ITALIC = re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])")
_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")
_CITE = re.compile(r"§(\d+(?:\.\d+)*)")
_SAFE_TARGET = re.compile(r"^(#[\w.-]*|/[\w./#-]*|https?://[\w./#?=&%:-]+)$")


@dataclass
class Rendered:
    """The page's body as HTML and its table of contents: (anchor, heading text) per §."""

    body: str
    toc: list[tuple[str, str]] = field(default_factory=list)


def anchor(number: str) -> str:
    return f"s{number}"


def _inline(text: str) -> str:
    """Escape, then add the inline markup. Code spans are cut out first so nothing inside
    them is read as markup."""
    parts = _CODE.split(text)
    out: list[str] = []
    for i, part in enumerate(parts):
        if i % 2:
            out.append(f"<code>{html.escape(part)}</code>")
            continue
        s = html.escape(part, quote=True)
        s = _LINK.sub(_link, s)
        s = _BOLD_NUMBER.sub(lambda m: f'<b id="{anchor(m.group(1))}">{m.group(1)}</b>', s)
        s = _BOLD.sub(r"<b>\1</b>", s)
        s = _ITALIC.sub(r"<i>\1</i>", s)
        s = _CITE.sub(
            lambda m: f'<a class="cite" href="#{anchor(m.group(1))}">§{m.group(1)}</a>', s
        )
        out.append(s)
    return "".join(out)


def _link(m: re.Match[str]) -> str:
    label, target = m.group(1), html.unescape(m.group(2))
    if not _SAFE_TARGET.match(target) or target.endswith(".md"):
        return label  # another document of the repository, or a scheme we do not follow
    return f'<a href="{html.escape(target, quote=True)}">{label}</a>'


def render(source: str) -> Rendered:
    """The Markdown `source` as HTML (see the module's notes)."""
    out: list[str] = []
    toc: list[tuple[str, str]] = []
    para: list[str] = []
    depth: list[int] = []  # the indentation of each open list
    item_open = False

    def close_para() -> None:
        if para:
            out.append(f"<p>{_inline(' '.join(para))}</p>")
            para.clear()

    def close_lists(to: int = 0) -> None:
        nonlocal item_open
        while len(depth) > to:
            depth.pop()
            out.append("</li></ul>")
        item_open = bool(depth)

    for raw in source.splitlines():
        line = raw.rstrip()
        if not line.strip():
            close_para()
            continue
        head = _HEADING.match(line)
        item = _ITEM.match(line)
        if head:
            close_para()
            close_lists()
            level, text = len(head.group(1)), head.group(2).strip()
            sec = _SECTION_HEAD.match(text)
            ident = f' id="{anchor(sec.group(1))}"' if sec else ""
            if sec:
                toc.append((anchor(sec.group(1)), text))
            out.append(f"<h{level}{ident}>{_inline(text)}</h{level}>")
        elif item:
            close_para()
            indent, text = len(item.group(1)), item.group(2)
            if not depth or indent > depth[-1]:
                depth.append(indent)
                out.append("<ul>")
            else:
                while len(depth) > 1 and indent < depth[-1]:
                    depth.pop()
                    out.append("</li></ul>")
                out.append("</li>")
            num = _NUMBER.match(text)
            ident = f' id="{anchor(num.group(1))}"' if num else ""
            if num:  # the item's own number is its anchor, not a second one inside it
                text = f"<<NUM>>{text[num.end() :]}"
            body = _inline(text).replace(
                "&lt;&lt;NUM&gt;&gt;", f"<b>{num.group(1)}</b>" if num else ""
            )
            out.append(f"<li{ident}>{body}")
        elif depth and raw.startswith(" "):
            out.append(" " + _inline(line.strip()))  # a list item's continuation line
        else:
            close_lists()
            para.append(line.strip())
    close_para()
    close_lists()
    return Rendered("\n".join(out), toc)
