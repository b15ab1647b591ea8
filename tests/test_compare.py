"""`irprops compare`: a toolkit's implementation against a declared definition (issue 12, items 3 to 5).

The dicts: functions of tests/toolkit_functions.py run everywhere; the toolkits' own tests are skipped where the toolkit
is not installed (the test extra installs them).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from irprops.cli import main
from irprops.compare import NO_JUDGMENTS, compare
from irprops.compare.cases import Case, arrangements, compositions, orders, situation, small
from irprops.compare.conventions import (
    ANOTHER_ORDER,
    BATCH_DEPENDENT,
    CONDENSED,
    DEPTH_IGNORED,
    FAILED,
    NO_SCORE,
    PRORATED,
    RESCALED,
    THRESHOLDED,
    UNEXPLAINED,
    explain,
    under,
)
from irprops.metrics import parse
from irprops.toolkits import GRADE_SCALE
from irprops.toolkits.glue import ACROSS_THE_DEPTH, EMPTY_RUN

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


class TestConventions:
    def test_a_tied_case_is_read_as_its_tie_order_before_a_coincidental_gain_convention(self) -> None:
        # ranx's nDCG on `1,1/2` tied at k = 7 is 1: its input order; thresholding the grades gives 1 too, by coincidence
        ndcg = parse("NDCG")
        case = Case(situation((Fraction(1), Fraction(1, 2)), 7), (2,))
        assert under(ndcg, case, "expectation over tie orders", THRESHOLDED) == pytest.approx(1.0)
        assert explain(ndcg, case, under(ndcg, case, "expectation over tie orders"), 1.0) == "ties broken by input order"

    def test_another_order_of_the_tied_documents_explains_a_value_no_named_order_gives(self) -> None:
        ndcg = parse("NDCG")
        case = Case(situation((Fraction(1), Fraction(1, 2), Fraction(0)), 3), (3,))
        named = {ndcg.at(3).screen(s) for s in orders(case).values()}
        other = next(s for s in arrangements(case) or () if ndcg.at(3).screen(s) not in named)
        found = float(ndcg.at(3).screen(other))
        own = under(ndcg, case, "expectation over tie orders")
        assert explain(ndcg, case, own, found) == ANOTHER_ORDER
        # but not where a tie policy is consistent with every tied case: there it is a difference of its own
        assert explain(ndcg, case, own, found, ties=("input order",)) == UNEXPLAINED


class TestOnAFunctionOfTheContract:
    def test_precision_agrees_but_for_its_tie_order(self) -> None:
        result = compare(f"dicts:{FUNCTIONS}:precision", "P", examples=50)
        assert result.ties == ("input order",)  # Python's sort is stable
        assert {d.convention for d in result.differences} == {"ties broken by input order"}
        assert [m for m, _ in result.agrees_with] == ["P"]
        assert result.agree + sum(d.count for d in result.differences) == result.situations

    def test_what_would_be_the_glues_value_not_the_toolkits_is_not_compared(self) -> None:
        # a query without judgments is given to no toolkit: its "no score" would be the glue's, and P has a value there;
        # an empty run the function leaves out would be the glue's 0. Counted by hand: all-unjudged rankings of 1 to 4
        # documents at each depth up to their length (1 + 2 + 3 + 4) and the empty run, without qrels (11); the empty
        # run with one or two relevant documents not retrieved (2)
        result = compare(f"dicts:{FUNCTIONS}:precision", "P", examples=0)
        assert result.not_compared == ((NO_JUDGMENTS, 11), (EMPTY_RUN, 2))
        assert NO_SCORE not in {d.convention for d in result.differences}

    def test_an_empty_run_the_function_scores_itself_is_compared(self) -> None:
        result = compare(f"dicts:{FUNCTIONS}:rprec_of_the_top_k", "RPrec", examples=0)
        assert result.not_compared == ((NO_JUDGMENTS, 11),)

    @pytest.mark.parametrize("function", ["fails_on_two_relevant_documents", "nan_on_two_relevant_documents"])
    def test_an_error_or_a_nan_is_a_difference_of_its_own_with_its_problem(self, function: str) -> None:
        result = compare(f"dicts:{FUNCTIONS}:{function}", "P", examples=0)
        failed = next(d for d in result.differences if d.convention == FAILED)
        assert failed.witness.to_json() == {"k": 1, "ranking": ["0"], "qrels": ["1", "1"]}
        assert failed.implementation_value is None and failed.metric_value == 0.0
        assert failed.problem is not None and ("two relevant documents" in failed.problem or "nan" in failed.problem)
        assert not result.agrees_with  # a function that fails somewhere agrees with nothing there
        assert result.agree + sum(d.count for d in result.differences) == result.situations

    def test_integer_gains_are_read_as_rescaled_and_the_scale_is_in_the_json(self) -> None:
        result = compare(f"dicts:{FUNCTIONS}:cumulated_integer_gain", "CG", examples=0)
        assert result.scale == GRADE_SCALE and result.to_json()["grade_scale"] == GRADE_SCALE
        rescaled = next(d for d in result.differences if d.convention == RESCALED)
        assert rescaled.witness.to_json() == {"k": 1, "ranking": ["1/2"], "qrels": ["1/2"]}
        assert (rescaled.implementation_value, rescaled.metric_value) == (6.0, 0.5)

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
                             "tied", "tie_counts", "not_compared", "grade_scale", "notes", "warmup_seconds"}
        assert set(data["differences"][0]) == {"convention", "count", "witness", "implementation_value", "metric_value"}
        assert [n["reason"] for n in data["not_compared"]] == [NO_JUDGMENTS, EMPTY_RUN]

    @pytest.mark.parametrize(("function", "metric", "tests"), [
        ("rprec_of_the_top_k", "RPrec", 4), ("cumulated_integer_gain", "CG", 2), ("fails_on_two_relevant_documents", "P", 2),
        ("nan_on_two_relevant_documents", "P", 2), ("precision_paired_by_position", "P", 2),
        ("recall_paired_by_position", "Recall", 3), ("precision_nan_in_a_crowd", "P", 1)])
    def test_the_pytest_module_it_writes_passes_against_the_function(self, tmp_path: Path, function: str, metric: str,
                                                                      tests: int) -> None:
        # written into a folder that does not exist yet, run from elsewhere: the function's file is found from the module
        written = tmp_path / "pinned" / "test_pinned.py"
        out = CliRunner().invoke(main, ["compare", f"dicts:{FUNCTIONS}:{function}", metric, "--examples", "0",
                                        "--pytest", str(written)])
        assert out.exit_code == 0, out.output
        assert written.read_text().count("\ndef test_") == tests
        ran = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0", str(written)],
                             capture_output=True, text=True, cwd=tmp_path, check=False)
        assert ran.returncode == 0 and f"{tests} passed" in ran.stdout, ran.stdout + ran.stderr

    def test_the_pytest_module_never_overwrites_the_function_compared(self, tmp_path: Path) -> None:
        source = tmp_path / "victim.py"
        source.write_text(FUNCTIONS.read_text())
        out = CliRunner().invoke(main, ["compare", f"dicts:{source}:precision", "P", "--examples", "0", "--pytest", str(source)])
        assert out.exit_code == 2 and "would overwrite" in out.output
        assert source.read_text() == FUNCTIONS.read_text()

    def test_the_pytest_module_of_a_function_under_a_path_with_a_backslash_compiles(self, tmp_path: Path) -> None:
        folder = tmp_path / "a\\N"
        folder.mkdir()
        (folder / "f.py").write_text(FUNCTIONS.read_text())
        written = tmp_path / "test_backslash.py"
        out = CliRunner().invoke(main, ["compare", f"dicts:{folder / 'f.py'}:rprec_of_the_top_k", "RPrec", "--examples", "0",
                                        "--pytest", str(written)])
        assert out.exit_code == 0, out.output
        ran = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0", str(written)],
                             capture_output=True, text=True, cwd=tmp_path, check=False)
        assert ran.returncode == 0 and "4 passed" in ran.stdout, ran.stdout + ran.stderr

    def test_a_binary_comparison_says_its_agreements_are_on_binary_situations(self) -> None:
        out = CliRunner().invoke(main, ["compare", f"dicts:{FUNCTIONS}:precision", "P", "--examples", "0"])
        assert out.exit_code == 0 and "binary situations where it has a value" in out.output

    def test_a_pytest_file_that_cannot_be_written_is_bad_usage(self, tmp_path: Path) -> None:
        (tmp_path / "a_file").write_text("")
        out = CliRunner().invoke(main, ["compare", f"dicts:{FUNCTIONS}:precision", "P", "--examples", "0",
                                        "--pytest", str(tmp_path / "a_file" / "t.py")])
        assert out.exit_code == 2 and "--pytest" in out.output and "Traceback" not in out.output

    def test_the_timeout_bounds_the_warm_up_too(self) -> None:
        started = time.monotonic()
        out = CliRunner().invoke(main, ["compare", f"dicts:{FUNCTIONS}:sleeps", "P", "--examples", "0", "--timeout", "2"])
        assert out.exit_code == 2 and "warm-up took over 2 s" in out.output and "--timeout" in out.output, out.output
        assert time.monotonic() - started < 60

    @pytest.mark.parametrize(("args", "why"), [
        (["nDCG", "NDCG"], "not a toolkit's metric"), (["ranx:ndcg", "NDCG@5"], "compare a family"),
        ([f"dicts:{FUNCTIONS}:precision", "P", "--examples", "-1"], "--examples"),
    ])
    def test_bad_usage_is_one_line_and_status_2(self, args: list[str], why: str) -> None:
        out = CliRunner().invoke(main, ["compare", *args])
        assert out.exit_code == 2 and why in out.output and "Traceback" not in out.output


class TestWhatMustNotAgree:
    """A hostile review's implementations, each once called right (or its failure hidden) by irprops compare."""

    def test_an_implementation_that_orders_by_docno_not_by_score_agrees_with_nothing(self) -> None:
        result = compare(f"dicts:{FUNCTIONS}:precision_by_docno", "P", examples=0)
        assert not result.agrees_with and result.agree < result.situations
        first = result.differences[0]
        assert first.witness.to_json() == {"k": 1, "ranking": ["0", "1"], "qrels": ["1"]}  # d000002 above d000001
        assert (first.implementation_value, first.metric_value) == (1.0, 0.0)

    def test_a_zero_division_of_the_implementation_is_its_failure_not_an_undefined_score(self) -> None:
        result = compare(f"dicts:{FUNCTIONS}:ap_dividing_by_r", "AP", examples=0)
        failed = next(d for d in result.differences if d.convention == FAILED)
        assert failed.witness.to_json() == {"k": 1, "ranking": ["0"], "qrels": []} and failed.count == 105
        assert failed.problem is not None and "ZeroDivision" in failed.problem

    def test_an_implementation_that_empties_the_run_it_was_given_fails_on_what_it_dropped(self) -> None:
        result = compare(f"dicts:{FUNCTIONS}:precision_consuming_the_run", "P", examples=0)
        assert dict(result.not_compared)[EMPTY_RUN] == 2  # the empty runs of the cases, not the queries it popped
        failed = next(d for d in result.differences if d.convention == FAILED)
        assert failed.count > 1000 and not result.agrees_with

    def test_scores_that_are_not_numbers_are_refused_at_load(self) -> None:
        out = CliRunner().invoke(main, ["compare", f"dicts:{FUNCTIONS}:precision_as_text", "P", "--examples", "0"])
        assert out.exit_code == 2 and "returns numbers as scores, not str" in out.output

    def test_an_implementation_that_reads_no_cutoff_is_named_by_that_not_by_coincidences(self) -> None:
        # ranx's r-precision: once "a tie across the depth counted in proportion" and "divides by R" on most cases
        result = compare(f"dicts:{FUNCTIONS}:rprec_of_the_whole_run", "RPrec", examples=0)
        found = {d.convention: d.count for d in result.differences}
        assert max(found, key=lambda c: found[c]) == DEPTH_IGNORED and PRORATED not in found
        first = next(d for d in result.differences if d.convention == DEPTH_IGNORED)
        assert first.witness.to_json() == {"k": 1, "ranking": ["1"], "qrels": ["1", "1"]}
        assert (first.implementation_value, first.metric_value) == (0.5, 1.0)

    def test_a_score_that_depends_on_the_other_queries_of_the_call_is_a_difference_of_its_own(self) -> None:
        result = compare(f"dicts:{FUNCTIONS}:precision_paired_by_position", "P", examples=0)
        moved = next(d for d in result.differences if d.convention == BATCH_DEPENDENT)
        assert moved.witness.to_json() == {"k": 1, "ranking": ["1"], "qrels": ["1"]}
        assert moved.implementation_value == 1.0
        assert moved.problem == "0 in a call with other queries, 1 alone (1 of the 2 witnesses scored alone)"
        assert [d.alone for d in result.differences if d.witness == moved.witness and d is not moved] == [False]

    def test_a_failure_in_a_crowd_that_scores_alone_is_said_and_not_pinned_as_a_failure(self) -> None:
        result = compare(f"dicts:{FUNCTIONS}:precision_nan_in_a_crowd", "P", examples=0)
        failed = next(d for d in result.differences if d.convention == FAILED)
        moved = next(d for d in result.differences if d.convention == BATCH_DEPENDENT)
        assert not failed.alone and moved.witness == failed.witness and moved.implementation_value == 0.0
        assert moved.problem is not None and moved.problem.startswith("a failure (returned nan) in a call with other queries")

    def test_a_call_of_many_queries_that_raises_is_said_even_where_each_query_alone_agrees(self) -> None:
        result = compare(f"dicts:{FUNCTIONS}:precision_one_query_at_a_time", "P", examples=0)
        assert [m for m, _ in result.agrees_with] == ["P"]  # alone, each query is P@k
        assert len(result.notes) == 1 and "raised RuntimeError: one query at a time on" in result.notes[0]

    def test_removing_unjudged_documents_is_read_on_tied_rankings_too(self) -> None:
        # its tie order was "no single policy": condensing was not tried where scores were tied
        result = compare(f"dicts:{FUNCTIONS}:precision_without_unjudged", "P")
        assert result.ties == ("input order",)
        assert {d.convention for d in result.differences} <= {CONDENSED, "ties broken by input order",
                                                             f"ties broken by input order + {CONDENSED}"}

    def test_a_metric_that_reads_n_is_compared_with_the_judged_nonrelevant_documents_the_glue_gives(self) -> None:
        # BPref reads N; the cases once left it unknown, BPref was undefined everywhere and every tie policy "consistent"
        case = Case(situation((Fraction(0), Fraction(1)), 2))
        assert case.situation.nonrelevant == 1
        assert under(parse("BPref"), case, "expectation over tie orders") is not None


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
        assert {d.convention for d in result.differences} == {PRORATED}
        assert [m for m, _ in result.agrees_with] == ["RBP(p=0.8)"]

    @needs("ranx")
    def test_ranx_scores_rbp_on_raw_integer_grades_above_1(self) -> None:
        result = compare("ranx:rbp(p=0.8)", "RBP(p=0.8)", examples=0)
        rescaled = next(d for d in result.differences if d.convention == "gains rescaled to integers")
        assert rescaled.implementation_value is not None and rescaled.implementation_value > 1
        assert result.ties == ("input order",)
        # ranx's RBP is given the top k: a tie across the depth is withheld (which documents are the top k would be the
        # glue's choice), said as such, and never a failure of ranx's
        assert ACROSS_THE_DEPTH in [r for r, _ in result.not_compared]
        assert FAILED not in {d.convention for d in result.differences}

    @needs("ranx")
    def test_ranx_keeps_input_order_on_small_ties_only_and_the_report_says_so(self) -> None:
        # its sort is not stable: on a deep tied ranking its order is none of the four named ones
        result = compare("ranx:ndcg", "NDCG")
        assert result.ties == () and result.tie_counts[0][0] == "input order"
        assert result.tie_counts[0][1] < result.tied and result.tie_order().startswith("no single policy: input order on ")
        conventions = {d.convention for d in result.differences}
        assert ANOTHER_ORDER in conventions and UNEXPLAINED not in conventions and THRESHOLDED not in conventions
        assert [m for m, _ in result.agrees_with] == ["NDCG"]

    @needs("cwl_eval")
    def test_cwl_evals_ndcg_is_sdcg(self) -> None:
        # a query without judgments is not compared: the glue's "no score" there had hidden this agreement
        result = compare("cwl_eval:NDCG", "NDCG")
        assert [m for m, _ in result.agrees_with] == ["SDCG"] and result.ties == ("input order",)
        assert {d.convention for d in result.differences} <= {"R = 0 scored 0", "as SDCG", "ties broken by input order",
                                                             "as SDCG + ties broken by input order"}

    @needs("ir_measures")
    @pytest.mark.parametrize(("implementation", "metric", "order"), [
        ("ir_measures:P", "P", "docno descending"), ("ir_measures:RR", "RR", "docno ascending"),
        ("ir_measures:AP", "AP", "docno descending"), ("ir_measures:nDCG", "NDCG", "docno descending"),
    ])
    def test_ir_measures_agrees_everywhere_else_but_breaks_ties_two_ways(self, implementation: str, metric: str,
                                                                         order: str) -> None:
        # its RR comes from another provider than its P, AP and nDCG: one topic's ties are ordered two ways in one call
        result = compare(implementation, metric, examples=100)
        assert {d.convention for d in result.differences} <= {"R = 0 scored 0", f"ties broken by {order}"}
        assert result.ties == (order,) and parse(metric).name in [m for m, _ in result.agrees_with]


def _report_script():  # type: ignore[no-untyped-def]
    import importlib.util

    spec = importlib.util.spec_from_file_location("toolkits_report", ROOT / "reports" / "toolkits.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    writes, sys.dont_write_bytecode = sys.dont_write_bytecode, True  # no reports/__pycache__: reports/ holds the reports
    try:
        spec.loader.exec_module(module)
    finally:
        sys.dont_write_bytecode = writes
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
