"""Checking researchers' proposals: plain functions, sound or broken.

Every "no" is re-verified by the independent re-checker on the proposal itself. A
proposal's defects (exceptions, NaN, infinity, non-numbers) are reported with the input
that caused them and never become a "no"; a hang stops only the property it hit.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable

import pytest

from irprops import COLUMNS, CheckResult, check
from irprops.metrics import InputError
from irprops.verdicts import Problem
from tests import proposals
from tests.helpers import checked
from tests.recheck import recheck

from .conftest import ROOT

PROPOSALS = ROOT / "tests" / "proposals.py"


def assert_every_no_rechecks(result: CheckResult, function: Callable) -> None:
    for prop, verdict in result.verdicts.items():
        if verdict.verdict == "no":
            assert recheck(function, prop, dict(verdict.witness.data)), f"{prop}: {verdict.evidence}"


def verdicts(result: CheckResult) -> dict[str, str]:
    return {p: v.verdict for p, v in result.verdicts.items()}


class TestSoundProposals:
    def test_a_plain_function_is_never_proved_only_searched(self) -> None:
        assert "yes" not in verdicts(check(proposals.average_precision))

    def test_a_proposal_written_like_a_builtin_gets_the_builtins_search_verdicts(self) -> None:
        result = check(proposals.average_precision)
        assert verdicts(result) == verdicts(checked("AP", prove=False))
        assert_every_no_rechecks(result, proposals.average_precision)

    def test_a_file_and_function_name_load_the_proposal(self) -> None:
        result = check(f"{PROPOSALS}:precision", ["monotonic", "top_weighted"])
        assert result.metric == "precision" and result.relevance == "binary"
        assert verdicts(result) == {"monotonic": "no", "top_weighted": "no"}
        assert_every_no_rechecks(result, proposals.precision)

    def test_zero_division_means_undefined_so_recall_is_incomplete(self) -> None:
        verdict = check(proposals.recall, ["complete"])["complete"]
        assert verdict.verdict == "no" and verdict.witness.data == {"k": 1, "ranking": ["0"], "qrels": []}

    def test_exact_sympy_scores_are_certified_exactly(self) -> None:
        result = check(proposals.exact_dcg, ["top_weighted", "realizable"])
        assert result.relevance == "graded"  # from the function's relevance attribute
        assert verdicts(result) == {"top_weighted": "unknown", "realizable": "no"}
        assert result["realizable"].method == "exhaustive search, exact arithmetic"
        assert_every_no_rechecks(result, proposals.exact_dcg)

    def test_reading_below_the_depth_is_caught_as_not_localized(self) -> None:
        verdict = check(proposals.peeks_below, ["localized"])["localized"]
        assert verdict.verdict == "no" and verdict.witness.data["a"]["ranking"] != verdict.witness.data["b"]["ranking"]
        assert recheck(proposals.peeks_below, "localized", dict(verdict.witness.data))

    def test_a_defined_against_undefined_pair_is_the_localization_witness_only_when_no_other_exists(self) -> None:
        verdict = check(proposals.precision_needing_relevant, ["localized"])["localized"]
        assert verdict.verdict == "no" and verdict.witness.weak
        assert verdict.witness.data == {"k": 1, "a": {"ranking": ["0"], "qrels": []}, "b": {"ranking": ["0"], "qrels": ["1"]}}
        assert recheck(proposals.precision_needing_relevant, "localized", dict(verdict.witness.data))

    def test_a_failure_beyond_the_exhaustive_depths_is_found_by_hypothesis_and_shrunk(self) -> None:
        verdict = check(proposals.fails_late, ["monotonic"])["monotonic"]
        assert verdict.verdict == "no" and verdict.method.startswith("Hypothesis search")
        assert verdict.witness.data["k"] == 7 and len(verdict.witness.data["ranking"]) == 8
        assert recheck(proposals.fails_late, "monotonic", dict(verdict.witness.data))


class TestFloatProposals:
    def test_float_scores_give_the_same_verdicts_labelled_numerical(self) -> None:
        result = check(proposals.float_precision)
        assert verdicts(result) == verdicts(checked("P", prove=False))
        for prop in ("monotonic", "top_weighted", "realizable"):
            assert "numerical evidence" in result[prop].method
        assert_every_no_rechecks(result, proposals.float_precision)

    def test_decimal_scores_are_numerical_evidence_not_exact(self) -> None:  # Decimal division rounds
        result = check(proposals.decimal_precision, ["monotonic", "top_weighted"])
        for verdict in result.verdicts.values():
            assert verdict.verdict == "no" and "numerical evidence" in verdict.method

    def test_float_witnesses_are_plain_float_comparisons(self) -> None:
        w = check(proposals.float_precision, ["realizable"])["realizable"].witness.data
        assert (w["max"], w["better"]["value"]) == ("0.5", "1.0")


class TestBrokenProposals:
    def test_an_exception_everywhere_leaves_every_property_unknown_with_the_input(self) -> None:
        result = check(proposals.raises_always)
        assert set(verdicts(result).values()) == {"unknown"}
        assert result["complete"].search.first_defect == Problem("raised ValueError: not implemented yet",
                                                                 {"k": 1, "ranking": ["0"], "qrels": []})

    def test_an_exception_is_a_defect_not_undefined(self) -> None:
        result = check(proposals.raises_without_qrels, ["complete", "monotonic"])
        assert result["complete"].verdict == "unknown" and result["complete"].search.first_defect.problem.startswith("raised KeyError")
        assert result["monotonic"].verdict == "no"  # the other properties are still checked
        assert_every_no_rechecks(result, proposals.raises_without_qrels)

    @pytest.mark.parametrize(("function", "problem"), [
        (proposals.returns_nan_without_qrels, "returned nan"),
        (proposals.returns_infinity, "returned inf"),
        (proposals.returns_text, "returned str '0.5', not a number"),
        (proposals.returns_bool, "returned bool"),
    ])
    def test_non_numbers_are_defects_reported_with_the_input(self, function: Callable, problem: str) -> None:
        verdict = check(function, ["complete"])["complete"]
        first = verdict.search.first_defect
        assert (verdict.verdict == "unknown" and first.problem.startswith(problem)
                and first.situation == {"k": 1, "ranking": ["0"], "qrels": []})

    def test_a_proposal_that_hangs_is_stopped_and_reported(self) -> None:
        result = check(proposals.hangs, ["monotonic", "complete"], timeout=0.05)
        for verdict in result.verdicts.values():
            assert verdict.verdict == "unknown" and verdict.method == "search stopped: the proposal hung"
            assert verdict.search.stopped == "hang" and verdict.search.hang.problem == "did not return within 0.05 s"

    def test_a_hang_stops_only_the_property_that_met_it(self) -> None:
        result = check(proposals.hangs_at_depth_3, ["monotonic", "convergent"], timeout=0.05)
        assert result["monotonic"].verdict == "no"  # found at k = 1, before depth 3
        assert result["convergent"].method == "search stopped: the proposal hung" and result["convergent"].search.hang.situation["k"] == 3

    def test_bounded_says_its_scoring_stopped_when_the_proposal_hung(self) -> None:
        # a thirty-eighth hostile review: a hang is a Defect, and bounded's `except Defect` came first, so it scored on
        verdict = check(proposals.hangs_at_depth_3, ["bounded"], timeout=0.05)["bounded"]
        assert verdict.verdict == "unknown" and verdict.search.stopped == "hang"
        assert "the scoring stopped early (the proposal hung)" in verdict.evidence

    def test_a_nondeterministic_proposal_gets_no_witness_and_a_defect(self) -> None:
        result = check(proposals.answers_differently, ["monotonic", "realizable"])
        for verdict in result.verdicts.values():
            assert (verdict.verdict == "unknown"
                    and verdict.search.first_defect.problem.startswith("answered differently when re-run on the same input"))

    def test_a_proposal_that_changes_its_answer_on_the_third_call_gets_no_witness(self) -> None:
        result = check(proposals.changes_on_the_third_call, ["monotonic", "realizable"])
        for verdict in result.verdicts.values():
            assert verdict.verdict == "unknown" and verdict.search.first_defect.problem.startswith("answered differently"), verdict.evidence

    def test_a_sometimes_nondeterministic_proposal_does_not_make_the_hypothesis_phase_flaky(self) -> None:
        result = check(proposals.noisy_count, ["monotonic", "top_weighted", "localized"])
        for verdict in result.verdicts.values():
            assert (verdict.verdict == "unknown"
                    and verdict.search.first_defect.problem.startswith("answered differently when re-run on the same input"))

    def test_a_slow_proposal_stops_at_the_time_budget(self) -> None:
        verdict = check(proposals.slow_precision, ["convergent"], budget=0.3)["convergent"]
        assert verdict.verdict == "unknown" and verdict.method == "search stopped: time budget"
        assert (verdict.search.stopped, verdict.search.budget) == ("budget", 0.3)


class TestWitnessesInAFreshProcess:
    def test_a_witness_of_a_deterministic_proposal_is_reproduced_by_a_fresh_process(self) -> None:
        monotonic = check(f"{PROPOSALS}:precision", ["monotonic"])["monotonic"]
        assert monotonic.verdict == "no" and monotonic.witness is not None and monotonic.witness.fresh_process
        assert "Re-run in a fresh Python process: the same scores." in monotonic.evidence

    def test_a_proposal_whose_scores_depend_on_the_process_gets_no_witness(self) -> None:
        for target in (f"{PROPOSALS}:salted_precision", proposals.salted_precision):  # by file, and by module name
            monotonic = check(target, ["monotonic"])["monotonic"]
            assert (monotonic.verdict, monotonic.method) == ("unknown", "search: the proposal is not reproducible")
            assert monotonic.witness is None and "a fresh Python process scores `10` (k = 1, R = 1)" in monotonic.evidence

    def test_a_proposal_a_fresh_process_cannot_import_keeps_its_witness_and_says_so(self) -> None:
        monotonic = check(lambda ranking, k, qrels: proposals.precision(ranking, k, qrels), ["monotonic"])["monotonic"]
        assert monotonic.verdict == "no" and monotonic.witness is not None and not monotonic.witness.fresh_process
        assert "Not re-run in a fresh Python process: it has no name a fresh process can import" in monotonic.evidence


class TestTheFreshProcessComesAfterTheSearches:
    """The fresh process imports the proposal after the searches (helper-74 found both faults in a process started with
    them): a proposal seeded from the clock is then seen, and what one does at import cannot disturb the searches."""

    def test_a_proposal_seeded_from_the_clock_in_whole_seconds_gets_no_witness(self, tmp_path) -> None:  # type: ignore[no-untyped-def]
        proposal = tmp_path / "clock_seeded.py"
        proposal.write_text(textwrap.dedent("""
            import time
            from fractions import Fraction

            _SEED = int(time.time())  # random.seed(int(time.time())), say


            def clock_seeded_precision(ranking, k, qrels):
                time.sleep(0.0005)  # the searches take over a second: the fresh process imports in another second
                return sum(ranking[:k], Fraction(0)) / k + Fraction(_SEED % 997 + 1, 10**9)
        """))
        monotonic = check(f"{proposal}:clock_seeded_precision", ["monotonic", "convergent"], budget=1.5, prove=False)["monotonic"]
        assert (monotonic.verdict, monotonic.method) == ("unknown", "search: the proposal is not reproducible"), monotonic.evidence
        assert monotonic.witness is None

    def test_what_the_fresh_process_does_at_import_happens_after_the_searches_not_during_them(self, tmp_path) -> None:  # type: ignore[no-untyped-def]
        table = tmp_path / "table.txt"
        proposal = tmp_path / "writes_at_import.py"
        proposal.write_text(textwrap.dedent(f"""
            from fractions import Fraction

            with open({str(table)!r}, "w") as table:  # not atomically: a reader may meet it half written
                for i in range(300_000):
                    table.write(f"{{i:050d}}\\n")
                table.write("weight 1\\n")


            def precision(ranking, k, qrels):
                with open({str(table)!r}, "rb") as table:
                    table.seek(0, 2)
                    if table.tell() < 9:
                        raise RuntimeError("the table is being written")
                    table.seek(-9, 2)
                    if table.read() != b"weight 1\\n":
                        raise RuntimeError("the table is being written")
                return sum(ranking[:k], Fraction(0)) / k
        """))
        result = check(f"{proposal}:precision", ["monotonic", "convergent"], budget=1.5, prove=False)
        assert result["monotonic"].verdict == "no" and result["monotonic"].witness.fresh_process  # type: ignore[union-attr]
        for verdict in result.verdicts.values():
            assert verdict.search is not None and verdict.search.defects == 0, verdict.evidence


class TestLoading:
    @pytest.mark.parametrize(("spec", "message"), [
        (f"{PROPOSALS}:precison", "did you mean precision"),
        (f"{PROPOSALS}:NOT_A_FUNCTION", "not a function"),
        ("missing_file.py:f", "no such file"),
        ("no_such_module:f", "raised ModuleNotFoundError"),
    ])
    def test_a_proposal_that_cannot_be_loaded_is_an_input_error(self, spec: str, message: str) -> None:
        with pytest.raises(InputError, match=message):
            check(spec)

    def test_a_file_with_a_syntax_error_is_reported_on_one_line(self, tmp_path) -> None:  # type: ignore[no-untyped-def]
        broken = tmp_path / "broken.py"
        broken.write_text("def f(ranking, k, qrels):\n    return (\n")
        with pytest.raises(InputError, match="loading it raised SyntaxError"):
            check(f"{broken}:f")

    def test_every_property_is_reported_in_column_order(self) -> None:
        assert list(check(proposals.precision).verdicts) == list(COLUMNS)
