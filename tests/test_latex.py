"""The committed LaTeX reports compile: each ``\\input`` into a minimal document (article, booktabs) with pdflatex, with no
error and no overfull box. The helper itself is checked on broken sources, so that it cannot pass a table silently."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import ROOT
from tests.latex import FRAGMENT_PREAMBLE, compile_latex, is_document, needs_pdflatex

pytestmark = needs_pdflatex

REPORTS = ROOT / "reports"


def problems_of(name: str, workdir: Path) -> str:
    return "\n\n".join(compile_latex((REPORTS / name).read_text(), workdir))


class TestLatexOfTheReports:
    def test_table_2_compiles_without_errors_or_overfull_boxes(self, tmp_path: Path) -> None:
        assert problems_of("table2.tex", tmp_path) == ""
        assert (tmp_path / "document.pdf").stat().st_size > 0

    def test_the_catalog_compiles_without_errors_or_overfull_boxes(self, tmp_path: Path) -> None:
        assert problems_of("catalog.tex", tmp_path) == ""

    def test_both_are_fragments_to_input_that_say_which_package_they_need(self) -> None:
        for name in ("table2.tex", "catalog.tex"):
            tex = (REPORTS / name).read_text()
            assert not is_document(tex) and tex.count("\\begin{table}") == 1 and "\\usepackage{booktabs}" in tex


class TestTheHelperCatchesBrokenLatex:
    def test_an_undefined_control_sequence_is_an_error_with_its_line(self, tmp_path: Path) -> None:
        problems = compile_latex("\\begin{table}\n\\centering\n\\notacommand\n\\end{table}\n", tmp_path)
        assert problems[0].startswith("! Undefined control sequence.") and "l.3 \\notacommand" in problems[0]
        assert any("no PDF" in problem for problem in problems)

    def test_a_tabular_wider_than_the_text_is_an_overfull_box(self, tmp_path: Path) -> None:
        wide = " & ".join(["a column too many"] * 12)
        fragment = f"\\begin{{table}}\n\\begin{{tabular}}{{{'l' * 12}}}\n{wide} \\\\\n\\end{{tabular}}\n\\end{{table}}\n"
        problems = compile_latex(fragment, tmp_path)
        assert len(problems) == 1 and problems[0].startswith("Overfull \\hbox (") and "pt too wide)" in problems[0]

    def test_a_missing_package_is_a_problem_not_a_skip(self, tmp_path: Path) -> None:
        document = "\\documentclass{article}\n\\usepackage{no-such-package-anywhere}\n\\begin{document}\nx\n\\end{document}\n"
        problems = compile_latex(document, tmp_path)
        assert "no-such-package-anywhere.sty' not found" in problems[0] and any("no PDF" in problem for problem in problems)

    def test_a_whole_document_is_compiled_as_it_is(self, tmp_path: Path) -> None:
        table = "\\begin{tabular}{ll}\\toprule a & b \\\\ \\bottomrule\\end{tabular}\n"
        document = FRAGMENT_PREAMBLE + "\\begin{document}\n" + table + "\\end{document}\n"
        assert is_document(document) and compile_latex(document, tmp_path) == []
        assert (tmp_path / "document.tex").read_text() == document and not (tmp_path / "fragment.tex").exists()

    def test_a_fragment_needing_a_package_the_minimal_document_lacks_fails(self, tmp_path: Path) -> None:
        problems = compile_latex("\\begin{table}\\includegraphics{figure}\\end{table}\n", tmp_path)
        assert problems and problems[0].startswith("! Undefined control sequence.")

    def test_a_character_no_font_has_is_a_problem(self, tmp_path: Path) -> None:
        problems = compile_latex("\\begin{table}\\char200\\end{table}\n", tmp_path)  # OT1 Computer Modern has no glyph 200
        assert len(problems) == 1 and problems[0].startswith("Missing character: There is no ")
