"""`irprops check TARGET --report DIR`: a write-up for a paper, for a built-in metric, a declared proposal, a black box and
a toolkit's metric alike, that says exactly what the check found and nothing more.

The command-line reports read the catalog's verdicts through the table's cache, filled once per run by the session
fixture ``catalog`` (tests/conftest.py): those tests are slow. The others build reports from checks of their own.
"""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from irprops import report as R
from irprops.checking import check
from irprops.cli import main
from irprops.report.neighbours import nearest, parse_names
from irprops.report.sources import cited
from irprops.verdicts import CheckResult, ProofRecord, Prop, Reach, Search, Verdict
from tests.browser import Browser, launch, needs_chromium
from tests.conftest import ROOT
from tests.latex import compile_latex, needs_pdflatex

EXAMPLE = ROOT / "reports" / "example"
EXAMPLE_COMMAND = ["check", "reports/example/my_metrics.py:inverse_squares", "--budget", "600", "--report", "reports/example",
                   "--compare-with", "NDCG,RBP"]
"""The command that writes reports/example (the README shows its Markdown and its picture)."""

slow = pytest.mark.slow


def written(result: CheckResult, out: Path, catalog: dict[str, CheckResult] | None = None) -> R.Report:
    report = R.build(result, catalog or {})
    R.write(report, out)
    return report


@pytest.fixture(scope="module")
def dcg(tmp_path_factory: pytest.TempPathFactory) -> tuple[R.Report, Path]:
    """DCG: a proved "no" (unboundedness, with a 35-document instance and a long exact value) beside witnesses."""
    out = tmp_path_factory.mktemp("dcg")
    return written(check("DCG"), out), out


@pytest.fixture(scope="module")
def p_report(tmp_path_factory: pytest.TempPathFactory) -> tuple[R.Report, Path]:
    out = tmp_path_factory.mktemp("p")
    rows = {"SDCG": check("SDCG"), "RR": check("RR")}
    return written(check("P"), out, rows), out


class TestTheProfile:
    def test_has_each_checked_property_with_its_verdict_reach_and_mark(self, p_report: tuple[R.Report, Path]) -> None:
        report, _ = p_report
        cells = {c.prop: (c.verdict, c.reach, c.mark) for c in report.cells}
        assert cells[Prop.MONOTONIC] == ("no", "counterexample at k = 1", "W")
        assert cells[Prop.CONVERGENT] == ("yes", "for all k", "P")
        assert list(cells) == list(Prop)

    def test_says_exactly_the_checks_verdicts(self, p_report: tuple[R.Report, Path], dcg: tuple[R.Report, Path]) -> None:
        for report, _ in (p_report, dcg):
            assert [c.verdict for c in report.cells] == [v.verdict for v in report.result.verdicts.values()]

    def test_gives_a_proved_no_the_reach_of_its_proof(self, dcg: tuple[R.Report, Path]) -> None:
        report, _ = dcg
        bounded = next(c for c in report.cells if c.prop == Prop.BOUNDED)
        assert (bounded.verdict, bounded.reach, bounded.mark) == ("no", "proved for all k", "P")


class TestTheCounterexamples:
    def test_give_both_scores_exactly_and_as_decimals(self, p_report: tuple[R.Report, Path]) -> None:
        report, out = p_report
        monotonic = next(c for c in report.counterexamples if c.prop == Prop.MONOTONIC)
        assert [(s.role, s.exact, s.value) for s in monotonic.scores] == [("at k = 1", "1", 1.0), ("at k = 2", "1/2", 0.5)]
        text = (out / "P.md").read_text()
        assert "| at k = 1 | 1 | `10` | {1} | 1 | 1 |" in text and "| at k = 2 | 2 | `10` | {1} | 1/2 | 0.5 |" in text

    def test_instantiate_each_propertys_statement_on_the_witness(self, p_report: tuple[R.Report, Path]) -> None:
        report, _ = p_report
        instances = {c.prop: c.instance for c in report.counterexamples}
        assert instances[Prop.MONOTONIC] == "score(r, 2) = 1/2 < 1 = score(r, 1), for r = `10`"
        assert instances[Prop.TOP_WEIGHTED] == ("score(r', 2) = 1/2 <= 1/2 = score(r, 2), for r = `01` and r' = `10` "
                                                "(ranks 1 and 2 swapped)")
        assert instances[Prop.REALIZABLE] == ("at k = 2 with qrels {1}, max_a score(a, 2) = 1/2, but `10` scores 1 at k = 1, "
                                              "so the supremum is not reached")

    def test_of_localization_and_completeness_name_both_situations_or_the_undefined_one(self) -> None:
        report = R.build(check("RPrec", ["localized", "complete"]), {})
        instances = {c.prop: c.instance for c in report.counterexamples}
        assert instances[Prop.LOCALIZED] == ("score(a, 2) = 0 but score(b, 2) = 1/2, for a = `01` (R = 1) and b = `01` (R = 2), "
                                             "which agree on ranks 1 to 2")
        assert instances[Prop.COMPLETE] == "score(r, 1) is undefined for r = `0` with R = 0"

    def test_of_a_black_box_are_its_floats_labelled_numerical(self, tmp_path: Path) -> None:
        from tests import proposals

        report = written(check(proposals.float_precision, ["monotonic"]), tmp_path)
        (c,) = report.counterexamples
        assert c.numerical and [s.exact for s in c.scores] == [None, None] and [s.value for s in c.scores] == [1.0, 0.5]
        assert "numerical evidence" in (tmp_path / f"{report.stem}.md").read_text()

    def test_draw_monotonicity_and_realizability(self, p_report: tuple[R.Report, Path]) -> None:
        _, out = p_report
        for name in ("P-monotonic.svg", "P-realizable.svg"):
            svg = (out / name).read_text()
            assert svg.startswith("<svg") and "1/2" in svg, name


class TestTheProofs:
    def test_list_every_settling_proof_with_its_lemmas_and_trusted_base(self, p_report: tuple[R.Report, Path]) -> None:
        report, _ = p_report
        assert [p.prop for p in report.proofs] == [Prop.BOUNDED, Prop.CONVERGENT, Prop.LOCALIZED, Prop.COMPLETE]
        assert all(p.lemmas and p.trusted for p in report.proofs)

    def test_copy_exactly_the_certificates_cited_and_they_recheck(self, p_report: tuple[R.Report, Path]) -> None:
        report, out = p_report
        cited_paths = sorted({c for p in report.proofs for c in p.certificates})
        on_disk = sorted(p.relative_to(out / "certificates").as_posix() for p in (out / "certificates").rglob("*.smt2"))
        assert on_disk == cited_paths and cited_paths
        result = CliRunner().invoke(main, ["certificates", "--recheck", "--out", str(out / "certificates")])
        assert result.exit_code == 0 and f"{len(cited_paths)} of {len(cited_paths)} certificates re-checked unsat" in result.output

    def test_a_proof_that_gives_no_verdict_is_neither_listed_nor_called_yes(self, tmp_path: Path) -> None:
        proof = ProofRecord("yes", Reach(), (), ("a trusted base",), unchecked="the search that checks it stopped")
        unknown = Verdict(Prop.MONOTONIC, "unknown", Search("exhaustive search", "nothing found", tried=12), proof=proof)
        report = written(CheckResult("mine", "binary", {Prop.MONOTONIC: unknown}), tmp_path)
        (cell,) = report.cells
        assert (cell.verdict, cell.reach) == ("unknown", "not refuted: 12 cases tried")
        assert "gives no verdict" in cell.reason and report.proofs == () and report.certificates == {}
        assert "**Yes**" not in (tmp_path / "mine.md").read_text()


class TestTheNeighbours:
    def test_are_the_catalog_metrics_at_most_two_cells_away_nearest_first(self, p_report: tuple[R.Report, Path]) -> None:
        report, _ = p_report
        assert [(n.name, n.differs) for n in report.neighbours] == [("SDCG", (Prop.TOP_WEIGHTED,))]  # RR: 3 cells away

    def test_put_the_chosen_first_and_never_list_a_metric_twice(self) -> None:
        rbp, chosen = check("RBP", ["monotonic", "complete"]), {"RBP(p=0.8)": check("RBP", ["monotonic", "complete"])}
        shown = nearest(check("P", ["monotonic", "complete"]), {"RBP": rbp, "P": check("P", ["monotonic", "complete"])}, chosen)
        assert [(n.name, n.chosen) for n in shown] == [("RBP(p=0.8)", True)]

    def test_names_are_read_as_metric_families(self) -> None:
        assert [m.name for m in parse_names("nDCG,RBP(p=0.5), AP")] == ["NDCG", "RBP(p=0.5)", "AP"]

    @pytest.mark.parametrize(("text", "problem"), [("nDGC", "did you mean"), ("P@10", "over every depth k"), (" , ", "no metric named")])
    def test_a_name_that_is_not_a_family_is_refused_with_a_hint(self, text: str, problem: str) -> None:
        from irprops.metrics import InputError

        with pytest.raises(InputError, match="--compare-with") as error:
            parse_names(text)
        assert problem in str(error.value)


class TestTheSources:
    def test_cite_the_properties_and_each_metric_shown(self) -> None:
        keys = [e.key for e in cited([check("RBP", ["complete"]).measure.metric.reference])]  # type: ignore[union-attr]
        assert keys == ["moffat2013seven", "moffat2008rbp"]

    def test_cite_an_unknown_reference_by_its_text_and_a_toolkit_by_its_paper(self) -> None:
        entries = cited(["Smith, A Metric I Made Up, 2031 & more"], ["ranx"])
        assert [e.key for e in entries] == ["moffat2013seven", "bassani2022ranx", "irprops-reference-1"]
        assert "A Metric I Made Up, 2031 \\& more" in entries[-1].text()

    def test_are_balanced_bibtex(self, p_report: tuple[R.Report, Path]) -> None:
        _, out = p_report
        bib = (out / "P.bib").read_text()
        assert bib.count("{") == bib.count("}") and bib.startswith("@inproceedings{moffat2013seven,")


PROPOSALS = "tests/report_proposals.py"


class TestWhatAReportMustNotClaim:
    """A hostile review's findings (round 1), kept: each is a way a report said more than its check."""

    def test_a_proof_for_k_up_to_a_bound_is_never_shown_as_a_yes_for_every_k(self, tmp_path: Path) -> None:
        proof = ProofRecord("yes", Reach(20), (), ("a trusted base",))
        bounded = Verdict(Prop.CONVERGENT, "yes", Search("exhaustive search", "nothing found", tried=5), proof=proof)
        everywhere = check("P", ["convergent"])
        report = written(CheckResult("mine", "binary", {Prop.CONVERGENT: bounded}), tmp_path, {"P": everywhere})
        (cell,) = report.cells
        assert (cell.verdict, cell.reach) == ("yes", "for k <= 20")
        assert [(n.name, n.differs) for n in report.neighbours] == [("P", (Prop.CONVERGENT,))]
        assert "| **mine** | **Yes (k <= 20)** |" in (tmp_path / "mine.md").read_text()
        assert "Yes$^{\\le 20}$" in (tmp_path / "mine-table.tex").read_text()

    def test_the_inputs_a_search_skipped_are_said_beside_the_counterexample(self, tmp_path: Path) -> None:
        report = written(check(f"{PROPOSALS}:inf_on_a_relevant_top", ["realizable"], budget=10), tmp_path)
        (c,) = report.counterexamples
        assert "returned inf, on `10` (k = 1, qrels {1})" in c.caveat and "which the search skipped" in c.caveat
        assert c.caveat in (tmp_path / f"{report.stem}.md").read_text()

    def test_decimals_come_from_the_exact_values_beyond_the_float_range_and_no_picture_is_drawn(self, tmp_path: Path) -> None:
        huge = written(check(f"{PROPOSALS}:huge_precision", ["monotonic"], budget=10), tmp_path / "huge")
        assert [s.decimal for s in huge.counterexamples[0].scores] == ["1.000000000e+400", "5.000000000e+399"]
        tiny = written(check(f"{PROPOSALS}:tiny_precision", ["realizable"], budget=10), tmp_path / "tiny")
        assert [s.decimal for s in tiny.counterexamples[0].scores] == ["5e-401", "1e-400"]
        assert not list((tmp_path / "huge").glob("*-monotonic.svg")) and not list((tmp_path / "tiny").glob("*-realizable.svg"))

    def test_the_judged_nonrelevant_count_is_shown_with_the_qrels(self, tmp_path: Path) -> None:
        report = written(check("BPref", ["convergent"]), tmp_path)
        assert "{1}, N = " in (tmp_path / f"{report.stem}.md").read_text()

    def test_a_target_is_never_its_own_neighbour_but_a_namesake_proposal_stands_beside_the_metric(self) -> None:
        p = check("P", ["monotonic", "complete"])
        assert nearest(p, {"P": check("P", ["monotonic", "complete"])}, {"P": check("P", ["monotonic", "complete"])}) == []
        namesake = CheckResult("P", "binary", dict(p.verdicts))  # a black box named P: not the catalog's P
        assert [n.name for n in nearest(namesake, {"P": p})] == ["P"]

    def test_a_check_of_some_properties_never_calls_a_neighbour_the_same_profile(self, tmp_path: Path) -> None:
        written(check("P", ["monotonic"]), tmp_path, {"SDCG": check("SDCG", ["monotonic"])})
        text = (tmp_path / "P.md").read_text()
        assert "| same on the 1 properties checked |" in text and "| same profile |" not in text


class TestAFileOfDeclaredMetrics:
    def test_is_read_again_by_a_second_check_in_the_same_process(self, tmp_path: Path) -> None:
        """A second hostile review: a module kept from the first check gave the first data's verdicts (a false yes, a false
        no). The truth: with weights q^(i-1), q = 1/2 is convergent and top-weighted, q = 0 is neither."""
        (tmp_path / "geometric.py").write_text(
            "from pathlib import Path\nimport sympy\nfrom irprops import weighted_precision\n"
            "q = sympy.Rational(Path(__file__).with_name('q.txt').read_text())\n"
            "m = weighted_precision('report-geometric-from-a-file', lambda i: q ** (i - 1))\n")
        found = []
        for q in ("1/2", "0", "1/2"):
            (tmp_path / "q.txt").write_text(q)
            found.append(check(f"{tmp_path / 'geometric.py'}:m", ["convergent"], budget=10)["convergent"].verdict)
        assert found == ["yes", "no", "yes"]

    def test_is_checked_again_in_the_same_process_without_declaring_its_metrics_twice(self) -> None:
        first = check(f"{PROPOSALS}:backslash_reference", ["complete"])
        again = [check(f"{PROPOSALS}:{name}", ["complete"]) for name in ("strange_name", "backslash_reference")]
        assert [r["complete"].verdict for r in (first, *again)] == ["yes", "yes", "yes"]


class TestAFolderHoldsOneReport:
    def test_a_linked_certificates_folder_is_refused_and_nothing_outside_is_touched(self, tmp_path: Path) -> None:
        from irprops.metrics import InputError

        outside, folder = tmp_path / "outside", tmp_path / "report"
        (outside / "keep" / "deep").mkdir(parents=True)
        folder.mkdir()
        (folder / "certificates").symlink_to(outside)
        with pytest.raises(InputError, match="certificates is a symbolic link"):
            written(check("P", ["complete"]), folder)
        assert sorted(p.relative_to(outside).as_posix() for p in outside.rglob("*")) == ["keep", "keep/deep"]


    def test_a_report_on_another_target_is_refused_and_nothing_is_written(self, tmp_path: Path) -> None:
        from irprops.metrics import InputError

        written(check("P", ["complete"]), tmp_path)
        before = sorted(p.name for p in tmp_path.rglob("*"))
        with pytest.raises(InputError, match="holds the report on 'P'"):
            written(check("RR", ["complete"]), tmp_path)
        assert sorted(p.name for p in tmp_path.rglob("*")) == before

    def test_a_second_report_on_the_same_target_leaves_nothing_of_the_first(self, p_report: tuple[R.Report, Path],
                                                                          tmp_path: Path) -> None:
        written(p_report[0].result, tmp_path)
        R.write(R.build(check("P", ["monotonic"], prove=False), {}), tmp_path, ["md"])
        assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file()) == [
            ".irprops-report.json", "P-monotonic.svg", "P-table.tex", "P.bib", "P.md", "P.svg", "certificates/MANIFEST"]
        result = CliRunner().invoke(main, ["certificates", "--recheck", "--out", str(tmp_path / "certificates")])
        assert result.exit_code == 0, result.output


class TestNamesAndFormats:
    def test_a_name_full_of_special_characters_is_escaped_everywhere(self, tmp_path: Path) -> None:
        name = "a&b_%#{x}<y>~^\\z"
        search = Search("exhaustive search", "nothing found", tried=3)
        report = written(CheckResult(name, "binary", {Prop.MONOTONIC: Verdict(Prop.MONOTONIC, "unknown", search)}), tmp_path)
        assert re.fullmatch(r"[A-Za-z0-9-]+", report.stem)
        html = (tmp_path / f"{report.stem}.html").read_text()
        assert "<y>" not in html and "&lt;y&gt;" in html
        assert json.loads((tmp_path / f"{report.stem}.json").read_text())["target"] == name

    def test_the_formats_chosen_are_written_and_no_others(self, tmp_path: Path) -> None:
        R.write(R.build(check("P", ["complete"]), {}), tmp_path, R.parse_formats("html,md"))
        assert {p.suffix for p in tmp_path.glob("P.*")} == {".html", ".md", ".svg", ".bib"}

    def test_an_unknown_format_is_refused_naming_the_formats(self) -> None:
        from irprops.metrics import InputError

        with pytest.raises(InputError, match=r"--format = 'pdf': the formats are md, tex, html, json"):
            R.parse_formats("pdf")


class TestTheCommandLine:
    def test_refuses_a_format_without_a_report_folder_before_checking(self) -> None:
        result = CliRunner().invoke(main, ["check", "P", "--format", "md"])
        assert result.exit_code == 2 and "give --report DIR too" in result.output

    def test_refuses_an_unknown_metric_to_compare_with_before_checking(self, tmp_path: Path) -> None:
        result = CliRunner().invoke(main, ["check", "P", "--report", str(tmp_path), "--compare-with", "nDGC"])
        assert result.exit_code == 2 and "--compare-with = 'nDGC'" in result.output and not any(tmp_path.iterdir())

    @pytest.mark.parametrize("where", ["/proc/irprops-report", "dangling", ""])
    def test_refuses_a_report_folder_it_cannot_write_before_checking(self, where: str, tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.chdir(tmp_path)
        (tmp_path / "dangling").symlink_to(tmp_path / "nowhere" / "at-all")
        result = CliRunner().invoke(main, ["check", "P", "--report", where])
        assert result.exit_code == 2 and "--report = " in result.output and "Traceback" not in result.output
        assert len(result.output.strip().splitlines()) == 1

    def test_refuses_an_empty_format_or_an_empty_list_to_compare_with(self, tmp_path: Path) -> None:
        for option in ("--format", "--compare-with"):
            result = CliRunner().invoke(main, ["check", "P", "--report", str(tmp_path), option, ""])
            assert result.exit_code == 2 and f"{option} = ''" in result.output

    def test_a_file_in_the_way_of_the_report_is_a_usage_error_not_a_traceback(self, tmp_path: Path,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(R, "catalog_results", lambda **_: {})  # the catalog's verdicts are beside the point here
        (tmp_path / "P.md").mkdir()
        result = CliRunner().invoke(main, ["check", "P", "complete", "--report", str(tmp_path)])
        assert result.exit_code == 2 and "could not be written" in result.output

    def test_refuses_a_report_folder_that_is_a_file(self, tmp_path: Path) -> None:
        (tmp_path / "f").write_text("")
        result = CliRunner().invoke(main, ["check", "P", "--report", str(tmp_path / "f")])
        assert result.exit_code == 2 and "Invalid value for '--report'" in result.output and "is a file" in result.output


def _cli_report(target: str, out: Path, cache_home: Path, *extra: str) -> Path:
    result = CliRunner().invoke(main, ["check", target, "--report", str(out), *extra], env={"XDG_CACHE_HOME": str(cache_home)})
    assert result.exit_code == 0, result.output
    return out


KINDS = {
    "a declared proposal": ("reports/example/my_metrics.py:inverse_squares", "inverse-squares", "declared proposal"),
    "a black box": ("tests/proposals.py:precision", "precision", "black box"),
    "a toolkit metric": ("ir_measures:P", "ir-measures-P", "toolkit metric"),
}


@pytest.fixture(scope="module")
def folders(catalog: object, cache_home: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One report folder per kind of target, written by the command line (the catalog's verdicts from the run's cache)."""
    found = {}
    for kind, (target, _, _) in KINDS.items():
        if kind == "a toolkit metric" and importlib.util.find_spec("ir_measures") is None:
            continue
        found[kind] = _cli_report(target, tmp_path_factory.mktemp(kind.replace(" ", "-")), cache_home)
    return found


@slow
@pytest.mark.parametrize("kind", list(KINDS))
class TestAReportFolder:
    def test_is_self_contained(self, folders: dict[str, Path], kind: str) -> None:
        if kind not in folders:
            pytest.skip("ir_measures is not installed (pip install 'irprops[toolkits]')")
        out, (_, stem, what) = folders[kind], KINDS[kind]
        for suffix in (".md", ".tex", ".html", ".json", ".bib", "-table.tex", ".svg"):
            assert (out / f"{stem}{suffix}").is_file(), suffix
        html = (out / f"{stem}.html").read_text().replace('xmlns="http://www.w3.org/2000/svg"', "")  # a name, never fetched
        assert "<script" not in html and "http://" not in html and "https://" not in html and "<svg" in html
        assert not re.search(r"<(img|link|iframe|object|embed)\b|\bsrc=", html)
        record = json.loads((out / f"{stem}.json").read_text())
        assert record["kind"] == what and [p["property"] for p in record["profile"]] == [str(p) for p in Prop]
        assert (out / "certificates" / "MANIFEST").is_file()

    @needs_pdflatex
    def test_compiles_every_tex_it_holds(self, folders: dict[str, Path], kind: str, tmp_path: Path) -> None:
        if kind not in folders:
            pytest.skip("ir_measures is not installed (pip install 'irprops[toolkits]')")
        out = folders[kind]
        for tex in sorted(out.glob("*.tex")):
            assert compile_latex(tex.read_text(), tmp_path / tex.stem, search=[out]) == [], tex.name

    def test_claims_no_proof_for_a_target_with_no_closed_form(self, folders: dict[str, Path], kind: str) -> None:
        if kind not in folders:
            pytest.skip("ir_measures is not installed (pip install 'irprops[toolkits]')")
        out, (_, stem, what) = folders[kind], KINDS[kind]
        record = json.loads((out / f"{stem}.json").read_text())
        if what == "declared proposal":
            assert record["proofs"] and all(p["reach"] == "all k" for p in record["proofs"])
        else:
            assert record["proofs"] == [] and {p["verdict"] for p in record["profile"]} <= {"no", "unknown"}
            assert not list((out / "certificates").rglob("*.smt2"))


@slow
class TestTheCommittedExample:
    def test_is_what_its_command_writes_now(self, catalog: object, cache_home: Path, tmp_path: Path) -> None:
        """reports/example, shown in the README, is stale when a change to irprops changes any byte of it."""
        out = tmp_path / "example"
        shutil.copytree(EXAMPLE, out, ignore=shutil.ignore_patterns("*.svg", "*.md", "*.tex", "*.html", "*.json", "*.bib",
                                                                    "certificates"))
        command = [part.replace("reports/example", str(out)) for part in EXAMPLE_COMMAND]
        result = CliRunner().invoke(main, command, env={"XDG_CACHE_HOME": str(cache_home)})
        assert result.exit_code == 0, result.output
        fresh = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
        committed = sorted(p.relative_to(EXAMPLE).as_posix() for p in EXAMPLE.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
        assert fresh == committed
        stale = [name for name in fresh if (out / name).read_bytes() != (EXAMPLE / name).read_bytes()]
        assert not stale, f"stale (run `irprops {' '.join(EXAMPLE_COMMAND)}` and commit reports/example): {stale}"


@needs_pdflatex
class TestTheLatex:
    def test_of_a_report_compiles_with_long_exact_values_and_no_overfull_box(self, dcg: tuple[R.Report, Path]) -> None:
        report, out = dcg
        assert compile_latex((out / f"{report.stem}.tex").read_text(), out / "build", search=[out]) == []

    def test_of_the_table_beside_the_neighbours_compiles_as_an_input(self, p_report: tuple[R.Report, Path]) -> None:
        report, out = p_report
        assert compile_latex((out / f"{report.stem}-table.tex").read_text(), out / "build-table") == []

    def test_of_a_name_full_of_special_characters_compiles(self, tmp_path: Path) -> None:
        search = Search("exhaustive search", "nothing found in `1111111111111111111111111111111111111111` & more", tried=3)
        result = CheckResult("a&b_%#{x}<y>~^\\z", "binary", {Prop.MONOTONIC: Verdict(Prop.MONOTONIC, "unknown", search)})
        report = written(result, tmp_path)
        assert compile_latex((tmp_path / f"{report.stem}.tex").read_text(), tmp_path / "build", search=[tmp_path]) == []

    @pytest.mark.parametrize("target", ["harmonic", "strange_name", "huge_precision"])
    def test_of_a_long_rational_a_strange_name_and_huge_values_compiles(self, target: str, tmp_path: Path) -> None:
        report = written(check(f"{PROPOSALS}:{target}", ["bounded", "monotonic", "realizable"], budget=10), tmp_path)
        for tex in (f"{report.stem}.tex", f"{report.stem}-table.tex"):
            assert compile_latex((tmp_path / tex).read_text(), tmp_path / f"build-{tex}", search=[tmp_path]) == [], tex

    def test_of_names_beyond_ascii_compiles(self, tmp_path: Path) -> None:
        search = Search("exhaustive search", "nothing found", tried=3)
        for n, name in enumerate(["α-nDCG", "Ω%_&#^~\\métrique{x}", "ß ç ÿ « ± × ’ ☃"]):
            result = CheckResult(name, "binary", {Prop.MONOTONIC: Verdict(Prop.MONOTONIC, "unknown", search)})
            report = written(result, tmp_path / str(n))
            for tex in (f"{report.stem}.tex", f"{report.stem}-table.tex"):
                assert compile_latex((tmp_path / str(n) / tex).read_text(), tmp_path / f"build-{n}-{tex}",
                                     search=[tmp_path / str(n)]) == [], (name, tex)

    def test_of_a_reference_with_backslashes_is_escaped_in_the_bibtex(self, tmp_path: Path) -> None:
        report = written(check(f"{PROPOSALS}:backslash_reference", ["complete"]), tmp_path)
        bib = (tmp_path / f"{report.stem}.bib").read_text()
        assert "C:\\textbackslash{}papers\\textbackslash{}new" in bib and "\\& \\{more\\}" in bib

    def test_of_the_committed_example_compiles(self, tmp_path: Path) -> None:
        for tex in ("inverse-squares.tex", "inverse-squares-table.tex"):
            assert compile_latex((EXAMPLE / tex).read_text(), tmp_path / tex, search=[EXAMPLE]) == [], tex


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launch() as browser:
        yield browser


@needs_chromium
@pytest.mark.parametrize(("width", "mobile"), [(375, True), (1280, False)], ids=["a phone", "a desktop"])
class TestTheHtml:
    def test_of_a_report_loads_clean_fits_the_screen_and_shows_its_figures(self, browser: Browser, dcg: tuple[R.Report, Path],
                                                                           width: int, mobile: bool) -> None:
        report, out = dcg
        with browser.open(out / f"{report.stem}.html", width, mobile=mobile) as page:
            assert page.errors == [] and page.refused == []
            assert not page.scrolls_sideways(), page.scroll_width()
            assert page.visible("table") and page.count("svg") >= 2 and page.hidden("svg") == []

    def test_of_a_report_links_every_cell_of_the_profile_to_its_evidence(self, browser: Browser, p_report: tuple[R.Report, Path],
                                                                         width: int, mobile: bool) -> None:
        report, out = p_report
        with browser.open(out / f"{report.stem}.html", width, mobile=mobile) as page:
            targets = page.page.evaluate("[...document.querySelectorAll('a[href^=\"#\"]')].map(a => a.getAttribute('href'))")
            assert len(targets) >= 7 + 7
            assert all(page.count(target) == 1 for target in targets), targets


class TestTheReadme:
    def test_names_the_command_that_writes_the_example(self) -> None:
        assert " ".join(["irprops", *EXAMPLE_COMMAND]) in (EXAMPLE / "my_metrics.py").read_text()

    def test_shows_the_example_reports_tables_as_committed(self) -> None:
        """The README's section on --report quotes the committed example: every table line it shows is the example's."""
        readme = (ROOT / "README.md").read_text()
        section = readme[readme.index("## Write-ups for a paper"):readme.index("## Toolkits:")]
        shown = [line for line in section.splitlines() if line.startswith("| ") and "NAME" not in line]
        example = (EXAMPLE / "inverse-squares.md").read_text().splitlines()
        assert len(shown) >= 20 and [line for line in shown if line not in example] == []
        assert "![inverse-squares beside the metrics nearest it](reports/example/inverse-squares.svg)" in section

