"""The low-level SVG of :mod:`irprops.figures`: escaped text, fixed-format numbers, a canvas that sizes itself, and the
pieces every figure shares (a wrapped heading, a legend, round axis ticks).

Each helper returns the element as a string and records how far it reaches (a text's width is estimated at 0.6 em a
character, 0.7 for capitals, 0.9 for M and W, a tenth more in bold), so the document's ``width``, ``height`` and
``viewBox`` are the drawing's extent plus a margin: nothing is clipped, whatever the labels. Numbers are printed with
one decimal and no ids are generated, so the same drawing gives the same bytes on every machine.

>>> c = Canvas()
>>> c.add(c.text(16, 30, "P<=20 & a \\"quote\\""))
>>> svg = c.document("A title", "One sentence on what it shows.")
>>> svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" width="') and "P&lt;=20 &amp; a &quot;quote&quot;" in svg
True
>>> num(2.25), num(-0.01), num(3.0)
('2.2', '0', '3')
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal, NamedTuple

Anchor = Literal["start", "middle", "end"]
INK = "#24292f"
"""The colour of ordinary text and axes."""
MUTED = "#57606a"
"""The colour of explanations (legends, axis titles)."""
MARGIN = 16.0


def num(x: float) -> str:
    """A coordinate with one decimal, without a trailing ``.0`` (and never ``-0``)."""
    text = f"{round(x, 1) + 0.0:.1f}".removesuffix(".0")
    return "0" if text == "-0" else text


def esc(text: str) -> str:
    """Text escaped for XML content and attribute values alike."""
    return html.escape(text, quote=True)


def text_width(text: str, size: float, bold: bool = False) -> float:
    """A generous estimate of a text's width in px: 0.6 em a character, 0.7 for capitals, 0.9 for the widest letters."""
    ems = sum(0.9 if ch in "MWmw@%" else 0.7 if ch.isupper() or ch in "&≤" else 0.6 for ch in text)
    return ems * size * (1.1 if bold else 1.0)


def _attrs(attrs: dict[str, object]) -> str:
    """``key="value"`` pairs in the order given (``_`` in a key becomes ``-``, ``cls`` is ``class``), numbers through
    :func:`num`, None left out."""
    out = []
    for key, value in attrs.items():
        if value is None:
            continue
        shown = num(value) if isinstance(value, float | int) and not isinstance(value, bool) else esc(str(value))
        out.append(f' {"class" if key == "cls" else key.rstrip("_").replace("_", "-")}="{shown}"')
    return "".join(out)


class Run(NamedTuple):
    """One stretch of a text in one style (a ``<tspan>``)."""

    text: str
    size: float = 12.0
    bold: bool = False
    fill: str | None = None
    cls: str | None = None


@dataclass
class Canvas:
    """Elements drawn so far and how far right and down they reach."""

    parts: list[str] = field(default_factory=list)
    right: float = 0.0
    bottom: float = 0.0

    def reach(self, x: float, y: float) -> None:
        self.right, self.bottom = max(self.right, x), max(self.bottom, y)

    def add(self, *elements: str) -> None:
        self.parts.extend(elements)

    def text(self, x: float, y: float, content: str | Sequence[Run], *, size: float = 12.0, anchor: Anchor = "start",
             bold: bool = False, fill: str = INK, rotate: float | None = None, **attrs: object) -> str:
        """A ``<text>`` whose baseline starts (or is centred, or ends) at (x, y), optionally turned by ``rotate`` degrees;
        never left of the margin."""
        runs = [Run(content, size, bold)] if isinstance(content, str) else list(content)
        width = sum(text_width(r.text, r.size, r.bold) for r in runs) + 0.3 * size * (len(runs) - 1)
        left = x - {"start": 0.0, "middle": width / 2, "end": width}[anchor]
        if left < MARGIN:  # a centred or right-aligned text that would cross the left margin moves right of it
            x, left = x + MARGIN - left, MARGIN
        self.reach(left + width, y + 0.3 * size)  # turned text reaches less far right than it would lying flat
        body = esc(content) if isinstance(content, str) else " ".join(
            f"<tspan{_attrs({'font-size': r.size, 'font-weight': 'bold' if r.bold else None, 'fill': r.fill, 'cls': r.cls})}>"
            f"{esc(r.text)}</tspan>" for r in runs)
        turn = f"rotate({num(rotate)} {num(x)} {num(y)})" if rotate is not None else None
        style = {"x": x, "y": y, "font-size": size, "text-anchor": None if anchor == "start" else anchor,
                 "font-weight": "bold" if bold else None, "fill": fill, "transform": turn}
        return f"<text{_attrs({**style, **attrs})}>{body}</text>"

    def rect(self, x: float, y: float, w: float, h: float, **attrs: object) -> str:
        self.reach(x + w, y + h)
        return f"<rect{_attrs({'x': x, 'y': y, 'width': w, 'height': h, **attrs})}/>"

    def line(self, x1: float, y1: float, x2: float, y2: float, **attrs: object) -> str:
        self.reach(max(x1, x2), max(y1, y2))
        return f"<line{_attrs({'x1': x1, 'y1': y1, 'x2': x2, 'y2': y2, **attrs})}/>"

    def circle(self, cx: float, cy: float, r: float, **attrs: object) -> str:
        self.reach(cx + r, cy + r)
        return f"<circle{_attrs({'cx': cx, 'cy': cy, 'r': r, **attrs})}/>"

    def document(self, title: str, desc: str) -> str:
        """The SVG document: the extent of the drawing plus a margin, its title and one-sentence description first."""
        width, height = math.ceil(self.right + MARGIN), math.ceil(self.bottom + MARGIN)
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
                f'role="img" font-family="sans-serif">')
        return "\n".join([head, f"<title>{esc(title)}</title>", f"<desc>{esc(desc)}</desc>",
                          self.rect(0, 0, width, height, fill="#ffffff"), *self.parts, "</svg>"]) + "\n"


def group(*elements: str, title: str | None = None, cls: str | None = None) -> str:
    """A ``<g>`` whose ``<title>`` (a tooltip in browsers) says what its elements mean."""
    tip = f"<title>{esc(title)}</title>" if title is not None else ""
    return f"<g{_attrs({'cls': cls})}>{tip}{''.join(elements)}</g>"


Key = Callable[[Canvas, float, float], str] | str
"""A legend key: drawn with its baseline at (x, y), 14 px wide, or letters shown in bold."""


def swatch(fill: str, outline: str) -> Key:
    """A legend key: a small filled square."""
    return lambda c, x, y: c.rect(x, y - 10, 13, 12, fill=fill, stroke=outline, stroke_width=1.2)


def stroke(colour: str, width: float = 2.0, dash: str | None = None) -> Key:
    """A legend key: a short line, as the figure draws it."""
    return lambda c, x, y: c.line(x, y - 4, x + 14, y - 4, stroke=colour, stroke_width=width, stroke_dasharray=dash)


def heading(c: Canvas, title: str, width: float, size: float = 14.0) -> float:
    """The figure's title in bold at the top, in as few lines as fit ``width`` (at least 400 px), balanced (no line of one
    word under a long one); returns the y below it."""
    def wrap(limit: float) -> list[str]:
        lines = [""]
        for piece in title.split():
            if lines[-1] and text_width(f"{lines[-1]} {piece}", size, True) > limit:
                lines.append("")
            lines[-1] = f"{lines[-1]} {piece}".strip()
        return lines

    count = len(wrap(max(width, 400.0)))
    limit = text_width(title, size, True) / count
    while len(wrap(limit)) > count:
        limit += 10
    y = MARGIN + size
    for line in wrap(limit):
        c.add(c.text(MARGIN, y, line, size=size, bold=True))
        y += size * 1.35
    return y + 4


def legend(c: Canvas, items: Sequence[tuple[Key, str]], y: float, width: float, size: float = 10.5) -> float:
    """Keys and what they mean, left to right from the margin at baseline y, a new line where ``width`` is reached;
    returns the last line's baseline."""
    x = MARGIN
    for key, text in items:
        key_width = text_width(key, size, True) if isinstance(key, str) else 14.0
        need = key_width + 5 + text_width(text, size) + 16
        if x > MARGIN and x + need > MARGIN + max(width, 320.0):
            x, y = MARGIN, y + 18
        c.add(c.text(x, y, key, size=size, bold=True) if isinstance(key, str) else key(c, x, y),
              c.text(x + key_width + 5, y, text, size=size, fill=MUTED))
        x += need
    return y


def ticks(lo: float, hi: float, count: int = 5, integer: bool = False) -> tuple[list[float], int]:
    """Round tick values covering [lo, hi] (steps of 1, 2 or 5 times a power of ten), and the decimals they need.

    Only products and quotients by 10 find the step (no logarithm), so every machine finds the same ticks.

    >>> ticks(0.0, 0.75)
    ([0.0, 0.2, 0.4, 0.6000000000000001, 0.8], 1)
    >>> ticks(1, 10, 6, integer=True)
    ([0.0, 2.0, 4.0, 6.0, 8.0, 10.0], 0)
    """
    hi = hi if hi > lo else lo + 1
    raw, mag, exp = (hi - lo) / count, 1.0, 0
    while mag * 10 <= raw:
        mag, exp = mag * 10, exp + 1
    while mag > raw:
        mag, exp = mag / 10, exp - 1
    factor = next(m for m in (1, 2, 5, 10) if m * mag >= raw)
    step, decimals = factor * mag, max(0, -(exp + (factor == 10)))
    if integer:
        step, decimals = max(1.0, float(round(step))), 0
    first, last = math.floor(lo / step + 1e-9), math.ceil(hi / step - 1e-9)
    return [n * step for n in range(first, last + 1)], decimals
