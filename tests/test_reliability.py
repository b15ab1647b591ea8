"""Reliability (issue 14): whatever a black-box proposal does, ``irprops check`` finishes, exits as documented and
prints one valid JSON object under ``--json``; bad option values are usage errors (exit status 2), never tracebacks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from irprops.cli import main

PROPOSALS = '''
import os, sys
from fractions import Fraction

def precision(ranking, k, qrels):
    return Fraction(sum(1 for g in ranking[:k] if g), k)

def calls_sys_exit(ranking, k, qrels):
    sys.exit(0)

def calls_os_exit(ranking, k, qrels):
    os._exit(0)

class Unprintable(Exception):
    def __str__(self):
        raise RuntimeError("no text")

def raises_an_unprintable_exception(ranking, k, qrels):
    raise Unprintable()

class Escaping(BaseException):
    pass

def raises_a_base_exception(ranking, k, qrels):
    raise Escaping("past except Exception")

def prints_as_it_scores(ranking, k, qrels):
    print("debugging output", k)
    print("to stderr too", file=sys.stderr)
    return precision(ranking, k, qrels)

def returns_ten_to_the_5000(ranking, k, qrels):
    return 10 ** 5000 * precision(ranking, k, qrels)
'''


@pytest.fixture
def proposals(tmp_path: Path) -> Path:
    path = tmp_path / "careless.py"
    path.write_text(PROPOSALS)
    return path


def checked(target: str, *args: str) -> tuple[int, dict[str, object]]:
    result = CliRunner().invoke(main, ["check", target, *args, "--json", "--budget", "5"])
    assert "Traceback" not in result.output, result.output
    return result.exit_code, json.loads(result.stdout)


class TestAProposalThatTriesToEndTheProgram:
    @pytest.mark.parametrize(("name", "named"), [
        ("calls_sys_exit", "SystemExit"), ("calls_os_exit", "os._exit(0) was called"),
        ("raises_a_base_exception", "Escaping: past except Exception"),
        ("raises_an_unprintable_exception", "Unprintable: (its message cannot be printed)"),
    ])
    def test_is_a_defect_of_the_proposal_and_the_check_still_reports(self, proposals: Path, name: str, named: str) -> None:
        code, report = checked(f"{proposals}:{name}", "monotonic")
        search = report["properties"]["monotonic"]["search"]  # type: ignore[index]
        assert code == 0 and report["properties"]["monotonic"]["verdict"] == "unknown"  # type: ignore[index]
        assert search["defects"] > 0 and named in search["first_defect"]["problem"], search


class TestWhatAProposalPrintsOrReturns:
    def test_its_printing_never_reaches_the_json(self, proposals: Path) -> None:
        code, report = checked(f"{proposals}:prints_as_it_scores", "monotonic")
        assert code == 0 and report["properties"]["monotonic"]["verdict"] == "no"  # type: ignore[index]

    def test_a_score_of_5000_digits_is_scored_exactly_and_shown_as_beyond_floating_point(self, proposals: Path) -> None:
        code, report = checked(f"{proposals}:returns_ten_to_the_5000", "bounded", "monotonic")
        assert code == 0 and "beyond floating point" in report["properties"]["bounded"]["evidence"]  # type: ignore[index]
        assert report["properties"]["monotonic"]["verdict"] == "no"  # type: ignore[index]


class TestOptionValues:
    @pytest.mark.parametrize("value", ["nan", "inf", "-1", "1e-9", "1e9"])
    @pytest.mark.parametrize("option", ["--timeout", "--budget"])
    def test_a_time_that_is_not_a_finite_number_of_seconds_in_range_is_a_usage_error(self, option: str, value: str) -> None:
        result = CliRunner().invoke(main, ["check", "P", "monotonic", option, value])
        assert result.exit_code == 2 and "Traceback" not in result.output and "0.001 to 3600" in result.output
        assert result.output.count("\n") == 1, result.output


def test_showing_a_metric_whose_form_at_the_depth_is_not_written_out_says_so() -> None:
    result = CliRunner().invoke(main, ["metrics", "SN-DCG@11"])
    assert result.exit_code == 0 and "not written out" in result.output, result.output
