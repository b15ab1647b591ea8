"""The SVG figures: well-formed, complete, escaped, deterministic, and drawn within their own canvas.

Every verdict here is made by hand (no table is built): a cell's colour and mark are read back from the SVG.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping

import pytest

from irprops.figures import COLOURS, WARNING, arrangement_scores, combinations, score_against_k, verdict_grid
from irprops.svg import text_width
from irprops.table.render_text import HEADERS
from irprops.verdicts import ProofRecord, Prop, Reach, Search, Verdict, Witness

NS = {"svg": "http://www.w3.org/2000/svg"}
COLUMNS = (Prop.BOUNDED, Prop.MONOTONIC, Prop.CONVERGENT)


def yes(prop: Prop, max_k: int | None = None) -> Verdict:
    return Verdict(prop, "yes", proof=ProofRecord("yes", Reach(max_k), (), ("trusted",)))


def no(prop: Prop) -> Verdict:
    return Verdict(prop, "no", search=Search("exhaustive search", "found one"), witness=Witness({"k": 1}, "a counterexample"))


def unknown(prop: Prop) -> Verdict:
    return Verdict(prop, "unknown", search=Search("exhaustive search", "found none"))


def row(*kinds: str) -> dict[Prop, Verdict]:
    """Verdicts over COLUMNS: "yes", "no", "?" (unknown) or "yes<=20" (a proof reaching k <= 20)."""
    made = {"yes": yes, "no": no, "?": unknown, "yes<=20": lambda p: yes(p, 20)}
    return {prop: made[kind](prop) for prop, kind in zip(COLUMNS, kinds, strict=True)}


ROWS: list[tuple[str, Mapping[Prop, Verdict]]] = [
    ("AP@k", row("yes", "no", "?")),
    ("P@k", row("yes<=20", "no", "yes")),
    ("RBP(p=0.8)@k", row("no", "yes", "yes")),
]


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def texts(root: ET.Element) -> list[str]:
    """Every text as shown (a text's runs joined by spaces)."""
    return [" ".join(t.strip() for t in element.itertext()) for element in root.iterfind(".//svg:text", NS)]


def cells(root: ET.Element) -> dict[str, ET.Element]:
    """The grid's cells by their tooltip."""
    return {g.findtext("svg:title", namespaces=NS) or "": g for g in root.iterfind(".//svg:g", NS) if "cell" in g.get("class", "")}


FIGURES: Mapping[str, Callable[[], str]] = {
    "grid": lambda: verdict_grid(ROWS, COLUMNS, title="Three metrics", highlight={"P@k"}),
    "combinations": lambda: combinations(ROWS, COLUMNS, title="Three metrics"),
    "score": lambda: score_against_k([(1, 1.0), (2, 0.5), (3, None), (4, 0.75)], title="P@k", failing=(1, 2), labels={2: "1/2"}),
    "arrangements": lambda: arrangement_scores([("10", 0.5, "1/2"), ("01", None, "undefined")], title="P@2", maximum=0.5,
                                               maximum_label="1/2", better=("1 at k = 1", 1.0, "1")),
}
"""One small example of each figure."""


class TestEveryFigure:
    @pytest.mark.parametrize("name", FIGURES)
    def test_is_a_well_formed_svg_document_that_scales_and_says_what_it_shows(self, name: str) -> None:
        svg = FIGURES[name]()
        assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" ') and not svg.startswith("<?xml")
        root = parse(svg)
        width, height = float(root.get("width", "")), float(root.get("height", ""))
        assert root.get("viewBox") == f"0 0 {width:.0f} {height:.0f}" and root.get("role") == "img"
        assert root.get("font-family") == "sans-serif"
        assert root.findtext("svg:title", namespaces=NS) and (root.findtext("svg:desc", namespaces=NS) or "").endswith(".")

    @pytest.mark.parametrize("name", FIGURES)
    def test_gives_the_same_bytes_twice(self, name: str) -> None:
        assert FIGURES[name]() == FIGURES[name]()

    @pytest.mark.parametrize("name", FIGURES)
    def test_prints_every_number_with_at_most_one_decimal(self, name: str) -> None:
        attributes = re.findall(r' (?:x|y|x1|y1|x2|y2|cx|cy|r|width|height)="([^"]*)"', FIGURES[name]())
        assert attributes and all(re.fullmatch(r"-?\d+(\.\d)?", value) for value in attributes)


class TestVerdictGrid:
    def test_shows_every_row_label_and_column_header(self) -> None:
        shown = texts(parse(verdict_grid(ROWS, COLUMNS, title="Three metrics")))
        assert {label for label, _ in ROWS} <= set(shown)
        assert {HEADERS[p] for p in COLUMNS} <= set(shown)

    def test_colours_each_cell_by_its_verdict_and_marks_its_evidence(self) -> None:
        found = cells(parse(verdict_grid(ROWS, COLUMNS, title="Three metrics")))
        expected = {
            "AP@k, bounded: Yes (proved for every k)": ("yes", "Yes", "P"),
            "AP@k, monotonic: No (exact counterexample)": ("no", "No", "W"),
            "AP@k, convergent: Unknown (neither proved nor refuted)": ("unknown", "Unk.", "?"),
            "P@k, bounded: Yes (proved for k ≤ 20)": ("yes", "Yes", "P≤20"),
        }
        assert len(found) == len(ROWS) * len(COLUMNS)
        for tip, (verdict, said, mark) in expected.items():
            cell = found[tip]
            rect = cell.find("svg:rect", NS)
            assert rect is not None and (rect.get("fill"), rect.get("stroke")) == (COLOURS[verdict][1], COLOURS[verdict][0])
            runs = [span.text for span in cell.iterfind(".//svg:tspan", NS)]
            marks = [span.text for span in cell.iterfind(".//svg:tspan[@class='mark']", NS)]
            assert runs == [said, mark] and marks == [mark]

    def test_outlines_only_the_highlighted_rows_and_sets_their_labels_in_bold(self) -> None:
        root = parse(verdict_grid(ROWS, COLUMNS, title="Three metrics", highlight={"P@k"}))
        outlines = root.findall(".//svg:rect[@class='highlight']", NS)
        bold = [t.text for t in root.iterfind(".//svg:text[@font-weight='bold']", NS) if t.text in {label for label, _ in ROWS}]
        assert len(outlines) == 1 and bold == ["P@k"]
        assert float(outlines[0].get("y", "")) < float(next(t.get("y", "") for t in root.iterfind(".//svg:text", NS) if t.text == "P@k"))
        assert not parse(verdict_grid(ROWS, COLUMNS, title="Three metrics")).findall(".//svg:rect[@class='highlight']", NS)

    def test_explains_the_colours_and_marks_in_a_legend(self) -> None:
        shown = texts(parse(verdict_grid(ROWS, COLUMNS, title="Three metrics")))
        assert {"Yes", "No", "Unknown", "P", "P≤K", "W", "?", "exact counterexample"} <= set(shown)

    def test_escapes_markup_in_labels_and_titles(self) -> None:
        rows = [('a&b <"x">', row("yes", "no", "?"))]
        svg = verdict_grid(rows, COLUMNS, title='P<=20 & "RBP"', highlight={'a&b <"x">'})
        assert "a&amp;b &lt;&quot;x&quot;&gt;" in svg and "P&lt;=20 &amp; &quot;RBP&quot;" in svg
        root = parse(svg)
        assert 'a&b <"x">' in texts(root) and root.findtext("svg:title", namespaces=NS) == 'P<=20 & "RBP"'

    def test_widens_its_columns_and_canvas_to_the_longest_label(self) -> None:
        long = "a-very-long-metric-name-with-parameters(p=0.95, b=2)@k"
        short, wide = (parse(verdict_grid([(label, row("yes", "no", "?"))], COLUMNS, title="T")) for label in ("P@k", long))
        assert float(wide.get("width", "")) - float(short.get("width", "")) >= text_width(long, 12, True) - text_width("P@k", 12, True)
        label = next(t for t in wide.iterfind(".//svg:text", NS) if t.text == long)
        first_cell = cells(wide)[f"{long}, bounded: Yes (proved for every k)"].find("svg:rect", NS)
        assert first_cell is not None and float(label.get("x", "")) + 0.6 * 12 * len(long) <= float(first_cell.get("x", ""))


class TestCombinations:
    ROWS: tuple[tuple[str, Mapping[Prop, Verdict]], ...] = (
        ("A@k", row("yes", "no", "no")),
        ("B@k", row("yes", "yes", "?")),
        ("C@k", row("yes", "no", "no")),
        ("D@k", row("yes", "yes", "?")),
        ("E@k", row("no", "no", "no")),
    )

    def patterns(self) -> list[ET.Element]:
        return parse(combinations(self.ROWS, COLUMNS, title="Five metrics")).findall(".//svg:g[@class='pattern']", NS)

    def test_gives_one_line_to_each_pattern_in_the_order_of_its_first_row_with_its_count(self) -> None:
        lines = [(g.findtext("svg:text[@class='count']", namespaces=NS), texts(g)[-1]) for g in self.patterns()]
        assert lines == [("2", "A@k, C@k"), ("2", "B@k, D@k"), ("1", "E@k")]

    def test_fills_the_squares_of_yes_leaves_those_of_no_empty_and_hatches_unknown(self) -> None:
        second = self.patterns()[1]
        squares = [g for g in second.iterfind("svg:g", NS)]
        assert [g.findtext("svg:title", namespaces=NS) for g in squares] == ["bounded: Yes", "monotonic: Yes", "convergent: Unknown"]
        fills = [g.find("svg:rect", NS).get("fill") for g in squares]  # type: ignore[union-attr]
        assert fills == [COLOURS["yes"][0], COLOURS["yes"][0], COLOURS["unknown"][1]]
        assert [len(g.findall("svg:line", NS)) for g in squares] == [0, 0, 3]
        no_square = self.patterns()[0].findall("svg:g", NS)[1].find("svg:rect", NS)
        assert no_square is not None and no_square.get("fill") == "#ffffff" and no_square.get("stroke") == COLOURS["no"][0]

    def test_names_the_columns_and_counts_the_combinations(self) -> None:
        shown = texts(parse(combinations(self.ROWS, COLUMNS, title="Five metrics")))
        assert {HEADERS[p] for p in COLUMNS} <= set(shown) and "5 metrics in 3 combinations." in shown

    def test_wraps_a_long_list_of_metrics_within_the_canvas(self) -> None:
        rows = [(f"metric-number-{n}@k", row("yes", "no", "no")) for n in range(12)]
        root = parse(combinations(rows, COLUMNS, title="Twelve"))
        assert len(root.findall(".//svg:g[@class='pattern']/svg:text", NS)) > 2  # the count, then several lines
        assert_within(root)


class TestScoreAgainstK:
    POINTS: tuple[tuple[int, float | None], ...] = ((1, 1.0), (2, 0.5), (3, None), (4, 0.75), (5, 0.6))

    def test_draws_the_failing_step_in_the_warning_colour_with_both_values(self) -> None:
        root = parse(score_against_k(self.POINTS, title="P@k", failing=(4, 5), labels={4: "3/4"}))
        step = root.findall(".//svg:line[@class='failing']", NS)
        assert len(step) == 1 and step[0].get("stroke") == WARNING
        values = [(t.text, t.get("fill")) for t in root.iterfind(".//svg:text[@class='value']", NS)]
        assert values == [("3/4", WARNING), ("0.6", WARNING)]  # an exact label, else the float shortened

    def test_leaves_a_gap_at_an_undefined_score_and_marks_it(self) -> None:
        root = parse(score_against_k(self.POINTS, title="P@k", failing=(1, 2)))
        gaps = root.findall(".//svg:g[@class='undefined']", NS)
        assert [g.findtext("svg:title", namespaces=NS) for g in gaps] == ["k = 3: undefined"]
        assert len(root.findall(".//svg:line[@class='score']", NS)) == 2  # 1-2 and 4-5: nothing joins 2 to 4 across the gap
        assert "undefined at that k" in texts(root)

    def test_includes_both_failing_values_in_the_y_range(self) -> None:
        root = parse(score_against_k([(1, 12.0), (2, 30.0)], title="DCG", failing=(1, 2)))
        ticks = [float(t) for t in texts(root) if re.fullmatch(r"\d+", t)]
        assert min(ticks) <= 12 and max(ticks) >= 30

    def test_refuses_failing_depths_it_was_not_given(self) -> None:
        with pytest.raises(ValueError, match="failing depths"):
            score_against_k([(1, 1.0)], title="P@k", failing=(1, 2))


class TestArrangementScores:
    def figure(self) -> ET.Element:
        return parse(arrangement_scores([("110", 0.5, "1/2"), ("011", None, "undefined"), ("101", 0.25, "1/4")], title="P@2",
                                        maximum=0.5, maximum_label="1/2", better=("10 at k = 1", 1.0, "1")))

    def test_draws_a_dashed_line_at_the_maximum_with_its_label(self) -> None:
        root = self.figure()
        line = root.find(".//svg:line[@class='maximum']", NS)
        assert line is not None and line.get("stroke-dasharray") and line.get("x1") == line.get("x2")
        label = next(t for t in root.iterfind(".//svg:text", NS) if t.text == "1/2" and t.get("text-anchor") == "middle")
        assert label.get("x") == line.get("x1")

    def test_draws_the_better_situation_in_the_warning_colour_beyond_the_maximum(self) -> None:
        root = self.figure()
        line = root.find(".//svg:line[@class='maximum']", NS)
        better = root.find(".//svg:g[@class='better']/svg:rect", NS)
        assert line is not None and better is not None and better.get("fill") == WARNING
        assert float(better.get("x", "")) + float(better.get("width", "")) > float(line.get("x1", ""))
        bars = root.findall(".//svg:g[@class='bar']/svg:rect", NS)
        assert len(bars) == 2 and all(float(b.get("x", "")) + float(b.get("width", "")) <= float(line.get("x1", "")) for b in bars)

    def test_writes_an_undefined_score_as_text_without_a_bar(self) -> None:
        root = self.figure()
        assert [t.text for t in root.iterfind(".//svg:text[@class='undefined']", NS)] == ["undefined"]
        assert {"110", "011", "101", "10 at k = 1", "1/4", "1"} <= set(texts(root))


def assert_within(root: ET.Element) -> None:
    """No text runs past the right edge of the viewBox (at 0.6 em a character) or above its top."""
    width = float(root.get("viewBox", "").split()[2])
    for element in root.iterfind(".//svg:text", NS):
        shown, size = " ".join(element.itertext()), float(element.get("font-size", "12"))
        start = float(element.get("x", ""))
        anchor = {"middle": 0.5, "end": 1.0}.get(element.get("text-anchor", ""), 0.0)
        left = start - anchor * 0.6 * size * len(shown)
        assert left >= 0 and left + 0.6 * size * len(shown) <= width, shown
        assert float(element.get("y", "")) > 0


class TestNothingIsClipped:
    LONG = "a-metric-with-a-long-name(p=0.95, alpha=1/2)@k"

    def test_in_the_grid(self) -> None:
        assert_within(parse(verdict_grid([(self.LONG, row("yes<=20", "no", "?"))], COLUMNS, title=self.LONG, highlight={self.LONG})))

    def test_in_the_combinations(self) -> None:
        assert_within(parse(combinations([(self.LONG, row("yes", "no", "?")), ("P@k", row("no", "no", "no"))], COLUMNS, title="T")))

    def test_in_the_score_plot(self) -> None:
        assert_within(parse(score_against_k([(1, 1.0), (20, 0.5)], title=self.LONG, failing=(1, 20),
                                            labels={1: "1 + 1/log2(3) + 1/log2(4)", 20: self.LONG})))

    def test_in_the_arrangements(self) -> None:
        assert_within(parse(arrangement_scores([(self.LONG, 1.0, "1 + 1/log2(3) + 1/log2(4) + 1/log2(5)")], title="T", maximum=1.0,
                                               maximum_label=self.LONG, better=(self.LONG, 3.0, self.LONG))))
