"""The repository keeps its promises: layout, README commands, CI, and one-declaration metrics."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest
import sympy
from click.testing import CliRunner
from hypothesis import given, settings

from irprops.cli import main
from irprops.metrics import REGISTRY, Algebra, compare, declare, parse, score
from irprops.metrics.strategies import situations
from tests.test_forms_agree import assert_forms_agree

from .conftest import ROOT

README = (ROOT / "README.md").read_text()


class TestLayout:
    def test_the_top_level_holds_what_the_user_asked_for(self) -> None:
        for path in ("pyproject.toml", "metrics", "properties", "proofs", "tests", "reports", "README.md", ".ci/run"):
            assert (ROOT / path).exists(), path

    def test_one_distribution_named_irprops_with_the_required_dependencies_and_a_console_script(self) -> None:
        project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
        assert project["name"] == "irprops" and project["requires-python"] == ">=3.11"
        names = {re.split(r"[<>=\[ ]", d)[0] for d in project["dependencies"]}
        assert {"sympy", "hypothesis", "z3-solver", "click", "rich"} <= names
        assert "pytest" not in names and "pytest" in {re.split(r"[<>=\[ ]", d)[0] for d in project["optional-dependencies"]["test"]}
        assert "cvc5" in project["optional-dependencies"] and "test" in project["optional-dependencies"]
        assert project["scripts"]["irprops"] == "irprops.entry:main"  # answers Ctrl-C before it imports the command line

    def test_metrics_properties_and_proofs_are_importable_packages(self) -> None:
        from irprops import metrics, proofs, properties

        assert all(m.__doc__ for m in (metrics, properties, proofs))


class TestTheCodeChecks:
    def test_the_configured_linter_passes(self) -> None:
        command = [sys.executable, "-m", "ruff", "check", "--no-cache", str(ROOT)]
        result = subprocess.run(command, check=False, capture_output=True, text=True, cwd=ROOT)
        assert result.returncode == 0, result.stdout[-3000:]

    @pytest.mark.slow
    def test_the_type_checker_passes_on_the_package_as_installed(self, tmp_path: Path) -> None:
        command = ["bash", str(ROOT / ".ci" / "typecheck"), "--cache-dir", str(tmp_path)]
        environment = {**os.environ, "PYTHON": sys.executable}
        result = subprocess.run(command, check=False, capture_output=True, text=True, cwd=ROOT, env=environment)
        assert result.returncode == 0 and result.stdout.count("Success: no issues found") == 2, result.stdout[-3000:]


def readme_commands() -> list[str]:
    """The two commands in the README's first code blocks."""
    return re.findall(r"```sh\n(.+?)\n```", README)[:2]


class TestReadmeAndCI:
    def test_the_readme_opens_with_two_commands_that_set_up_and_run(self) -> None:
        main_job, tests = readme_commands()
        assert main_job.startswith("python3 -m venv .venv && .venv/bin/pip install")
        assert main_job.endswith("&& .venv/bin/irprops table")
        assert tests.startswith("python3 -m venv .venv && .venv/bin/pip install -e '.[test]'") and "pytest" in tests
        assert README.index(main_job) < 400

    def test_ci_runs_the_readmes_test_command_after_a_fresh_virtual_environment(self) -> None:
        ci = (ROOT / ".ci" / "run").read_text().splitlines()
        _, tests = readme_commands()
        assert tests in ci
        assert ci.index("rm -rf .venv") < ci.index(tests)


    def test_the_readmes_tables_of_metrics_and_names_are_the_registrys(self) -> None:
        from irprops.metric_docs import BEGIN, END, markdown

        start, end = README.index(BEGIN), README.index(END) + len(END)
        assert README[start:end] == markdown(), "stale README tables (paste the output of `irprops metrics --markdown`)"


def console_examples() -> Iterator[tuple[str, str]]:
    """Each ``$ irprops ...`` line in the README's console block, with the output under it."""
    block = re.search(r"```console\n(.+?)```", README, re.DOTALL)
    assert block is not None
    for chunk in block.group(1).strip().split("\n\n"):
        command, _, output = chunk.partition("\n")
        yield command.removeprefix("$ "), output


@pytest.mark.parametrize(("command", "expected"), list(console_examples()))
def test_the_readme_tour_shows_what_the_tool_prints(command: str, expected: str) -> None:
    args = shlex.split(command)
    assert args[0] == "irprops"
    result = CliRunner().invoke(main, args[1:])
    assert result.output.rstrip("\n") == expected.rstrip("\n")


def test_the_readme_python_example_runs() -> None:
    assert score("SN-AP@5", "10001").exact == Fraction(7, 10)
    assert str(score("DCG@5", "11000")) == "DCG@5 = 1 + 1/log2(3) = 1.6309297535714575"


@pytest.fixture(scope="class")
def inverse_squares() -> Iterator[str]:
    """A metric the project has never seen, declared the one way metrics are declared."""

    @declare("InvSq", relevance="graded", reference="Moffat 2013, Section 2: weights 1/(i(i+1)), prefix sums converge to one")
    def inverse_squares(m: Algebra) -> object:
        """Inverse-squares weighted precision.

        InvSq@k(R) = sum_{i=1..k} r_i / (i (i + 1))
        """
        return m.sum(1, m.k, lambda i: m.r(i) / (i * (i + 1)))

    yield "InvSq"
    del REGISTRY["InvSq"]


class TestAddingAMetricIsOneDeclaration:
    def test_it_is_named_scored_and_listed_at_once(self, inverse_squares: str) -> None:
        assert parse("invsq@3").name == "InvSq@3"
        assert score("InvSq@3", "111").exact == Fraction(3, 4)
        assert "InvSq" in CliRunner().invoke(main, ["metrics"]).output

    @settings(max_examples=40)
    @given(situations(binary=False))
    def test_its_three_forms_agree(self, inverse_squares: str, situation) -> None:  # type: ignore[no-untyped-def]
        assert_forms_agree(parse(inverse_squares), situation)

    def test_its_closed_form_sums_to_k_over_k_plus_1_when_all_are_relevant(self, inverse_squares: str) -> None:
        form = parse(inverse_squares).closed_form()
        all_relevant = form.expr.replace(lambda e: isinstance(e, sympy.Indexed), lambda e: sympy.Integer(1))
        assert sympy.simplify(all_relevant.doit() - form.k / (form.k + 1)) == 0
        assert compare(score("InvSq@9", "1" * 9).exact, Fraction(9, 10)) == 0
