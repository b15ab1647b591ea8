"""What each command imports before it answers (issue 13, item 4): ``irprops --help`` nothing heavy, ``score`` and
``metrics`` the metrics (SymPy) but neither the search (Hypothesis) nor the proofs (Z3, cvc5). Each runs in a fresh
interpreter, where nothing is imported yet."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HEAVY = ("sympy", "z3", "hypothesis", "cvc5", "rich", "irprops.metrics", "irprops.properties", "irprops.proofs")

PROGRAM = """
import contextlib, io, json, sys
status = 0
from irprops.cli import main
out = io.StringIO()
try:
    with contextlib.redirect_stdout(out):
        main(sys.argv[1:])
except SystemExit as end:
    status = end.code
print(json.dumps({"status": status, "output": out.getvalue(), "imported": [m for m in HEAVY if m in sys.modules]}))
""".replace("HEAVY", repr(HEAVY))


def run(*args: str, env: dict[str, str] | None = None) -> dict[str, object]:
    done = subprocess.run([sys.executable, "-c", PROGRAM, *args], capture_output=True, text=True, timeout=120, check=True,
                          env=None if env is None else {**os.environ, **env})
    return json.loads(done.stdout.splitlines()[-1])  # type: ignore[no-any-return]


class TestHelpImportsNothingHeavy:
    @pytest.mark.parametrize("args", [["--help"], ["score", "--help"], ["check", "--help"], ["table", "--help"], ["--version"]])
    def test_help_and_the_version_import_neither_sympy_nor_a_solver_nor_hypothesis(self, args: list[str]) -> None:
        answer = run(*args)
        assert answer["status"] == 0 and answer["output"] and answer["imported"] == []


class TestScoringImportsNeitherTheSearchNorTheProofs:
    @pytest.mark.parametrize("args", [["score", "P@6", "111110"], ["score", "nDCG@10", "1,1/2,0"], ["metrics"], ["metrics", "AP"]])
    def test_it_imports_the_metrics_and_nothing_of_the_checkers(self, args: list[str]) -> None:
        answer = run(*args)
        assert answer["status"] == 0 and answer["output"]
        assert set(answer["imported"]) & {"z3", "hypothesis", "cvc5", "irprops.properties", "irprops.proofs"} == set()  # type: ignore[arg-type]
        assert "irprops.metrics" in answer["imported"]  # type: ignore[operator]

    def test_a_usage_error_is_still_one_line_with_status_2(self) -> None:
        answer = run("score", "nDCG@0", "1")
        assert answer["status"] == 2


@pytest.mark.slow
class TestAWarmTableImportsNoChecker:
    def test_it_reads_its_rows_without_hypothesis_or_a_solver(self, built: object, cache_home: Path, tmp_path: Path) -> None:
        answer = run("table", "--out", str(tmp_path), env={"XDG_CACHE_HOME": str(cache_home)})
        assert answer["status"] == 0 and (tmp_path / "table2.md").exists()
        assert set(answer["imported"]) & {"z3", "hypothesis", "cvc5", "irprops.proofs"} == set()  # type: ignore[arg-type]

    def test_a_second_run_writes_the_same_bytes_from_its_kept_output_without_the_metrics_or_sympy(
            self, built: object, cache_home: Path, tmp_path: Path) -> None:
        env = {"XDG_CACHE_HOME": str(cache_home)}
        first = run("table", "--out", str(tmp_path / "first"), "--order", "complete,realizable", env=env)
        again = run("table", "--out", str(tmp_path / "again"), "--order", "complete,realizable", env=env)
        assert first["status"] == again["status"] == 0
        assert set(again["imported"]) & {"sympy", "irprops.metrics", "z3", "hypothesis", "cvc5"} == set()  # type: ignore[arg-type]
        files = sorted(p.name for p in (tmp_path / "first").iterdir())
        assert files == sorted(p.name for p in (tmp_path / "again").iterdir()) and len(files) == 7
        assert all((tmp_path / "first" / f).read_bytes() == (tmp_path / "again" / f).read_bytes() for f in files)
        printed = [str(out).rsplit("wrote", 1)[0].strip() for out in (first["output"], again["output"])]
        assert printed[0] == printed[1] and "Complete" in printed[0]  # the same table printed, up to the seconds
