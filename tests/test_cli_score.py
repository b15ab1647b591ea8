"""`irprops score` and `irprops metrics`: the paper's examples from the command line, and one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from irprops.cli import main
from irprops.metrics import REGISTRY


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def as_json(*args: str) -> dict:
    code, out = run("score", "--json", *args)
    assert code == 0, out
    return json.loads(out)


class TestScoreReproducesThePapersExamples:
    @pytest.mark.parametrize(("args", "rounded", "digits"), [
        (("DCG@5", "11000"), 1.63, 2),
        (("SDCG@5", "11000"), 0.55, 2),
        (("SN-DCG@5", "10100"), 0.92, 2),
        (("P@6", "111110", "--R", "6"), 0.83, 2),
        (("SDCG@6", "111110", "--R", "6"), 0.89, 2),
        (("NDCG@6", "111110", "--R", "6"), 0.89, 2),
        (("SN-AP@5", "10001"), 0.7, 2),
        (("AP@20", "$$---$----$-----$---", "--R", "6"), 0.5263, 4),
        (("RBP(p=0.95)@20", "$$---$----$-----$---"), 0.1881, 4),
        (("DCG-b@100", "1" * 100), 21.79, 2),
    ])
    def test_values_match_the_printed_figures(self, args: tuple[str, ...], rounded: float, digits: int) -> None:
        assert round(as_json(*args)["value"], digits) == rounded

    def test_rr_ties_are_exact(self) -> None:
        assert as_json("RR@5", "01000")["exact"] == as_json("RR@5", "01100")["exact"] == "1/2"

    def test_json_has_exactly_the_documented_keys_when_defined(self) -> None:
        out = as_json("nDCG@5", "1,1/2,0,?", "--qrels", "1,1/2,1")
        assert set(out) == {"metric", "k", "defined", "exact", "value"}
        assert (out["metric"], out["k"], out["defined"]) == ("NDCG@5", 5, True)

    def test_undefined_scores_are_reported_not_raised(self) -> None:
        out = as_json("SN-DCG@5", "00000", "--R", "2")
        assert out == {"metric": "SN-DCG@5", "k": 5, "defined": False, "exact": None, "value": None}
        code, text = run("score", "SN-DCG@5", "00000", "--R", "2")
        assert code == 0 and "undefined: no relevant document in the top k" in text

    def test_rbp_reports_residual_and_bounds(self) -> None:
        out = as_json("RBP(p=0.5)@20", "$$---$----$-??--?---")
        assert out["residual"] == "201/1048576"
        assert [round(b, 4) for b in out["bounds"]] == [0.7661, 0.7663]

    def test_the_depth_is_the_ranking_length_when_the_name_has_none(self) -> None:
        assert as_json("P", "1100")["k"] == 4 and as_json("P", "1100")["metric"] == "P@4"

    def test_a_score_over_hundreds_of_logarithms_prints_its_size_and_in_full_in_json(self) -> None:
        code, text = run("score", "DCG@300", "1" * 300)
        assert code == 0 and "exact     an expression over 292 logarithms" in text and "about 47.4" in text, text
        assert as_json("DCG@300", "1" * 300)["exact"].count("log2(") == 292


class TestBadInput:
    @pytest.mark.parametrize(("args", "fragment"), [
        (("P@5", "1,3/2"), "must lie in [0, 1]"),
        (("P(rel=2)@5", "1,1/2"), "rel=2/3"),
        (("P@0", "11"), "at least 1"),
        (("AP@5", "11", "--qrels", "1"), "the qrels only 1"),
        (("nDGC@5", "11"), "did you mean NDCG"),
        (("P@5", "1x"), "character 'x'"),
        (("P@5", "11", "--R", "1"), "already holds 2"),
        (("P@5", "11", "--R", "3", "--qrels", "111"), "either --qrels or --R"),
        # sizes that hung or printed a traceback (found by a hostile review)
        (("AP@999999999999999999999", "1"), "at most 100,000"),
        (("P@100000000", "1"), "at most 100,000"),
        (("P@200000", "1"), "at most 100,000"),
        (("RBP(p=1e-999999)@3", "1"), "more than 60 digits"),
        (("P@5", "1,1e-999999"), "more than 60 digits"),
        (("P@3", "1", "--R", "99999999999"), "at most 1,000,000 relevant documents"),
        # a toolkit's name with a depth of 5,000 digits (a hostile read of this session: int() refused it with a traceback)
        (("P_" + "9" * 5000, "1"), "at most 100,000"),
        (("rbp." + "9" * 5000, "1"), "more than 60 digits"),
        (("P@-" + "0" * 5000 + "3", "1"), "at least 1"),
        (("P@-0", "1"), "at least 1"),
    ])
    def test_one_line_naming_the_value_and_the_rule_with_status_2(self, args: tuple[str, ...], fragment: str) -> None:
        code, out = run("score", *args)
        assert code == 2
        assert out.count("\n") == 1 and out.startswith("irprops: error: ") and fragment in out
        assert "Traceback" not in out

    @pytest.mark.parametrize("name", ["P@" + "0" * 5000 + "3", "nDCG(max_rel=" + "9" * 5000 + ")@3"])
    def test_a_number_of_thousands_of_digits_that_is_small_or_only_names_a_scale_is_read(self, name: str) -> None:
        code, out = run("score", name, "1,1/2")
        assert code == 0 and "k = 3" in out, out

    def test_the_installed_entry_point_exits_2_without_a_traceback(self) -> None:
        done = subprocess.run([sys.executable, "-m", "irprops", "score", "P@5", "1,3/2"], capture_output=True, text=True, check=False)
        assert done.returncode == 2 and "Traceback" not in done.stderr and "must lie in [0, 1]" in done.stderr


class TestMetricsCommand:
    def test_lists_every_declared_metric(self) -> None:
        code, out = run("metrics")
        assert code == 0 and all(key in out for key in REGISTRY)

    def test_shows_one_metric_with_its_forms(self) -> None:
        code, out = run("metrics", "nDCG@2")
        assert code == 0
        assert "NDCG@k(R) = DCG@k(R) / sum_{i=1..k} g_i / log2(i + 1)" in out
        assert "For every k:  Sum(r[i]/log2(i + 1), (i, 1, k))/Sum(" in out
        assert "At k = 2:  (r_1 + r_2/log2(3))/(" in out
