"""Figures for the reports, as hand-written SVG: the same inputs give the same bytes on every machine.

* :func:`verdict_grid`: metrics by properties, each cell coloured by its verdict and marked by its evidence;
* :func:`combinations`: which metrics share which combination of properties;
* :func:`score_against_k`: one ranking's score against the depth k, the step that breaks a property in red;
* :func:`arrangement_scores`: realizability, every arrangement's score against one situation's that beats them all.

No plotting library: rectangles, lines and texts placed by arithmetic (:mod:`irprops.svg`), so the committed files
never change with a library's version. Floats only place things; every number a reader sees is an exact string the
caller passes. Colours are those of the HTML table (yes green, no red, unknown amber), and never carry a meaning
alone: a cell also says Yes / No and its mark, a combination's squares are filled, empty or hatched.

Reference: A. Moffat, "Seven Numeric Properties of Effectiveness Metrics", AIRS 2013 (the properties, Table 2).

>>> from irprops.verdicts import ProofRecord, Reach, Search, Verdict, Witness
>>> yes = Verdict(Prop.BOUNDED, "yes", proof=ProofRecord("yes", Reach(), (), ("trusted",)))
>>> no = Verdict(Prop.MONOTONIC, "no", search=Search("exhaustive", "found"), witness=Witness({}, "a witness"))
>>> svg = verdict_grid([("AP@k", {Prop.BOUNDED: yes, Prop.MONOTONIC: no})], [Prop.BOUNDED, Prop.MONOTONIC], title="Two cells")
>>> svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"') and "AP@k, monotonic: No (exact counterexample)" in svg
True
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Collection, Mapping, Sequence

from irprops.svg import INK, MARGIN, MUTED, Canvas, Key, Run, group, heading, legend, stroke, swatch, text_width, ticks
from irprops.table.render_text import HEADERS, mark, word
from irprops.verdicts import Prop, Verdict

__all__ = ["arrangement_scores", "combinations", "score_against_k", "verdict_grid"]

COLOURS = {"yes": ("#1a7f37", "#dafbe1"), "no": ("#b42318", "#ffebe9"), "unknown": ("#9a6700", "#fff8c5")}
"""Verdict -> (dark colour for marks and strokes, light fill)."""
WARNING, DATA, GRID, BAR = COLOURS["no"][0], "#0969da", "#d0d7de", "#afb8c1"
BODY, SMALL, PAD = 12.0, 10.5, 8.0


def _name(prop: Prop) -> str:
    return str(prop).replace("_", "-")


def _shown(verdict: Verdict) -> str:
    """The mark as the figures print it: ``P<=20`` becomes ``P≤20``."""
    return mark(verdict).replace("<=", "≤")


def _meaning(verdict: Verdict) -> str:
    found = mark(verdict)
    if found == "W":
        return "exact counterexample"
    if found == "?":
        return "neither proved nor refuted"
    reach = "every k" if found == "P" else f"k ≤ {found.removeprefix('P<=')}"
    return f"{'its negation ' if verdict.verdict == 'no' else ''}proved for {reach}"


def verdict_grid(rows: Sequence[tuple[str, Mapping[Prop, Verdict]]], columns: Sequence[Prop], *, title: str,
                 highlight: Collection[str] = ()) -> str:
    """Metrics (rows) by properties (columns), as Table 2 of Moffat (AIRS 2013) lays them out.

    Each cell is coloured by its verdict (yes / no / unknown) and says it (``Yes``, ``No``, ``Unk.``) with its mark, as
    :func:`irprops.table.render_text.mark` gives it: P proved for every k, P≤K proved for k ≤ K, W an exact counterexample,
    ? unknown; its tooltip says it in words. Rows named in ``highlight`` (a proposal beside the catalog's metrics) are
    outlined and bold. A legend below explains the colours and marks. (A :class:`~irprops.verdicts.CheckResult` gives
    its mapping as ``.verdicts``.)

    >>> from irprops.verdicts import ProofRecord, Reach, Verdict
    >>> proved = Verdict(Prop.BOUNDED, "yes", proof=ProofRecord("yes", Reach(20), (), ("trusted",)))
    >>> svg = verdict_grid([("mine@k", {Prop.BOUNDED: proved})], [Prop.BOUNDED], title="A proposal", highlight={"mine@k"})
    >>> ">P≤20</tspan>" in svg and 'class="highlight"' in svg
    True
    """
    cells = [[(_shown(v), "Unk." if v.verdict == "unknown" else word(v)) for v in (row[p] for p in columns)] for _, row in rows]
    label_w = max((text_width(label, BODY, True) for label, _ in rows), default=0.0) + 2 * PAD
    widths = [max([text_width(HEADERS.get(p, _name(p)), BODY, True)]
                  + [text_width(line[i][1], BODY, True) + text_width(line[i][0], SMALL) + 4 for line in cells]) + 2 * PAD
              for i, p in enumerate(columns)]
    xs = [MARGIN + label_w + sum(widths[:i]) for i in range(len(columns))]
    total = label_w + sum(widths)
    y = heading(c := Canvas(), title, total) + BODY + 2
    for x, w, p in zip(xs, widths, columns, strict=True):
        c.add(c.text(x + w / 2, y, HEADERS.get(p, _name(p)), anchor="middle", bold=True))
    y += 8
    for (label, row), line in zip(rows, cells, strict=True):
        bold = label in highlight
        if bold:
            c.add(c.rect(MARGIN - 3, y, total + 6, 26, fill="none", stroke=INK, stroke_width=2, rx=3, cls="highlight"))
        c.add(c.text(MARGIN + PAD, y + 17.5, label, bold=bold))
        for x, w, p, (shown, said) in zip(xs, widths, columns, line, strict=True):
            dark, light = COLOURS[row[p].verdict]
            runs = [Run(said, BODY, True, dark), Run(shown, SMALL, False, dark, "mark")]
            tip = f"{label}, {_name(p)}: {word(row[p])} ({_meaning(row[p])})"
            c.add(group(c.rect(x + 1, y + 2, w - 2, 22, fill=light, stroke=dark, stroke_width=0.6),
                        c.text(x + w / 2, y + 17.5, runs, anchor="middle", fill=dark), title=tip, cls=f"cell {row[p].verdict}"))
        y += 26
    legend(c, [(swatch(COLOURS[v][1], COLOURS[v][0]), v.capitalize()) for v in COLOURS] + [
        ("P", "proved for every k (on a No: its negation)"), ("P≤K", "proved for k ≤ K only"), ("W", "exact counterexample"),
        ("?", "neither proved nor refuted")], y + 22, total)
    counts = {v: sum(row[p].verdict == v for _, row in rows for p in columns) for v in COLOURS}
    desc = (f"The verdicts of {len(rows)} metrics on {len(columns)} properties of Moffat (AIRS 2013): "
            f"{counts['yes']} Yes, {counts['no']} No, {counts['unknown']} unknown.")
    return c.document(title, desc)


def _square(c: Canvas, x: float, y: float, verdict: str, size: float = 13.0) -> str:
    """A combination's square at (x, y), its top left corner: filled for yes, empty for no, hatched for unknown."""
    dark, light = COLOURS[verdict]
    fill = {"yes": dark, "no": "#ffffff", "unknown": light}[verdict]
    parts = [c.rect(x, y, size, size, fill=fill, stroke=dark, stroke_width=1.5)]
    if verdict == "unknown":
        parts += [c.line(x + a, y + size - b, x + size - b, y + a, stroke=dark, stroke_width=1)
                  for a, b in ((0.0, 0.0), (0.0, size / 2), (size / 2, 0.0))]
    return "".join(parts)


def _wrap(labels: Sequence[str], width: float) -> list[str]:
    """``a, b, c``, broken into lines no wider than ``width`` (a longer label keeps a line of its own)."""
    lines = [""]
    for label in labels:
        if lines[-1] and text_width(f"{lines[-1]}, {label}", BODY) > width:
            lines[-1] += ","
            lines.append("")
        lines[-1] = f"{lines[-1]}, {label}" if lines[-1] else label
    return lines


def combinations(rows: Sequence[tuple[str, Mapping[Prop, Verdict]]], columns: Sequence[Prop], *, title: str) -> str:
    """Which metrics share which combination of properties (Moffat, AIRS 2013, Section 4: thirteen metrics, ten combinations).

    One line per distinct verdict pattern over ``columns``, in the order the patterns first appear in ``rows``: a strip
    of squares under the (slanted) column headers, filled for Yes, empty for No, hatched for unknown, then how many
    metrics share it and which.

    >>> from irprops.verdicts import ProofRecord, Reach, Verdict
    >>> yes = Verdict(Prop.BOUNDED, "yes", proof=ProofRecord("yes", Reach(), (), ("trusted",)))
    >>> svg = combinations([("P@k", {Prop.BOUNDED: yes}), ("AP@k", {Prop.BOUNDED: yes})], [Prop.BOUNDED], title="Shared")
    >>> "P@k, AP@k" in svg and ">2</text>" in svg
    True
    """
    groups: dict[tuple[str, ...], list[str]] = {}
    for label, row in rows:
        groups.setdefault(tuple(row[p].verdict for p in columns), []).append(label)
    heads = [HEADERS.get(p, _name(p)) for p in columns]
    pitch, strip_x = 24.0, MARGIN + 2
    count_x = strip_x + pitch * len(columns) + 22
    most = max([240.0, *(text_width(label, BODY) + 4 for label, _ in rows)])
    lists = {pattern: _wrap(labels, most) for pattern, labels in groups.items()}
    list_x = count_x + 12
    list_w = max([text_width("Metrics", BODY, True), *(text_width(line, BODY) for lines in lists.values() for line in lines)])
    y = heading(c := Canvas(), title, list_x - MARGIN + list_w)
    y += max((text_width(h, BODY, True) for h in heads), default=0.0) * math.sqrt(0.5) + BODY
    for i, head in enumerate(heads):
        c.add(c.text(strip_x + pitch * i + 14, y, head, bold=True, rotate=-45))
    c.add(c.text(count_x, y, "n", anchor="end", bold=True), c.text(list_x, y, "Metrics", bold=True))
    y += 8
    for pattern, labels in groups.items():
        lines = lists[pattern]
        squares = [group(_square(c, strip_x + pitch * i + 4, y + 5, v), title=f"{_name(p)}: {v.capitalize()}")
                   for i, (p, v) in enumerate(zip(columns, pattern, strict=True))]
        texts = [c.text(list_x, y + 16 + 16 * n, line) for n, line in enumerate(lines)]
        sides = "; ".join(f"{v.capitalize()}: {', '.join(_name(p) for p, w in zip(columns, pattern, strict=True) if w == v) or 'none'}"
                          for v in COLOURS)
        c.add(group(*squares, c.text(count_x, y + 16, str(len(labels)), anchor="end", bold=True, cls="count"), *texts,
                    title=f"{len(labels)} with {sides} ({', '.join(labels)})", cls="pattern"))
        y += 16 * len(lines) + 8
        c.add(c.line(MARGIN, y + 0.5, list_x + list_w, y + 0.5, stroke=GRID, stroke_width=0.6))
    y = legend(c, [(lambda c, x, y: _square(c, x, y - 11, "yes", 12), "Yes"), (lambda c, x, y: _square(c, x, y - 11, "no", 12), "No"),
                (lambda c, x, y: _square(c, x, y - 11, "unknown", 12), "Unknown")], y + 20, list_x - MARGIN + list_w)
    c.add(c.text(MARGIN, y + 22, f"{len(rows)} metrics in {len(groups)} combinations.", size=SMALL, fill=MUTED, cls="summary"))
    return c.document(title, f"The {len(groups)} combinations of the {len(columns)} properties of Moffat (AIRS 2013) that "
                             f"{len(rows)} metrics span, and the metrics that share each.")


def score_against_k(points: Sequence[tuple[int, float | None]], *, title: str, failing: tuple[int, int],
                    labels: Mapping[int, str] = {}) -> str:
    """A small line plot of one ranking's score against the depth k, the step that breaks a property in red.

    ``None`` is a score undefined at that k: a gap in the line, marked × on the axis. The step from depth ``failing[0]``
    to depth ``failing[1]`` is drawn in the warning colour and annotated with the two scores (``labels[k]``, exact
    strings such as ``"1/2"``, else the float shortened); the y range includes both.

    >>> svg = score_against_k([(1, 1.0), (2, 0.5)], title="P@k of 10", failing=(1, 2))
    >>> svg.startswith("<svg")
    True
    """
    values = dict(points)
    if not set(failing) <= set(values):
        raise ValueError(f"the failing depths {failing} are not among the points")
    defined = [v for v in values.values() if v is not None]
    xticks, _ = ticks(min(values), max(values), 6, integer=True)
    xticks = [t for t in xticks if min(values) <= t <= max(values)]
    yticks, decimals = ticks(min([0.0, *defined]), max(defined, default=1.0))
    ytexts = [f"{t:.{decimals}f}" for t in yticks]
    width, height = 360.0, 180.0
    left = MARGIN + max(text_width(t, SMALL) for t in ytexts) + 8
    top = heading(c := Canvas(), title, left - MARGIN + width) + 18
    k0, k1 = min(values), max(values)

    def say(k: int) -> str:
        """The score at depth k as the figure writes it: the caller's exact label, else the float shortened."""
        value = values[k]
        return labels.get(k, "undefined" if value is None else f"{value:.3g}")

    def at(k: float, v: float) -> tuple[float, float]:
        return (left + 14 + (width - 28) * (k - k0) / max(k1 - k0, 1),
                top + height - height * (v - yticks[0]) / (yticks[-1] - yticks[0]))

    c.add(c.text(MARGIN, top - 8, "score", size=SMALL, fill=MUTED))
    for t, text in zip(yticks, ytexts, strict=True):
        y = at(k0, t)[1]
        c.add(c.line(left, y, left + width, y, stroke=GRID, stroke_width=0.6), c.text(left - 6, y + 3.5, text, size=SMALL, anchor="end"))
    for k in xticks:
        x = at(k, 0.0)[0]
        c.add(c.line(x, top + height, x, top + height + 4, stroke=INK),
              c.text(x, top + height + 16, f"{k:.0f}", size=SMALL, anchor="middle"))
    c.add(c.line(left, top, left, top + height, stroke=INK), c.line(left, top + height, left + width, top + height, stroke=INK),
          c.text(left + width / 2, top + height + 32, "depth k", size=SMALL, anchor="middle", fill=MUTED))
    for (ka, va), (kb, vb) in itertools.pairwise(points):
        if va is not None and vb is not None:
            c.add(c.line(*at(ka, va), *at(kb, vb), stroke=DATA, stroke_width=1.5, cls="score"))
    (ka, va), (kb, vb) = ((k, values[k]) for k in failing)
    if va is not None and vb is not None:
        c.add(c.line(*at(ka, va), *at(kb, vb), stroke=WARNING, stroke_width=3, stroke_linecap="round", cls="failing"))
    for k, v in points:
        if v is None:
            x, y = at(k, yticks[0])
            c.add(group(c.line(x - 4, y - 4, x + 4, y + 4, stroke=MUTED, stroke_width=1.5),
                        c.line(x - 4, y + 4, x + 4, y - 4, stroke=MUTED, stroke_width=1.5), title=f"k = {k}: {say(k)}", cls="undefined"))
            continue
        x, y = at(k, v)
        bad = k in failing
        dot = c.circle(x, y, 4.5 if bad else 3, fill=WARNING if bad else DATA, stroke="#ffffff", stroke_width=1)
        other = values[failing[1] if k == failing[0] else failing[0]]
        above = other is None or v >= other
        note = c.text(x, y - 9 if above else y + 18, say(k), anchor="middle", bold=True, fill=WARNING, cls="value") if bad else ""
        c.add(group(dot, note, title=f"k = {k}: {say(k)}"))
    keys: list[tuple[Key, str]] = [(stroke(DATA, 1.5), "score at depth k"),
                                   (stroke(WARNING, 3), f"the step from k = {failing[0]} to k = {failing[1]}")]
    if any(v is None for v in values.values()):
        keys.append((lambda c, x, y: c.text(x + 7, y, "×", size=BODY, anchor="middle", fill=MUTED), "undefined at that k"))
    legend(c, keys, top + height + 54, left - MARGIN + width)
    return c.document(title, f"The score at depths {k0} to {k1}, with the step from k = {ka} ({say(ka)}) to k = {kb} ({say(kb)}) marked.")


def arrangement_scores(bars: Sequence[tuple[str, float | None, str]], *, title: str, maximum: float,
                       maximum_label: str, better: tuple[str, float, str]) -> str:
    """Realizability (Moffat, AIRS 2013): every arrangement's score against a situation that scores above them all.

    One horizontal bar per arrangement of the judged documents at the witness's depth (its label, such as ``"110"``, a
    float for its length, the exact text shown at its end; ``None`` is an undefined score, written as such), a dashed
    line at the largest score any arrangement reaches (``maximum``, labelled ``maximum_label``), and one more bar, in the
    warning colour, for the situation ``better`` = (label, value, exact text) that scores above it.

    >>> svg = arrangement_scores([("10", 0.5, "1/2"), ("01", 0.5, "1/2")], title="Prec@2", maximum=0.5, maximum_label="1/2",
    ...                          better=("1 (k = 1)", 1.0, "1"))
    >>> 'stroke-dasharray="5 3"' in svg and ">1 (k = 1)</text>" in svg
    True
    """
    values = [v for _, v, _ in bars if v is not None] + [maximum, better[1]]
    scale, decimals = ticks(min(0.0, *values), max(values))
    width = 300.0
    left = MARGIN + max([*(text_width(label, BODY) for label, _, _ in bars), text_width(better[0], BODY, True)]) + 10
    texts = max(text_width(text, BODY, True) for _, _, text in [*bars, better]) + 8
    top = heading(c := Canvas(), title, left - MARGIN + width + texts) + 24

    def at(v: float) -> float:
        return left + width * (v - scale[0]) / (scale[-1] - scale[0])

    y, zero = top, at(0.0)
    for label, value, text in bars:
        c.add(c.text(left - 8, y + 12.5, label, anchor="end"))
        if value is None:
            c.add(c.text(zero + 4, y + 12.5, text or "undefined", fill=MUTED, font_style="italic", cls="undefined"))
        else:
            x0, x1 = sorted((zero, at(value)))
            c.add(group(c.rect(x0, y, x1 - x0, 17, fill=BAR), c.text(x1 + 4, y + 12.5, text), title=f"{label}: {text}", cls="bar"))
        y += 24
    y += 10
    x0, x1 = sorted((zero, at(better[1])))
    c.add(c.text(left - 8, y + 12.5, better[0], anchor="end", bold=True, fill=WARNING),
          group(c.rect(x0, y, x1 - x0, 17, fill=WARNING), c.text(x1 + 4, y + 12.5, better[2], bold=True, fill=WARNING),
                title=f"{better[0]}: {better[2]}, above {maximum_label}", cls="better"))
    bottom = y + 24
    c.add(c.line(at(maximum), top - 6, at(maximum), bottom, stroke=INK, stroke_width=1.2, stroke_dasharray="5 3", cls="maximum"),
          c.text(at(maximum), top - 10, maximum_label, anchor="middle", bold=True))
    c.add(c.line(left, bottom, left + width, bottom, stroke=INK))
    for t in scale:
        c.add(c.line(at(t), bottom, at(t), bottom + 4, stroke=INK),
              c.text(at(t), bottom + 16, f"{t:.{decimals}f}", size=SMALL, anchor="middle"))
    c.add(c.text(left + width / 2, bottom + 32, "score", size=SMALL, anchor="middle", fill=MUTED))
    legend(c, [(swatch(BAR, BAR), "each arrangement at this depth"),
                (stroke(INK, 1.2, "5 3"), "the largest score any arrangement reaches"),
                (swatch(WARNING, WARNING), "a situation scoring above it")], bottom + 54, left - MARGIN + width + texts)
    return c.document(title, f"The scores of the {len(bars)} arrangements (largest {maximum_label}) and of {better[0]}, "
                             f"which scores {better[2]}, above them.")

