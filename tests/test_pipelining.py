"""A proposal's process is asked ahead (issue 13): the search sends the situations it is about to score without waiting
for each answer (:meth:`Sandbox.ask_each`), so a call costs the proposal's own time, not a round trip between two
processes. What it must not change: each call is timed as one asked alone, a hang is the hang of the situation that
hung, a defect is raised where the search meets it, a slow proposal is not sent far ahead of the search's budget, and
every verdict is the one asking one at a time gives."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from irprops.cli import main
from irprops.properties.sandbox import Sandbox
from irprops.properties.targets import ProposalTarget

PROPOSALS = '''
import os, signal, time
from fractions import Fraction


def precision(ranking, k, qrels):
    return sum(ranking[:k], Fraction(0)) / k


def hangs_at_depth_five(ranking, k, qrels):
    if k == 5:
        while True:
            pass
    return Fraction(k)


def slow(ranking, k, qrels):
    time.sleep(0.2)
    return Fraction(k)


def prints_a_lot(ranking, k, qrels):
    print("x" * 5000)
    return Fraction(k)


def raises_at_depth_two(ranking, k, qrels):
    if k == 2:
        raise ValueError("no score at depth 2")
    return sum(ranking[:k], Fraction(0)) / k


def hangs_on_deep_rankings(ranking, k, qrels):  # the relevant documents in the top k (monotonic): the search reaches k = 4
    if k >= 4 and ranking[0] == 1:
        time.sleep(60)
    return sum(ranking[:k], Fraction(0))


def fast_then_slow(ranking, k, qrels):
    if k >= 10:
        time.sleep(0.3)
    return Fraction(k)


def dies_at_depth_thirty(ranking, k, qrels):
    if k == 30:
        os.kill(os.getpid(), signal.SIGKILL)
    return Fraction(k)


def changes_its_grades(ranking, k, qrels):
    first = ranking[0]
    value = Fraction(first.numerator, first.denominator)
    first._numerator = 7  # the Fraction it was given: a later call must not see it changed
    return value


def slow_on_two_relevant(ranking, k, qrels):  # top-weightedness fails early on `01`; slow wherever R >= 2
    if len(qrels) >= 2:
        time.sleep(0.3)
    if list(ranking) == [0, 1] and k == 2 and len(qrels) == 1:
        return Fraction(1, 3)
    return sum(ranking[:k], Fraction(0)) / k


def top_heavy(ranking, k, qrels):
    return sum((g / (i * i) for i, g in enumerate(ranking[:k], start=1)), Fraction(0))
'''


@pytest.fixture(scope="module")
def proposals(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("pipelined") / "pipelined.py"
    path.write_text(PROPOSALS)
    return path


@pytest.fixture
def box(proposals: Path, request: pytest.FixtureRequest) -> Iterator[Sandbox]:
    with Sandbox(f"{proposals}:{request.param}") as opened:
        yield opened


def at_depths(*depths: int) -> list[tuple[list[str], int, list[str]]]:
    return [(["1", "0", "1", "0", "0", "1"], k, ["1", "1", "1"]) for k in depths]


def kinds(answers: list[dict[str, Any]]) -> list[str]:
    return [str(a["kind"]) for a in answers]


class TestAskingAhead:
    @pytest.mark.parametrize("box", ["precision"], indirect=True)
    def test_the_answers_are_those_asked_one_at_a_time_in_order(self, box: Sandbox) -> None:
        situations = at_depths(*range(1, 201))
        ahead, hung = box.ask_each(situations, 5.0, 60.0)
        alone = [box.ask(*s, seconds=5.0) for s in situations]
        assert not hung and [a["value"] for a in ahead] == [a["value"] for a in alone] and len(ahead) == 200

    @pytest.mark.parametrize("box", ["hangs_at_depth_five"], indirect=True)
    def test_a_hang_ends_the_answers_at_the_situation_that_hung(self, box: Sandbox) -> None:
        start = time.monotonic()
        answers, hung = box.ask_each(at_depths(1, 2, 3, 4, 5, 6, 7), 0.5, 60.0)
        assert hung and kinds(answers) == ["exact"] * 4 and time.monotonic() - start < 5
        assert box.ask(*at_depths(6)[0], seconds=5.0)["kind"] == "exact"  # a new process answers what follows

    @pytest.mark.parametrize("box", ["dies_at_depth_thirty"], indirect=True)
    def test_a_process_that_dies_gives_that_situation_a_defect_and_nothing_after_it(self, box: Sandbox) -> None:
        answers, hung = box.ask_each(at_depths(28, 29, 30, 31, 32), 5.0, 60.0)
        assert not hung and kinds(answers) == ["exact", "exact", "defect"] and "SIGKILL" in answers[2]["problem"]

    @pytest.mark.parametrize("box", ["slow"], indirect=True)
    def test_a_slow_proposal_is_not_sent_past_the_time_given(self, box: Sandbox) -> None:
        start = time.monotonic()
        answers, hung = box.ask_each(at_depths(*range(1, 51)), 5.0, 0.5)
        assert not hung and 2 <= len(answers) <= 5 and time.monotonic() - start < 1.5

    @pytest.mark.parametrize("box", ["fast_then_slow"], indirect=True)
    def test_calls_that_turn_slow_do_not_hold_the_caller_past_the_time_given(self, box: Sandbox) -> None:
        # a helper-73 finding: fast calls let 400 be sent ahead, and reading their answers took 20 s of a 0.5 s allowance
        start = time.monotonic()
        answers, hung = box.ask_each(at_depths(*range(1, 401)), 5.0, 0.5)
        assert not hung and 9 <= len(answers) < 400 and time.monotonic() - start < 1.5
        assert box.ask(*at_depths(400)[0], seconds=5.0)["value"] == ["190", "1"]  # a new process answers what follows

    @pytest.mark.parametrize("box", ["dies_at_depth_thirty"], indirect=True)
    def test_a_process_that_dies_while_more_is_sent_is_blamed_on_the_situation_it_died_on(self, box: Sandbox) -> None:
        # a helper-73 finding: the broken pipe of a later request blamed the end on the first answer not yet read
        answers, hung = box.ask_each(at_depths(*range(1, 2001)), 5.0, 60.0)
        assert not hung and kinds(answers) == ["exact"] * 29 + ["defect"] and "SIGKILL" in answers[-1]["problem"]

    @pytest.mark.parametrize("box", ["changes_its_grades"], indirect=True)
    def test_a_call_that_changes_the_fractions_it_was_given_does_not_change_the_next_calls(self, box: Sandbox) -> None:
        # a helper-73 finding: parsed grades were cached and shared between calls
        answers, _ = box.ask_each(at_depths(1, 1, 1), 5.0, 60.0)
        again = box.ask(*at_depths(1)[0], seconds=5.0)
        assert [a["value"] for a in [*answers, again]] == [["1", "1"]] * 4

    @pytest.mark.parametrize("box", ["prints_a_lot"], indirect=True)
    def test_answers_larger_than_a_pipe_do_not_stall_either_side(self, box: Sandbox) -> None:
        answers, hung = box.ask_each(at_depths(*range(1, 401)), 5.0, 60.0)
        assert not hung and len(answers) == 400 and all(a["printed"].startswith("xxx") for a in answers)


def check(target: str, *args: str) -> dict[str, Any]:
    result = CliRunner().invoke(main, ["check", target, *args, "--json"])
    assert result.exit_code == 0 and "Traceback" not in result.output, result.output
    return json.loads(result.stdout)  # type: ignore[no-any-return]


def comparable(report: dict[str, Any]) -> dict[str, Any]:
    """The report without its clock readings."""
    text = json.dumps(report["properties"], sort_keys=True)
    properties = json.loads(text)
    for verdict in properties.values():
        verdict.pop("seconds", None)
        for part in (verdict, verdict.get("search") or {}):
            part.pop("seconds", None)
    return properties


class TestTheVerdictsAreThoseOfAskingOneAtATime:
    @pytest.mark.slow
    @pytest.mark.parametrize(("name", "options"), [
        ("precision", ()),
        ("top_heavy", ()),
        ("raises_at_depth_two", ()),
        ("hangs_on_deep_rankings", ("--timeout", "0.5")),
    ])
    def test_a_check_gives_the_same_report_asked_ahead_or_not(self, proposals: Path, name: str, options: tuple[str, ...],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
        ahead = check(f"{proposals}:{name}", *options)
        monkeypatch.setattr(ProposalTarget, "prefetch", lambda self, situations: None)
        alone = check(f"{proposals}:{name}", *options)
        assert comparable(ahead) == comparable(alone)

    def test_a_proposal_that_turns_slow_keeps_its_refutation_and_its_budget(self, proposals: Path) -> None:
        start = time.monotonic()
        report = check(f"{proposals}:slow_on_two_relevant", "top_weighted", "--budget", "2", "--timeout", "1")
        assert report["properties"]["top_weighted"]["verdict"] == "no" and time.monotonic() - start < 8

    def test_a_defect_is_reported_on_the_situation_where_the_search_met_it(self, proposals: Path) -> None:
        report = check(f"{proposals}:raises_at_depth_two", "monotonic")
        first = report["properties"]["monotonic"]["search"]["first_defect"]
        assert first["problem"] == "raised ValueError: no score at depth 2" and first["situation"]["k"] == 2

    def test_a_hang_stops_the_search_at_the_situation_that_hung(self, proposals: Path) -> None:
        report = check(f"{proposals}:hangs_on_deep_rankings", "monotonic", "--timeout", "0.5")
        search = report["properties"]["monotonic"]["search"]
        assert search["stopped"] == "hang" and search["hang"]["situation"]["k"] >= 4
        assert search["hang"]["situation"]["ranking"][0] == "1"
