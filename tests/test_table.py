"""`irprops table`: Table 2 regenerated from the definitions, its reports, and their freshness.

The table is built once per test run, in worker processes with a fresh cache, exactly as the
command builds it; the committed reports/ must be the bytes that build renders.
"""

from __future__ import annotations

import json
import shutil
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

import irprops.metrics
import irprops.proofs
from irprops import COLUMNS
from irprops import table as t2
from irprops.cli import main
from irprops.fingerprint import source_roots
from irprops.metrics import Situation, compare
from irprops.properties.reference import FOOTNOTES, TABLE_2
from irprops.table.compute import code_fingerprint, through_cache
from irprops.table.footnotes import footnotes
from irprops.table.render_tex import escape
from tests.conftest import ROOT
from tests.helpers import default_measure
from tests.recheck import of_measure, recheck

REPORTS = ROOT / "reports"
FILES = ("table2.md", "table2.tex", "table2.csv", "table2.json", "table2.html", "table2.svg", "table2-combinations.svg")
CATALOG_FILES = tuple(name.replace("table2", "catalog") for name in FILES)
TOOLKIT_FILES = ("toolkits.md", "toolkits.json", "toolkits.py")  # `python reports/toolkits.py`; tests/test_compare.py
PAPER_ORDER = [row.label for row in TABLE_2]

slow = pytest.mark.slow  # the classes that need the one build of the whole table (about a minute of CPU)
# the builds are session fixtures of tests/conftest.py (cache_home, built, catalog), shared with tests/test_report.py


@pytest.fixture(scope="session")
def rendered(built: t2.Table2, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("reports")
    t2.write(built, out)
    return out


@pytest.fixture(scope="session")
def rendered_catalog(catalog: t2.Table2, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("catalog")
    t2.write(catalog, out)
    return out


def cell(table: t2.Table2, label: str, prop: str):  # type: ignore[no-untyped-def]
    return dict(table.rows)[label][prop]


@slow
class TestCommittedReports:
    def test_are_the_bytes_a_fresh_build_renders(self, rendered: Path) -> None:
        stale = [name for name in FILES if (REPORTS / name).read_text() != (rendered / name).read_text()]
        assert not stale, f"stale reports (run `irprops table` and commit reports/): {stale}"

    def test_are_all_that_reports_holds_besides_its_readme(self) -> None:
        assert sorted(p.name for p in REPORTS.iterdir()) == sorted([*FILES, *CATALOG_FILES, *TOOLKIT_FILES, "README.md", "example"])

    def test_hold_the_catalog_as_a_fresh_build_renders_it(self, rendered_catalog: Path) -> None:
        stale = [name for name in CATALOG_FILES if (REPORTS / name).read_text() != (rendered_catalog / name).read_text()]
        assert not stale, f"stale reports (run `irprops table --catalog` and commit reports/): {stale}"


@slow
class TestTheCatalog:
    def test_has_a_row_for_every_metric_irprops_declares_under_its_catalog_name(self, catalog: t2.Table2) -> None:
        keys = [key for key, metric in irprops.metrics.REGISTRY.items() if irprops.metrics.in_catalog(metric.formula)]
        assert sorted(label for label, _ in catalog.rows) == sorted(keys)
        assert {"Success", "CG", "F", "ERR", "DCG-b"} <= set(keys)

    def test_decides_every_cell_by_a_proof_for_every_k_or_a_witness(self, catalog: t2.Table2) -> None:
        for label, result in catalog.rows:
            for prop in COLUMNS:
                verdict = result[prop]
                assert verdict.verdict in ("yes", "no"), (label, prop, verdict.evidence)
                assert verdict.verdict == "no" or verdict.method == "proof (all k)", (label, prop)
                assert verdict.verdict == "yes" or verdict.witness is not None, (label, prop)

    def test_gives_table_2s_metrics_table_2s_verdicts(self, built: t2.Table2, catalog: t2.Table2) -> None:
        rows = dict(catalog.rows)
        for row in TABLE_2:
            assert [rows[row.metric][p].verdict for p in COLUMNS] == [cell(built, row.label, p).verdict for p in COLUMNS]
        assert catalog.paper["agreement"]["agree"] == 91

    def test_says_which_metrics_it_does_not_declare_and_why(self, rendered_catalog: Path) -> None:
        text = (rendered_catalog / "catalog.md").read_text()
        assert "## Not declared yet" in text and "INST (Moffat et al.) (`inst`): its target shrinks" in text
        assert "no exact form the exact layer can decide" in text and "(`insq`)" not in text and "(`ndcg_burges`)" not in text

    def test_says_only_of_binary_metrics_that_the_first_relevant_rank_sets_the_score(self, catalog: t2.Table2) -> None:
        c = next(f for f in catalog.footnotes if f.letter == "c")
        assert {label for label, _ in c.cells} == {"RR"} and "ERR" not in c.fact  # graded ERR goes on past a grade 1/2

    def test_has_the_json_shape_of_table_2_with_the_parameters_named(self, rendered: Path, rendered_catalog: Path) -> None:
        table2 = json.loads((rendered / "table2.json").read_text())
        document = json.loads((rendered_catalog / "catalog.json").read_text())
        assert set(document) == set(table2) and set(document["rows"][0]) >= {"metric", "cells"}
        names = {row["metric"]: row.get("name") for row in document["rows"]}
        assert names["RBP"] == "RBP(p=0.8)" and names["F"] == "F(beta=1)" and names["ERR"] is None

    def test_every_no_of_the_new_rows_has_a_witness_the_independent_rechecker_confirms(self, catalog: t2.Table2) -> None:
        paper = {row.metric for row in TABLE_2}
        for label, result in catalog.rows:
            if label in paper:
                continue
            score = of_measure(default_measure(label))
            for prop in COLUMNS:
                verdict = result[prop]
                if verdict.verdict == "no":
                    assert recheck(score, prop, dict(verdict.witness.data)), f"{label} {prop}: {verdict.witness.text}"


@slow
class TestVerdicts:
    def test_every_cell_agrees_with_the_published_table(self, built: t2.Table2) -> None:
        agreement = built.paper["agreement"]
        assert (agreement["agree"], agreement["cells"], agreement["disagreements"]) == (91, 91, [])

    def test_every_yes_is_a_proof_for_every_k(self, built: t2.Table2) -> None:
        yes = [(label, p, result[p].method) for label, result in built.rows for p in COLUMNS if result[p].verdict == "yes"]
        assert len(yes) == sum(row.says(p) for row in TABLE_2 for p in COLUMNS)
        assert {method for _, _, method in yes} == {"proof (all k)"}

    def test_every_no_has_a_witness_the_independent_rechecker_confirms(self, built: t2.Table2) -> None:
        for row in TABLE_2:
            score = of_measure(default_measure(row.metric))
            for prop in COLUMNS:
                verdict = cell(built, row.label, prop)
                if verdict.verdict == "no":
                    assert verdict.witness is not None, (row.label, prop)
                    assert recheck(score, prop, dict(verdict.witness.data)), f"{row.label} {prop}: {verdict.witness.text}"

    def test_unboundedness_is_proved_not_just_sampled(self, built: t2.Table2) -> None:
        for label in ("DCG", "SP"):
            verdict = cell(built, label, "bounded")
            assert (verdict.verdict, verdict.method) == ("no", "proof (all k)")
            assert verdict.settled_by_proof and verdict.proof.conclusion == "no" and verdict.proof.reach.all_k
            assert verdict.witness is not None and {"bound", "value"} <= set(verdict.witness.data)


@slow
class TestRowOrder:
    def test_reproduces_the_papers_listing_from_the_yes_no_patterns(self, built: t2.Table2) -> None:
        assert [label for label, _ in built.rows] == PAPER_ORDER

    def test_sorts_by_the_columns_given_no_before_yes_ties_in_the_papers_order(self, built: t2.Table2) -> None:
        results = dict(built.rows)
        assert t2.order(results, ["complete", "bounded"]) == [
            "RPrec", "SN-DCG", "SN-AP", "NDCG", "Recall", "AP",  # complete No (all bounded)
            "DCG", "SP",  # complete Yes, bounded No
            "Prec", "SDCG", "HIT", "RR", "RBP",
        ]


@slow
class TestFootnotes:
    def test_c_to_f_mark_the_same_cells_as_the_papers(self, built: t2.Table2) -> None:
        placements = built.paper["footnotes"]
        assert {letter for letter, f in placements.items() if f["same"]} >= {"c", "d", "e", "f"}

    def test_a_and_b_mark_at_least_the_papers_cells(self, built: t2.Table2) -> None:
        placements = built.paper["footnotes"]
        assert set(placements) == set(FOOTNOTES)
        assert all(not f["missing"] for f in placements.values())

    def test_b_holds_because_the_swap_leaves_the_score_exactly_unchanged(self, built: t2.Table2) -> None:
        b = next(f for f in built.footnotes if f.letter == "b")
        measures = t2.rows()
        for label, prop in b.cells:
            verdict = cell(built, label, prop)
            assert verdict.verdict == "no" and verdict.witness is not None
            w = verdict.witness.data
            ranking, qrels = tuple(Fraction(g) for g in w["ranking"]), tuple(Fraction(g) for g in w["qrels"])
            swapped = list(ranking)
            swapped[w["i"] - 1], swapped[w["j"] - 1] = ranking[w["j"] - 1], ranking[w["i"] - 1]
            before = measures[label].exact(Situation(ranking, w["k"], qrels))
            after = measures[label].exact(Situation(tuple(swapped), w["k"], qrels))
            assert ranking[w["i"] - 1] < ranking[w["j"] - 1] and compare(before, after) == 0  # type: ignore[arg-type]

    def test_come_from_the_definitions_not_the_labels(self, built: t2.Table2) -> None:
        rows = t2.rows()
        results = dict(built.rows)
        alias = {label: f"M{n}" for n, label in enumerate(rows)}
        renamed = footnotes({alias[x]: m for x, m in rows.items()}, {alias[x]: r for x, r in results.items()})
        assert [(f.letter, sorted(f.cells)) for f in renamed] == [
            (f.letter, sorted((alias[x], p) for x, p in f.cells)) for f in built.footnotes
        ]


@slow
class TestSummaryClaims:
    def test_ten_combinations_of_properties(self, built: t2.Table2) -> None:
        assert built.claims["combinations"]["count"] == 10

    def test_all_four_combinations_of_both_pairs_occur(self, built: t2.Table2) -> None:
        pairs = built.claims["pairs"]
        assert set(pairs) == {"convergent x top_weighted", "complete x realizable"}
        assert all(pair["all four occur"] for pair in pairs.values())

    def test_no_metric_has_all_seven_and_the_conflict_is_proved(self, built: t2.Table2) -> None:
        assert built.claims["most properties"]["count"] < 7
        conflict = built.claims["conflict"]
        assert conflict["proved"] is True
        assert set(conflict["without"].values()) == {"sat"}


@slow
class TestReports:
    def test_json_has_the_documented_shape(self, rendered: Path) -> None:
        document = json.loads((rendered / "table2.json").read_text())
        assert set(document) == {"columns", "rows", "paper", "claims"}
        assert document["columns"] == list(COLUMNS)
        assert [row["metric"] for row in document["rows"]] == PAPER_ORDER
        for row in document["rows"]:
            assert set(row["cells"]) == set(COLUMNS)
            for c in row["cells"].values():
                assert {"verdict", "method", "evidence", "witness"} <= set(c) and c["verdict"] in {"yes", "no", "unknown"}

    def test_csv_has_one_line_per_cell(self, rendered: Path) -> None:
        lines = (rendered / "table2.csv").read_text().splitlines()
        assert lines[0] == "metric,property,verdict,paper,evidence,method,footnotes" and len(lines) == 1 + 91

    def test_markdown_has_a_counterexample_line_for_every_no_and_a_proof_line_for_every_yes(self, built: t2.Table2, rendered: Path) -> None:
        text = (rendered / "table2.md").read_text()
        for label, result in built.rows:
            for p in COLUMNS:
                assert f"- **{label}@k, {p}**: " in text, (label, p)
        assert "## Appendix A" in text and "## Appendix B" in text and "## Appendix C" not in text

    def test_html_is_self_contained(self, rendered: Path) -> None:
        html = (rendered / "table2.html").read_text().replace('xmlns="http://www.w3.org/2000/svg"', "")  # a name, never fetched
        assert "<script" not in html and "http" not in html and html.count("<details>") == 91 and html.count("<svg") == 2

    def test_latex_uses_booktabs_and_escapes_the_witnesses(self, rendered: Path) -> None:
        tex = (rendered / "table2.tex").read_text()
        assert "\\toprule" in tex and "\\bottomrule" in tex and tex.count(" \\\\\n") == 14
        assert "`" not in tex and "**" not in tex


class TestLatexEscape:
    def test_turns_code_spans_into_typewriter_text_and_escapes_the_rest(self) -> None:
        assert escape("`1/2,0` (qrels {1/2}) & 50%_x") == "\\texttt{1/2,0} (qrels \\{1/2\\}) \\& 50\\%\\_x"
        assert escape("k >= R, a `lone tick") == "k $\\ge$ R, a \\`{}lone tick"
        assert escape("$5 | x") == "{\\char`\\$}5 \\textbar{} x"  # no TS1 font needed (tests/latex.py)


class TestCache:
    @slow
    def test_a_second_build_reads_every_row_and_the_footnotes_from_the_cache_and_renders_the_same_bytes(
        self, built: t2.Table2, cache_home: Path, rendered: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        def not_again(*args: object) -> None:
            raise AssertionError("the footnotes were computed again")

        monkeypatch.setattr(t2, "footnotes", not_again)
        seen: list[bool] = []
        again = t2.build(cache=cache_home / "irprops" / "table", done=lambda metric, cached: seen.append(cached))
        assert seen == [True] * 13
        t2.write(again, tmp_path)
        assert all((tmp_path / name).read_text() == (rendered / name).read_text() for name in FILES)

    def test_a_value_kept_is_made_again_when_its_inputs_change_or_its_file_is_damaged(self, tmp_path: Path) -> None:
        made: list[int] = []

        def kept(n: int) -> list[int]:
            return through_cache(tmp_path, "squares", n, [irprops.metrics], lambda: made.append(n) or [n * n],
                                 lambda value: value, lambda record: [int(x) for x in record])  # type: ignore[no-any-return]

        assert kept(3) == [9] and kept(3) == [9] and made == [3]
        assert kept(4) == [16] and made == [3, 4]
        (file,) = [f for f in tmp_path.iterdir() if f.read_text() == "[9]"]
        file.write_text('["nine"]')
        assert kept(3) == [9] and made == [3, 4, 3]
        file.write_text("[9")
        assert kept(3) == [9] and made == [3, 4, 3, 3]
        assert through_cache(None, "squares", 3, [], lambda: [0], list, list) == [0]  # no cache: always made

    def test_a_kept_output_is_read_back_only_for_the_same_options_and_never_from_a_damaged_file(self, tmp_path: Path) -> None:
        from irprops import table_output

        kept = table_output.Output({"table2.md": "| Metric |\n"}, ("Metric", "Bounded"), (("P", ("yes",)),), 91, 91, 10, 13)
        table_output.store(table_output.kept_at(tmp_path, "bounded", False), kept)
        assert table_output.lookup(table_output.kept_at(tmp_path, "bounded", False)) == kept
        assert table_output.lookup(table_output.kept_at(tmp_path, None, False)) is None
        assert table_output.lookup(table_output.kept_at(tmp_path, "bounded", True)) is None
        (file,) = tmp_path.iterdir()
        for damaged in ('{"files": {}}', file.read_text()[:-2], file.read_text().replace('"agree": 91', '"agree": "91"'),
                        file.read_text().replace('"table2.md"', '"../table2.md"')):  # a name that leaves --out
            file.write_text(damaged)
            assert table_output.lookup(table_output.kept_at(tmp_path, "bounded", False)) is None

    # helper-75's findings, each failing on 916db0f
    def test_a_source_saved_while_a_table_is_built_does_not_keep_the_old_output_under_the_new_code(
            self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        from irprops import cli, table_output

        source = tmp_path / "irprops"
        source.mkdir()
        (source / "render_text.py").write_text('TITLE = "regenerated"\n')
        monkeypatch.setattr(table_output, "roots", lambda: [("irprops", source)])

        def build(columns: object, workers: int, cache: object, catalog: bool, console: object) -> table_output.Output:
            title = (source / "render_text.py").read_text()  # what the renderers were imported from
            (source / "render_text.py").write_text('TITLE = "regenerated after an edit"\n')  # saved during the build
            return table_output.Output({"table2.md": title}, ("Metric",), (), 0, 0, 0, 0)

        monkeypatch.setattr(cli, "_built_table", build)
        env = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
        for out in ("first", "second"):
            result = CliRunner().invoke(main, ["table", "--out", str(tmp_path / out)], env=env)
            assert result.exit_code == 0, result.output
        assert (tmp_path / "second" / "table2.md").read_text() == 'TITLE = "regenerated after an edit"\n'

    def test_an_editors_dangling_lock_file_beside_the_sources_does_not_stop_it_being_kept(
            self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        from irprops import table_output

        source = tmp_path / "irprops"
        source.mkdir()
        (source / "cli.py").write_text("x = 1\n")
        (source / ".#cli.py").symlink_to("someone@host.4242:1700000000")  # what Emacs leaves beside a file being edited
        monkeypatch.setattr(table_output, "roots", lambda: [("irprops", source)])
        kept = table_output.Output({"table2.md": "| Metric |\n"}, ("Metric",), (), 91, 91, 10, 13)
        table_output.store(table_output.kept_at(tmp_path / "cache", None, False), kept)
        assert table_output.lookup(table_output.kept_at(tmp_path / "cache", None, False)) == kept

    def test_is_not_served_where_cvc5_cannot_be_imported_when_it_was_kept_where_it_could(
            self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        import importlib.util
        import sys

        from irprops import table_output

        kept = table_output.Output({"table2.md": "| Metric |\n"}, ("Metric",), (), 91, 91, 10, 13)
        monkeypatch.setitem(sys.modules, "cvc5", None)  # find_spec("cvc5") is None, as the command and the proofs ask
        assert importlib.util.find_spec("cvc5") is None
        without = table_output.kept_at(tmp_path, None, False)
        monkeypatch.delitem(sys.modules, "cvc5")
        if importlib.util.find_spec("cvc5") is None:
            pytest.skip("cvc5 is not installed (pip install 'irprops[cvc5]')")
        table_output.store(table_output.kept_at(tmp_path, None, False), kept)  # kept where cvc5 cross-checks
        assert table_output.lookup(without) is None

    def test_a_bad_order_is_one_line_also_without_cvc5(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        import sys

        monkeypatch.setitem(sys.modules, "cvc5", None)
        result = CliRunner().invoke(main, ["table", "--out", str(tmp_path), "--no-cache", "--order", "bounded,monotonc"])
        assert result.exit_code == 2 and "monotonic" in result.output
        assert len(result.output.strip().splitlines()) == 1, result.output

    def test_a_bad_order_is_named_before_the_other_options(self, tmp_path: Path) -> None:
        (tmp_path / "afile").write_text("")
        for extra in (["--workers", "0"], ["--out", str(tmp_path / "afile" / "sub")]):
            result = CliRunner().invoke(main, ["table", "--no-cache", "--order", "bogus", *extra])
            assert result.exit_code == 2 and "'bogus': unknown property" in result.output, result.output

    def test_the_key_of_a_kept_output_covers_every_source_of_irprops_and_not_only_the_checkers(self) -> None:
        from irprops import table_output

        covered = {name for name, _ in table_output.roots()}
        assert {"irprops", "irprops.metrics", "irprops.properties", "irprops.proofs"} <= covered
        assert (Path(irprops.__file__).parent / "table" / "render_tex.py").is_file()  # a renderer, under "irprops"

    def test_its_key_changes_when_any_checker_source_changes(self, tmp_path: Path) -> None:
        roots = []
        for name, root in source_roots():
            copy = tmp_path / name
            if root.is_dir():
                shutil.copytree(root, copy, ignore=shutil.ignore_patterns("__pycache__", "*.smt2"))
            else:
                copy.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy(root, copy)
            roots.append((name, copy))
        before = code_fingerprint(roots)
        assert code_fingerprint(roots) == before == code_fingerprint()
        target = tmp_path / "irprops.properties" / "monotonic.py"
        target.write_text(target.read_text() + "\n# a comment is a change\n")
        assert code_fingerprint(roots) != before

    def test_its_key_hashes_the_imported_packages_own_files_and_the_orchestration(self) -> None:
        roots = dict(source_roots())
        assert roots["irprops.metrics"] == Path(irprops.metrics.__file__).parent
        assert roots["irprops.proofs"] == Path(irprops.proofs.__file__).parent
        assert {"irprops.properties", "irprops.verdicts", "irprops.checking"} <= set(roots)


class TestCommand:
    @slow
    def test_writes_the_five_reports_and_says_whether_they_agree(self, built: t2.Table2, cache_home: Path, tmp_path: Path) -> None:
        result = CliRunner().invoke(main, ["table", "--out", str(tmp_path)], env={"XDG_CACHE_HOME": str(cache_home)})
        assert result.exit_code == 0, result.output
        assert sorted(p.name for p in tmp_path.iterdir()) == sorted(FILES)
        assert "91 of 91 cells agree" in result.output and "10 combinations" in result.output

    @slow
    def test_order_picks_and_sorts_the_columns(self, built: t2.Table2, cache_home: Path, tmp_path: Path) -> None:
        result = CliRunner().invoke(main, ["table", "--out", str(tmp_path), "--order", "realizable,bounded"],
                                    env={"XDG_CACHE_HOME": str(cache_home)})
        assert result.exit_code == 0, result.output
        header = next(line for line in (tmp_path / "table2.md").read_text().splitlines() if line.startswith("| Metric"))
        assert header == "| Metric | Realizb. | Bounded |"
        first = [row["metric"] for row in json.loads((tmp_path / "table2.json").read_text())["rows"]]
        assert first[:2] == ["DCG", "SP"]  # realizable No, bounded No

    @pytest.mark.parametrize(("args", "fragment"), [
        (["--order", "bounded,monotonc"], "monotonic"),
        (["--workers", "0"], "--workers"),
    ])
    def test_bad_options_are_named_with_the_fix(self, args: list[str], fragment: str, tmp_path: Path) -> None:
        result = CliRunner().invoke(main, ["table", "--out", str(tmp_path), *args])
        assert result.exit_code == 2 and fragment in result.output
