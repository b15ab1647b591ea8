"""`irprops compare`: a toolkit's implementation against a declared definition (issue 12, items 3 to 5).

The dicts: functions of tests/toolkit_functions.py run everywhere; the toolkits' own tests are skipped where the toolkit
is not installed (the test extra installs them).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from irprops.cli import main
from irprops.compare import compare
from irprops.compare.cases import Case, compositions, orders, situation, small
from irprops.compare.conventions import PRORATED, UNEXPLAINED

from .conftest import ROOT
from .test_toolkits import needs

FUNCTIONS = ROOT / "tests" / "toolkit_functions.py"


class TestCases:
    def test_every_small_case_is_a_valid_situation_and_none_repeats(self) -> None:
        cases = list(small(graded=True))
        assert len(cases) == len(set(cases)) > 3000
        assert any(c.ties for c in cases) and any(c.situation.R == 0 for c in cases)
        assert any(None in c.situation.ranking for c in cases) and any(len(c.situation.ranking) < c.situation.k for c in cases)

    def test_the_compositions_of_4_are_the_8_ways_to_cut_it(self) -> None:
        assert sorted(compositions(4)) == sorted([(4,), (1, 3), (3, 1), (2, 2), (1, 1, 2), (1, 2, 1), (2, 1, 1), (1, 1, 1, 1)])

    def test_the_four_fixed_tie_orders_of_a_group_of_three_differ(self) -> None:
        from fractions import Fraction

        broken = orders(Case(situation((Fraction(1), Fraction(1, 2), Fraction(0)), 3), (3,)))
        assert len({s.ranking for s in broken.values()}) == 4


class TestOnAFunctionOfTheContract:
    def test_precision_agrees_but_for_its_tie_order(self) -> None:
        result = compare(f"dicts:{FUNCTIONS}:precision", "P", examples=50)
        assert result.ties == ("input order",)  # Python's sort is stable
        assert {d.convention for d in result.differences} == {"ties broken by input order", "no score where defined"}
        no_score = next(d for d in result.differences if d.convention == "no score where defined")
        assert no_score.witness.to_json() == {"k": 1, "ranking": [], "qrels": []}  # no judgment: no query
        assert result.agree + sum(d.count for d in result.differences) == result.situations

    def test_trec_evals_rprec_divides_by_r_scores_r_0_as_0_and_breaks_ties_by_docno(self) -> None:
        result = compare(f"dicts:{FUNCTIONS}:rprec_of_the_top_k", "RPrec", examples=50)
        found = {d.convention: d for d in result.differences}
        assert set(found) == {"R = 0 scored 0", "divides by R, not min(k, R)", "ties broken by docno descending",
                              "ties broken by docno descending + divides by R, not min(k, R)"}
        by_r = found["divides by R, not min(k, R)"]
        assert by_r.witness.to_json() == {"k": 1, "ranking": ["1"], "qrels": ["1", "1"]}
        assert (by_r.implementation_value, by_r.metric_value) == (0.5, 1.0)
        assert found["R = 0 scored 0"].metric_value is None and result.ties == ("docno descending",)

    def test_the_json_has_the_documented_shape(self) -> None:
        out = CliRunner().invoke(main, ["compare", f"dicts:{FUNCTIONS}:precision", "P", "--examples", "20", "--json"])
        assert out.exit_code == 0, out.output
        data = json.loads(out.output)
        assert set(data) == {"implementation", "metric", "situations", "agree", "differences", "agrees_with", "ties",
                             "not_scored", "warmup_seconds"}
        assert set(data["differences"][0]) == {"convention", "count", "witness", "implementation_value", "metric_value"}

    def test_the_pytest_module_it_writes_passes_against_the_function(self, tmp_path: Path) -> None:
        written = tmp_path / "test_pinned.py"
        out = CliRunner().invoke(main, ["compare", f"dicts:{FUNCTIONS}:rprec_of_the_top_k", "RPrec", "--examples", "0",
                                        "--pytest", str(written)])
        assert out.exit_code == 0, out.output
        text = written.read_text()
        assert text.count("\ndef test_") == 4
        text = text.replace("Adapter(parse(", "Adapter(__import__('irprops.toolkits').toolkits.Spec('dicts', 'x'), FUNCTION) #")
        text = text.replace("import pytest\n", f"import pytest\nimport sys\nsys.path.insert(0, {str(ROOT)!r})\n"
                                               "from tests.toolkit_functions import rprec_of_the_top_k as FUNCTION\n")
        written.write_text(text)
        ran = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0", str(written)],
                             capture_output=True, text=True, cwd=tmp_path, check=False)
        assert ran.returncode == 0, ran.stdout + ran.stderr

    @pytest.mark.parametrize(("args", "why"), [
        (["nDCG", "NDCG"], "not a toolkit's metric"), (["ranx:ndcg", "NDCG@5"], "compare a family"),
        ([f"dicts:{FUNCTIONS}:precision", "P", "--examples", "-1"], "--examples"),
    ])
    def test_bad_usage_is_one_line_and_status_2(self, args: list[str], why: str) -> None:
        out = CliRunner().invoke(main, ["compare", *args])
        assert out.exit_code == 2 and why in out.output and "Traceback" not in out.output


@pytest.mark.slow
class TestTheToolkits:
    """The findings of issue 12's first paragraph, reproduced."""

    @needs("pytrec_eval")
    def test_trec_eval_scores_r_0_as_0_and_breaks_ties_by_docno_descending(self) -> None:
        result = compare("pytrec_eval:ndcg_cut", "NDCG")
        found = {d.convention: d for d in result.differences}
        assert set(found) == {"R = 0 scored 0", "ties broken by docno descending"}
        assert found["R = 0 scored 0"].witness.to_json() == {"k": 1, "ranking": ["0"], "qrels": []}
        assert result.ties == ("docno descending",)

    @needs("cwl_eval")
    def test_cwl_evals_ap_is_sn_ap(self) -> None:
        result = compare("cwl_eval:AP", "AP")
        assert [m for m, _ in result.agrees_with] == ["SN-AP"]
        first = next(d for d in result.differences if d.convention == "as SN-AP")
        assert first.witness.to_json() == {"k": 1, "ranking": ["1"], "qrels": ["1", "1"]}
        assert (first.implementation_value, first.metric_value) == (1.0, 0.5)
        assert result.ties == ("input order",) and UNEXPLAINED not in {d.convention for d in result.differences}

    @needs("rbp_eval")
    def test_rbp_eval_averages_ties_and_prorates_one_across_the_depth(self) -> None:
        result = compare("rbp_eval:rbp(p=0.8)", "RBP(p=0.8)")
        assert result.ties == (PRORATED,)
        assert {d.convention for d in result.differences} == {PRORATED, "no score where defined"}

    @needs("ranx")
    def test_ranx_scores_rbp_on_raw_integer_grades_above_1(self) -> None:
        result = compare("ranx:rbp(p=0.8)", "RBP(p=0.8)", examples=0)
        rescaled = next(d for d in result.differences if d.convention == "gains rescaled to integers")
        assert rescaled.implementation_value is not None and rescaled.implementation_value > 1
        assert result.ties == ("input order",)

    @needs("ir_measures")
    @pytest.mark.parametrize(("implementation", "metric", "order"), [
        ("ir_measures:P", "P", "docno descending"), ("ir_measures:RR", "RR", "docno ascending"),
        ("ir_measures:AP", "AP", "docno descending"), ("ir_measures:nDCG", "NDCG", "docno descending"),
    ])
    def test_ir_measures_agrees_everywhere_else_but_breaks_ties_two_ways(self, implementation: str, metric: str,
                                                                         order: str) -> None:
        # its RR comes from another provider than its P, AP and nDCG: one topic's ties are ordered two ways in one call
        result = compare(implementation, metric, examples=100)
        assert {d.convention for d in result.differences} <= {"R = 0 scored 0", f"ties broken by {order}", "no score where defined"}
        assert result.ties == (order,)


def _report_script():  # type: ignore[no-untyped-def]
    import importlib.util

    spec = importlib.util.spec_from_file_location("toolkits_report", ROOT / "reports" / "toolkits.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class TestTheCommittedReport:
    def test_the_markdown_and_the_readme_section_are_those_of_the_committed_json(self) -> None:
        report = _report_script()
        results = json.loads((ROOT / "reports" / "toolkits.json").read_text())
        assert [(r["implementation"], r["metric"]) for r in results] == [(i, parse_name(m)) for i, m in report.PAIRS]
        assert report.write(results, check=True) == 0, "stale: run python reports/toolkits.py --render"

    @pytest.mark.slow
    @pytest.mark.parametrize("pair", [("pytrec_eval:ndcg_cut", "NDCG"), ("rbp_eval:rbp(p=0.8)", "RBP(p=0.8)"), ("cwl_eval:AP", "AP")])
    def test_its_comparisons_are_what_irprops_compare_finds_today(self, pair: tuple[str, str]) -> None:
        pytest.importorskip({"cwl_eval": "cwl"}.get(pair[0].partition(":")[0], pair[0].partition(":")[0]))
        report = _report_script()
        committed = next(r for r in json.loads((ROOT / "reports" / "toolkits.json").read_text()) if r["implementation"] == pair[0])
        assert report.compared(*pair) == committed, "stale: run python reports/toolkits.py"


def parse_name(metric: str) -> str:
    from irprops.metrics import parse

    return parse(metric).name
