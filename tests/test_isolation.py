"""A proposal runs in its own process (issue 14, items 9 and 10): whatever it does there, ``irprops check`` ends on time,
reports what happened as a defect of the proposal, and its own process and output are untouched."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from irprops.cli import main
from irprops.properties import sandbox

PROPOSALS = '''
import signal, threading, time
from fractions import Fraction

def precision(ranking, k, qrels):
    return Fraction(sum(1 for g in ranking[:k] if g), k)

def loops_in_c_code(ranking, k, qrels):
    return sum(range(10 ** 12))

def ignores_the_alarm_and_every_exception(ranking, k, qrels):
    signal.signal(signal.SIGALRM, signal.SIG_IGN)
    while True:
        try:
            time.sleep(10)
        except BaseException:
            pass

def starts_a_thread_that_never_ends(ranking, k, qrels):
    threading.Thread(target=time.sleep, args=(10 ** 6,)).start()
    return precision(ranking, k, qrels)

def allocates_without_end(ranking, k, qrels):
    return len([0] * 10 ** 10)

def prints_then_raises(ranking, k, qrels):
    print("about to fail on", k)
    raise ValueError("no score")

def returns_ten_to_the_million(ranking, k, qrels):
    return 10 ** 10 ** 6

import numbers

class ForeignInteger:  # an integer type of another library (numpy.int64 is one): an Integral, not an int
    def __init__(self, value):
        self.numerator, self.denominator = value, 1
    def __int__(self):
        return self.numerator

numbers.Integral.register(ForeignInteger)

def returns_a_foreign_integer(ranking, k, qrels):
    return ForeignInteger(sum(1 for g in ranking[:k] if g))

def returns_a_power_tower(ranking, k, qrels):
    import sympy
    two = sympy.Pow(2, 65536, evaluate=False)
    return sympy.Pow(sympy.Pow(two, 65536, evaluate=False), 65536, evaluate=False)  # 2 ** (2 ** 48): not to be computed

def writes_a_deep_answer_on_the_pipe(ranking, k, qrels):
    import os, sys
    os.write(int(sys.argv[2]), ('{"kind": "symbolic", "value": ' + '["Add", ' * 100000 + '["int", "1"]' + ']' * 100000 + '}\\n').encode())
    return 0

def insists_on_fractions(ranking, k, qrels):
    assert isinstance(ranking, tuple) and isinstance(qrels, tuple) and type(k) is int
    assert all(type(g) is Fraction for g in ranking + qrels)
    return precision(ranking, k, qrels)
'''


@pytest.fixture(scope="module")
def proposals(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("hostile") / "hostile.py"
    path.write_text(PROPOSALS)
    return path


def checked(target: str, *args: str) -> tuple[int, dict]:  # type: ignore[type-arg]
    result = CliRunner().invoke(main, ["check", target, *args, "--json"])
    assert "Traceback" not in result.output, result.output
    return result.exit_code, json.loads(result.stdout)


def search_of(report: dict, prop: str) -> dict:  # type: ignore[type-arg]
    return report["properties"][prop]["search"]  # type: ignore[no-any-return]


class TestAProposalThatDoesNotReturn:
    @pytest.mark.parametrize("name", ["loops_in_c_code", "ignores_the_alarm_and_every_exception"])
    def test_is_ended_by_its_time_limit_and_the_search_says_it_stopped(self, proposals: Path, name: str) -> None:
        start = time.monotonic()
        code, report = checked(f"{proposals}:{name}", "monotonic", "--timeout", "0.5", "--budget", "5")
        assert code == 0 and report["properties"]["monotonic"]["verdict"] == "unknown"
        assert search_of(report, "monotonic")["stopped"] == "hang", search_of(report, "monotonic")
        assert time.monotonic() - start < 30

    def test_a_thread_it_leaves_running_does_not_keep_irprops_alive(self, proposals: Path) -> None:
        done = subprocess.run([sys.executable, "-m", "irprops", "check", f"{proposals}:starts_a_thread_that_never_ends",
                               "monotonic", "--json", "--budget", "5"], check=False, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0 and json.loads(done.stdout)["properties"]["monotonic"]["verdict"] == "no"


class TestWhatAProposalDoesInItsProcess:
    def test_running_out_of_memory_is_a_defect_of_the_proposal(self, proposals: Path) -> None:
        code, report = checked(f"{proposals}:allocates_without_end", "monotonic", "--budget", "5", "--timeout", "30")
        assert code == 0 and "MemoryError" in search_of(report, "monotonic")["first_defect"]["problem"]

    def test_what_it_printed_is_part_of_the_defect_report(self, proposals: Path) -> None:
        code, report = checked(f"{proposals}:prints_then_raises", "monotonic", "--budget", "5")
        problem = search_of(report, "monotonic")["first_defect"]["problem"]
        assert code == 0 and problem.startswith("raised ValueError: no score, after printing 'about to fail on "), problem

    def test_a_number_past_a_million_bits_is_a_defect_not_a_crash(self, proposals: Path) -> None:
        code, report = checked(f"{proposals}:returns_ten_to_the_million", "monotonic", "--budget", "5")
        assert code == 0 and "more than 1,048,576 bits" in search_of(report, "monotonic")["first_defect"]["problem"]

    def test_it_is_given_tuples_of_fractions_as_documented(self, proposals: Path) -> None:
        code, report = checked(f"{proposals}:insists_on_fractions", "monotonic", "--budget", "5")
        assert code == 0 and report["properties"]["monotonic"]["verdict"] == "no"
        assert search_of(report, "monotonic")["defects"] == 0, search_of(report, "monotonic")


    def test_an_integer_of_another_library_is_scored_exactly(self, proposals: Path) -> None:
        code, report = checked(f"{proposals}:returns_a_foreign_integer", "top_weighted", "--budget", "5")
        assert code == 0 and report["properties"]["top_weighted"]["verdict"] == "no"
        assert search_of(report, "top_weighted")["defects"] == 0 and report["properties"]["top_weighted"]["witness"]


    @pytest.mark.parametrize("name", ["returns_a_power_tower", "writes_a_deep_answer_on_the_pipe"])
    def test_an_answer_too_large_or_too_deep_to_read_is_a_defect_not_a_crash(self, proposals: Path, name: str) -> None:
        code, report = checked(f"{proposals}:{name}", "monotonic", "--budget", "5")
        assert code == 0 and search_of(report, "monotonic")["defects"] > 0, report["properties"]["monotonic"]


class TestWhatAProposalDoesWhenImported:
    @pytest.fixture
    def module(self, tmp_path: Path) -> Path:
        return tmp_path / "at_import.py"

    def test_ending_the_program_is_a_one_line_usage_error(self, module: Path) -> None:
        module.write_text("import sys\nsys.exit(0)\n")
        result = CliRunner().invoke(main, ["check", f"{module}:f", "monotonic"])
        assert result.exit_code == 2 and "loading it raised SystemExit" in result.output
        assert result.output.count("\n") == 1, result.output

    def test_never_finishing_is_a_one_line_usage_error(self, module: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        module.write_text("while True:\n    pass\n")
        monkeypatch.setattr(sandbox, "LOAD_SECONDS", 2.0)
        result = CliRunner().invoke(main, ["check", f"{module}:f", "monotonic"])
        assert result.exit_code == 2 and "importing it took over 2 s" in result.output, result.output

    def test_a_missing_name_is_named_with_the_close_ones(self, module: Path) -> None:
        module.write_text("def precision(ranking, k, qrels):\n    return 0\n")
        result = CliRunner().invoke(main, ["check", f"{module}:precison", "monotonic"])
        assert result.exit_code == 2 and "has no function 'precison' (did you mean precision?)" in result.output, result.output

    def test_a_plain_function_is_never_imported_into_irprops_process(self, module: Path) -> None:
        module.write_text("import os\nos.environ['IRPROPS_IMPORTED_HERE'] = '1'\ndef f(ranking, k, qrels):\n    return 0\n")
        import os

        code, _ = checked(f"{module}:f", "bounded", "--budget", "2")
        assert code == 0 and "IRPROPS_IMPORTED_HERE" not in os.environ
