"""A "yes" is a proof of exactly the metric declared: proposals built to fool the prover are not proved.

Each proposal of tests/adversarial_proposals.py has its truth worked out by hand and an
independent Fraction oracle; every "no" is re-checked on the oracle (never on irprops' forms),
and every cell known false must not come back "yes" (nor a proof withdrawn: the prover must
refuse, not be caught). Branching on a symbolic value is refused with a one-line error.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import json
import operator
import os
import re
import runpy
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import sympy
from click.testing import CliRunner

from irprops import InputError, Measure, check, weighted_precision
from irprops.cli import main
from irprops.metrics import Situation, domains
from irprops.metrics import language as formula_language
from irprops.metrics.tracing import BranchOnSymbol
from tests import adversarial_proposals as adv
from tests import builtins_proposals
from tests import hiding_proposals as hiding
from tests import language_proposals as language
from tests import spoofed_proposals as spoofed
from tests.helpers import SELF_CHECKED, covers, settled, witness_depth

from .conftest import ROOT


class TestTheOraclesAgreeWithTheDeclarations:
    """The oracles are independent code: on many situations they score what the declarations score."""

    @pytest.mark.parametrize(("measure", "oracle"), [
        (adv.negative_normaliser, adv.negative_normaliser_truth),
        (adv.sign_change_at_150, adv.sign_change_at_150_truth),
        (adv.k_dependent_weights, adv.k_dependent_weights_truth),
        (adv.reads_below_from_11, adv.reads_below_from_11_truth),
        (adv.reads_below_from_9, adv.reads_below_from_9_truth),
        (adv.bottom_weighted, adv.bottom_weighted_truth),
        (adv.nested_reads_outer_rank, adv.nested_reads_outer_rank_truth),
        (adv.half, adv.half_truth),
        (adv.srbp, adv.srbp_truth),
        (adv.karr_reversed, adv.karr_reversed_truth),
        (adv.karr_at_7, adv.karr_at_7_truth),
        (adv.cancels_at_7, adv.cancels_at_7_truth),
        (adv.grade_over_r, adv.grade_over_r_truth),
        (adv.guarded_precision, adv.guarded_precision_truth),
        (adv.late_penalty, adv.late_penalty_truth),
        (adv.best_gain_minus_r, adv.best_gain_minus_r_truth),
        (adv.remaining_weighted, adv.remaining_weighted_truth),
        (adv.hit_shown_empty, adv.hit_shown_empty_truth),
        (adv.zero_at_250, adv.zero_at_250_truth),
        (adv.rr_leak_300, adv.rr_leak_300_truth),
    ])
    def test_on_every_binary_ranking_of_length_12_at_depths_1_to_11_and_at_99_and_150(self, measure: Measure, oracle: adv.Oracle) -> None:
        rankings = [tuple(adv.Fraction((n >> b) & 1) for b in range(12)) for n in range(0, 4096, 37)]
        for ranking in rankings:
            own = tuple(g for g in ranking if g)
            for k in (*range(1, 12), 99, 150):
                padded = ranking + (adv.Fraction(0),) * max(0, k + 1 - len(ranking))
                value, truth = measure.exact(Situation(padded, k, own)), oracle(padded, k, own)
                assert (truth is None) == (type(value).__name__ == "Undefined"), (k, ranking)
                if truth is not None:
                    assert value == truth, (k, ranking)


class TestNoFalseYes:
    def test_a_normaliser_that_turns_negative_at_k_100_is_refuted_there(self) -> None:
        result = settled(adv.negative_normaliser, adv.negative_normaliser_truth)
        assert witness_depth(result, "convergent") >= 100 and witness_depth(result, "top_weighted") >= 100
        assert witness_depth(result, "complete") == 99  # undefined at k = 99 whatever R
        assert result["monotonic"].verdict == "no" and result["localized"].verdict == "yes"

    def test_a_sign_change_at_k_150_is_refuted_there(self) -> None:
        result = settled(adv.sign_change_at_150, adv.sign_change_at_150_truth, ["convergent", "top_weighted", "complete"])
        assert witness_depth(result, "convergent") >= 150 and witness_depth(result, "top_weighted") >= 150
        assert witness_depth(result, "complete") == 149

    def test_weights_that_change_with_k_are_not_proved_monotonic(self) -> None:
        result = settled(adv.k_dependent_weights, adv.k_dependent_weights_truth)
        assert witness_depth(result, "monotonic") == 30
        for prop in ("convergent", "top_weighted", "localized", "complete"):  # true: never refuted
            assert result[prop].verdict in ("yes", "unknown"), prop

    def test_a_read_below_k_from_depth_11_on_is_never_proved_away(self) -> None:
        result = settled(adv.reads_below_from_11, adv.reads_below_from_11_truth)
        assert witness_depth(result, "convergent") == 11 and witness_depth(result, "localized") == 11
        assert witness_depth(result, "monotonic") == 11
        assert result["complete"].verdict == "yes"

    def test_a_read_below_k_from_depth_9_on_is_not_localized(self) -> None:
        result = settled(adv.reads_below_from_9, adv.reads_below_from_9_truth, ["localized", "convergent"])
        assert witness_depth(result, "localized") == 9 and witness_depth(result, "convergent") >= 9

    def test_a_weight_bump_at_rank_40_written_in_sympy_is_not_top_weighted(self) -> None:
        bump = weighted_precision("bump-at-40", adv.bump_at_40_weight, relevance="binary")
        result = settled(bump, adv.bump_at_40_truth, ["top_weighted", "convergent", "monotonic"])
        assert witness_depth(result, "top_weighted") == 40
        assert result["convergent"].verdict != "no" and result["monotonic"].verdict != "no"

    @pytest.mark.parametrize("weight", [adv.bump_at_250_weight, adv.step_at_250_weight], ids=["bump", "step"])
    def test_a_jump_in_the_weights_past_the_deep_search_is_not_proved_away(self, weight: Any) -> None:
        from irprops.proofs import prove

        found = prove(weighted_precision("jump-at-250", weight, relevance="binary"), "top_weighted")
        assert not covers(found, 250)

    @pytest.mark.parametrize("weight", [adv.bump_at_250_weight, adv.step_at_250_weight], ids=["bump", "step"])
    def test_a_negative_derivative_away_from_a_jump_is_not_called_decreasing(self, weight: Any) -> None:
        from irprops.proofs.signs import Weight, decreasing

        i = sympy.Symbol("i", integer=True, positive=True)
        assert decreasing(Weight(weight(i), i)) is None

    def test_a_bounded_proof_covers_reads_below_k_at_each_depth(self) -> None:
        from irprops.proofs import Proof
        from irprops.proofs.bounded import bounded_proof

        found = bounded_proof(adv.reads_below_from_11, "convergent")  # type: ignore[arg-type]
        assert not (isinstance(found, Proof) and found.reach.max_k is not None and found.reach.max_k >= 11)


class TestWhereTheMetricIsUndefined:
    """Found by an eighth hostile review: proofs that read definedness off the closed form alone."""

    def test_an_arrangement_left_undefined_does_not_realize_the_supremum(self) -> None:
        from irprops.proofs import Proof, prove

        at_one = (adv.Fraction(1), adv.Fraction(0))
        assert adv.guarded_precision_truth(at_one, 1, (adv.Fraction(1),)) == 1  # the supremum
        collection = (adv.Fraction(1),) * 4  # R = 4 at k = 1: relevant first is undefined, anything else scores 0
        assert adv.guarded_precision_truth((adv.Fraction(1), adv.Fraction(0)), 1, collection) is None
        assert adv.guarded_precision_truth((adv.Fraction(0), adv.Fraction(1)), 1, collection) == 0
        found = prove(adv.guarded_precision, "realizable")
        assert not isinstance(found, Proof) and "does not divide by" in found.reason

    def test_a_denominator_inside_an_empty_sum_does_not_count_as_divided_by(self) -> None:
        from irprops.proofs import Proof, prove

        one = (adv.Fraction(1),)
        assert adv.hit_shown_empty_truth(one + (adv.Fraction(0),), 1, one) is None  # R = 1: every arrangement undefined
        assert adv.hit_shown_empty.exact(Situation(one + (adv.Fraction(0),), 1, one)).__class__.__name__ == "Undefined"
        found = prove(adv.hit_shown_empty, "realizable")
        assert not isinstance(found, Proof) and "does not divide by" in found.reason

    def test_a_number_sympy_calls_nonzero_is_a_denominator_when_it_is_zero(self) -> None:
        from irprops.metrics.exact import certainly, log2
        from irprops.proofs import prove

        assert (log2(9) - 2 * log2(3)).is_nonzero is not True  # SymPy called it nonzero before log2 had a tracked evalf
        assert not certainly(log2(9) - 2 * log2(3), "nonzero")
        zeros = (adv.Fraction(0),) * 251
        assert adv.zero_at_250_truth(zeros, 250, ()) is None and adv.zero_at_250_truth(zeros, 249, ()) == 0
        assert adv.zero_at_250.exact(Situation(zeros, 250, ())).__class__.__name__ == "Undefined"
        assert not covers(prove(adv.zero_at_250, "complete"), 250)

    def test_a_cascade_that_leaks_at_rank_300_is_not_proved_top_weighted_nor_refuted_bounded(self) -> None:
        one, zero = adv.Fraction(1), adv.Fraction(0)
        leak = (zero,) * 299 + (one, one)
        assert adv.rr_leak_300_truth((zero,) * 298 + (one, one, zero), 301, (one, one)) < adv.rr_leak_300_truth(leak, 301, (one, one))
        assert adv.rr_leak_300.exact(Situation(leak, 301, (one, one))) == adv.Fraction(1, 300) + adv.Fraction(1, 301)
        result = settled(adv.rr_leak_300, adv.rr_leak_300_truth, ["bounded", "top_weighted"])
        assert result["bounded"].verdict != "no" and result["top_weighted"].verdict != "yes"

    def test_a_term_the_metric_never_computes_does_not_make_a_depth_undefined(self) -> None:
        ranking = tuple(adv.Fraction(int(i in (9, 13))) for i in range(1, 17))
        qrels = (adv.Fraction(1),) * 2
        assert adv.late_penalty_truth(ranking, 14, qrels) == 2 and adv.late_penalty_truth(ranking, 15, qrels) == -8
        assert adv.late_penalty.symbolic(15).at(Situation(ranking, 15, qrels)) == -8
        assert adv.late_penalty.exact(Situation(ranking, 15, qrels)) == -8

    def test_a_bounded_proof_does_not_reach_past_the_fall_at_k_15(self) -> None:
        from irprops.proofs import prove

        found = prove(adv.late_penalty, "monotonic")
        assert not covers(found, 14), found


class TestAMaximum:
    def test_whose_terms_can_be_negative_is_not_proved_bounded(self) -> None:
        from irprops.proofs import prove

        zero = (adv.Fraction(0),)
        assert adv.best_gain_minus_r_truth(zero, 1, (adv.Fraction(1),) * 1000) == -1000
        assert adv.best_gain_minus_r.exact(Situation(zero + zero, 1, (adv.Fraction(1),) * 1000)) == -1000
        assert not covers(prove(adv.best_gain_minus_r, "bounded"), 1)

    def test_whose_terms_can_be_negative_is_no_fold_starting_at_0(self) -> None:
        from irprops.proofs.folds import extract
        from irprops.proofs.structure import prepare

        p = prepare(adv.best_gain_minus_r)
        assert p is not None and extract(p) is None

    def test_of_nonnegative_grades_is_still_a_fold(self) -> None:
        from irprops.metrics import parse
        from irprops.proofs.folds import extract
        from irprops.proofs.structure import prepare

        p = prepare(parse("HIT"))
        assert p is not None and extract(p) is not None

    def test_over_a_thousand_ranks_is_checked_against_the_exact_form_in_seconds_not_hours(self) -> None:
        adv.best_gain_minus_r.validate_forms()  # the agreement check reaches k = 1000: grades go in before SymPy compares


class TestASumUpToMinKR:
    def test_dividing_by_what_its_reached_terms_keep_positive_is_accepted(self) -> None:
        adv.remaining_weighted.validate_forms()  # once refused: the form at k = 1 recorded the divisor R of an unreached term
        empty = Situation((adv.Fraction(0),) * 2, 1, ())
        assert adv.remaining_weighted.symbolic(1).at(empty) == 0 == adv.remaining_weighted_truth(empty.ranking, 1, ())


class TestFolds:
    def test_an_inner_sum_that_reads_the_outer_rank_is_not_a_running_state(self) -> None:
        result = settled(adv.nested_reads_outer_rank, adv.nested_reads_outer_rank_truth, ["bounded", "monotonic"])
        assert result["bounded"].verdict != "yes"

    def test_a_bonus_past_rank_250_is_not_proved_away(self) -> None:
        result = settled(adv.spread_past_250, adv.spread_past_250_truth, ["top_weighted"])
        proof = result["top_weighted"].proof
        assert result["top_weighted"].verdict != "yes" or (proof is not None and not proof.covers(252))


class TestClosedFormsAreTheMetric:
    """Found by a hostile review: SymPy's readings that differ from the exact form at some depth."""

    @pytest.mark.parametrize(("measure", "false_cells"), [
        (adv.karr_reversed, ["bounded", "realizable"]),  # unbounded (k from k = 8), k = 1 scores 8
        (adv.karr_at_7, ["monotonic", "realizable"]),  # 720 at k = 7, 0 at k = 8
        (adv.cancels_at_7, ["complete"]),  # undefined at k = 7
        (adv.grade_over_r, ["complete"]),  # 0 / 0 at R = 0
    ], ids=["reversed-limits", "reversed-limits-at-7", "cancelled-divisor", "grade-over-R"])
    def test_no_proof_of_a_false_cell(self, measure: Measure, false_cells: list[str]) -> None:
        from irprops.proofs import Proof, prove

        for prop in false_cells:
            found = prove(measure, prop)
            assert not (isinstance(found, Proof) and found.conclusion == "yes" and found.record().covers(8)), (prop, found)

    def test_a_sum_over_reversed_limits_is_empty_in_the_closed_form_too(self) -> None:
        assert adv.karr_reversed.closed_form().expr.subs(adv.karr_reversed.closed_form().k, 10).doit() == 10  # type: ignore[union-attr]

    def test_a_divisor_written_with_python_division_is_a_recorded_denominator(self) -> None:
        form = adv.cancels_at_7.closed_form()
        assert form is not None and [str(d) for d, _ in form.denominators] == ["k - 7"]


class TestExactArithmeticAsWritten:
    def test_python_division_of_depths_is_exact(self) -> None:
        value = adv.bottom_weighted.exact(Situation.of("01"))
        assert value == adv.Fraction(2, 3)

    def test_the_bottom_weighted_proposal_gets_its_verdicts(self) -> None:
        result = settled(adv.bottom_weighted, adv.bottom_weighted_truth)
        assert witness_depth(result, "monotonic") == 1 and witness_depth(result, "top_weighted") == 2
        assert [result[p].verdict for p in ("convergent", "localized", "complete")] == ["yes", "yes", "yes"]


class TestBranchesAreRefused:
    @pytest.mark.parametrize("name", list(adv.BRANCHING_WEIGHTS))
    def test_a_weight_function_that_branches_on_the_rank(self, name: str) -> None:
        # a branch the symbolic values refuse names the value; a construct outside the formula language (a builtin
        # that would branch, a table) is refused before it runs, and names the construct
        named = {"int": "`int` (the builtin", "min-builtin": "`min` (the builtin", "in-list": "`in` (a membership test)",
                 "dict-lookup": "a dict or set", "set-lookup": "`in` (a membership test)"}
        with pytest.raises(BranchOnSymbol, match=re.escape(named[name]) if name in named else "on the (rank i|symbolic expression)"):
            weighted_precision(name, adv.BRANCHING_WEIGHTS[name])

    def test_a_sympy_float_is_refused_as_inexact(self) -> None:
        with pytest.raises(InputError, match="float"):
            check(weighted_precision("float-weights", lambda i: sympy.Float("0.5") ** i), ["top_weighted"])

    @pytest.mark.parametrize(("measure", "what"), [
        (adv.branch_on_depth, "the depth k"), (adv.range_over_depth, "the depth k"), (adv.branch_on_grade, "grade"),
        (adv.lookup_on_depth, "a dict or set"),
    ])
    def test_a_formula_that_branches_on_the_depth_or_a_grade(self, measure: Measure, what: str) -> None:
        with pytest.raises(BranchOnSymbol, match=what):
            check(measure, ["complete"])

    def test_the_command_line_says_what_to_write_instead_and_exits_2(self, tmp_path: Any) -> None:
        source = tmp_path / "bump.py"
        source.write_text("from irprops import weighted_precision\n"
                          "bump = weighted_precision('bump', lambda i: 1 / i if i != 37 else 5 / i, 'ideal')\n")
        result = CliRunner().invoke(main, ["check", f"{source}:bump", "top_weighted"])
        assert result.exit_code == 2 and "Traceback" not in result.output
        (line,) = result.output.strip().splitlines()
        assert "`!=` on the rank i" in line and "sympy.Piecewise" in line

    def test_sympy_case_splits_are_the_way_to_write_a_feature(self) -> None:
        bump = weighted_precision("bump", adv.bump_at_40_weight)
        assert bump.closed_form() is not None and sympy.Piecewise in {type(a) for a in sympy.preorder_traversal(bump.closed_form().expr)}


class TestNeverACrash:
    def test_slowly_divergent_weights_are_proved_unbounded_with_a_small_witness(self) -> None:
        harmonic = weighted_precision("harmonic", lambda i: 1 / i)
        verdict = check(harmonic, ["bounded"])["bounded"]
        assert verdict.verdict == "no" and verdict.settled_by_proof and verdict.witness is not None
        data = verdict.witness.data
        assert data["k"] <= 2048 and adv.Fraction(data["value"]) > adv.Fraction(data["bound"])

    def test_a_score_with_thousands_of_digits_prints_in_brief_and_in_full_in_json(self) -> None:
        runner = CliRunner()
        text = runner.invoke(main, ["score", "RBP(p=0.99)@2200", "1" * 2200])  # a full run: residual p^2200, not p^4
        assert text.exit_code == 0 and "digits" in text.output
        data = runner.invoke(main, ["score", "--json", "RBP(p=0.99)@2200", "1" * 2200])
        assert data.exit_code == 0 and len(data.output) > 8000

    def test_a_withdrawn_proof_is_a_reported_no_not_an_exception(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """A prover bug simulated: the proof layer claims top-weightedness of a weight with a bump at rank 40, which the
        exhaustive search cannot see (k <= 6) and the structured deep search refutes at k = 40, after the proof shortened
        the search."""
        from irprops import checking
        from irprops.metrics import parse
        from irprops.proofs import prove as real_prove

        claimed = real_prove(parse("P"), "convergent")  # a proof for all k, claimed for the wrong metric and property
        monkeypatch.setattr(checking, "prove", lambda measure, prop: claimed)
        bump = weighted_precision("bump-at-40", adv.bump_at_40_weight, relevance="binary")
        verdict = check(bump, ["top_weighted"])["top_weighted"]
        assert verdict.verdict == "no" and verdict.witness is not None and verdict.witness.data["k"] == 40
        assert verdict.proof is not None and verdict.proof.withdrawn
        assert "was withdrawn" in verdict.evidence and not verdict.settled_by_proof


class TestAStatedIntervalIsHeldAgainstTheScoresTheSearchComputed:
    """A proof that states where every score lies (0 <= score <= c, or the constant c) is withdrawn when a score the
    search computed lies outside; a prover bug is simulated by a proof of P stating a bound it does not have."""

    def proved(self, monkeypatch: pytest.MonkeyPatch, low: Any, high: Any, prop: str = "bounded") -> Any:
        from irprops import checking
        from irprops.proofs import prove as real_prove

        def stating(measure: Measure, p: str) -> Any:
            found = real_prove(measure, p)
            return found.stating(low, high) if p == prop else found

        monkeypatch.setattr(checking, "prove", stating)
        return check("P", [prop, "monotonic"])[prop]  # monotonic's search scores rankings of every grade

    def test_a_bound_below_the_largest_score_withdraws_the_proof(self, monkeypatch: pytest.MonkeyPatch) -> None:
        verdict = self.proved(monkeypatch, sympy.Integer(0), sympy.Rational(99, 100))
        assert verdict.verdict == "unknown" and verdict.proof is not None and verdict.proof.withdrawn
        assert "scores 1, above the upper end of the interval it states (99/100)" in verdict.evidence

    def test_a_bound_a_hair_below_the_largest_score_withdraws_the_proof(self, monkeypatch: pytest.MonkeyPatch) -> None:
        verdict = self.proved(monkeypatch, sympy.Integer(0), 1 - sympy.Rational(1, 10**30))  # the same float as 1
        assert verdict.proof is not None and verdict.proof.withdrawn

    def test_a_lower_end_above_the_smallest_score_withdraws_the_proof(self, monkeypatch: pytest.MonkeyPatch) -> None:
        verdict = self.proved(monkeypatch, sympy.Rational(1, 10**30), sympy.Integer(1))
        assert verdict.proof is not None and verdict.proof.withdrawn and "below the lower end" in verdict.evidence

    def test_a_constant_claimed_of_a_metric_that_varies_withdraws_the_proof(self, monkeypatch: pytest.MonkeyPatch) -> None:
        verdict = self.proved(monkeypatch, sympy.Rational(1, 2), sympy.Rational(1, 2))
        assert verdict.proof is not None and verdict.proof.withdrawn

    def test_the_true_bound_stands(self) -> None:
        verdict = check("P", ["bounded"])["bounded"]
        assert verdict.verdict == "yes" and verdict.proof is not None and not verdict.proof.withdrawn

    @pytest.mark.parametrize(("measure", "stated"), [
        ("P", (0, 1)), ("RBP(p=0.5)", (0, 1)), ("nDCG", (0, 1)), ("AP", (0, 1)), ("RR", (0, 1)),
    ])
    def test_the_provers_state_the_interval_their_bound_proves(self, measure: str, stated: tuple[Any, Any]) -> None:
        from irprops.metrics import parse
        from irprops.proofs import Proof, prove

        found = prove(parse(measure), "bounded")
        assert isinstance(found, Proof) and found.scores == stated

    def test_a_constant_metric_states_its_constant(self) -> None:
        from irprops.proofs import prove

        half = adv.proposal("half")(lambda m: m.num(1) / 2)
        assert prove(half, "monotonic").scores == (sympy.Rational(1, 2), sympy.Rational(1, 2))


class TestAProofIsSelfCheckedBeforeItIsAYes:
    """Issue 10, item 4: a "yes" is printed only after the search has spot-checked the claim on the exact metric, its
    structured cases at depths up to 200 included; a search cut short by its time budget gave a "yes" all the same."""

    @staticmethod
    def cut_after(monkeypatch: pytest.MonkeyPatch, attempts: int) -> None:
        from irprops.properties.base import SearchLog

        attempt = SearchLog.attempt

        def out_of_time_after(self: SearchLog, property_: object, candidate: object, target: object) -> object:
            found = attempt(self, property_, candidate, target)  # type: ignore[arg-type]
            self.out_of_time = self.out_of_time or self.tried >= attempts  # as a slow exact form would run the budget out
            return found

        monkeypatch.setattr(SearchLog, "attempt", out_of_time_after)

    def test_a_proof_whose_search_ran_out_of_time_leaves_the_cell_unknown_with_the_proof_and_why(
            self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.cut_after(monkeypatch, 3)
        verdict = check("P", ["convergent"])["convergent"]
        assert verdict.verdict == "unknown" and verdict.search.stopped == "budget" and not verdict.settled_by_proof
        assert verdict.proof is not None and verdict.proof.conclusion == "yes" and "--budget" in verdict.proof.unchecked
        assert "was found but not self-checked" in verdict.evidence
        assert verdict.to_json()["proof"]["unchecked"] == verdict.proof.unchecked

    def test_the_same_proof_after_a_search_that_finished_is_a_yes(self) -> None:
        verdict = check("P", ["convergent"])["convergent"]
        assert verdict.verdict == "yes" and verdict.search.stopped is None and verdict.proof.unchecked is None

    def test_a_yes_cannot_be_built_from_an_unchecked_proof(self) -> None:
        verdict = check("P", ["convergent"])["convergent"]
        with pytest.raises(ValueError, match="self-checked"):
            dataclasses.replace(verdict, proof=dataclasses.replace(verdict.proof, unchecked="cut"))

    def test_a_bound_proved_under_a_budget_too_small_to_score_its_checks_is_not_a_yes(self) -> None:
        # a thirty-seventh hostile review: bounded's scoring never looked at the budget, so its proof was never "unchecked"
        verdict = check("P", ["bounded"], budget=0.001)["bounded"]
        assert verdict.verdict == "unknown" and verdict.search.stopped == "budget" and verdict.proof.unchecked
        assert "the scoring stopped early" in verdict.evidence

    def test_a_bound_checked_alone_is_held_against_structured_scores_at_every_depth_to_200(
            self, monkeypatch: pytest.MonkeyPatch) -> None:
        # RBP(p=1/2) scores the all-relevant ranking 1 - 2^-k: a (simulated) proof stating the bound 1 - 2^-50 is false
        # from k = 51 on, and bounded's own scoring (depths 1 to 10 only, before) did not reach it
        from irprops import checking
        from irprops.proofs import prove as real_prove

        bound = 1 - sympy.Rational(1, 2**50)
        monkeypatch.setattr(checking, "prove", lambda measure, p: real_prove(measure, p).stating(sympy.Integer(0), bound))
        verdict = check("RBP(p=0.5)", ["bounded"])["bounded"]
        assert verdict.verdict == "unknown" and verdict.proof.withdrawn and "above the upper end" in verdict.evidence

    def test_the_command_line_shows_it_as_unknown(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.cut_after(monkeypatch, 3)
        out = CliRunner().invoke(main, ["check", "P", "convergent", "--json"])
        assert out.exit_code == 0, out.output
        cell = json.loads(out.output)["properties"]["convergent"]
        assert cell["verdict"] == "unknown" and "not self-checked" in cell["evidence"] and cell["proof"]["unchecked"]


def test_the_readme_documents_what_a_declared_formula_may_contain() -> None:
    readme = (ROOT / "README.md").read_text()
    assert "BranchOnSymbol" in readme and "sympy.Piecewise" in readme
    rows = {line.split("|")[1].strip(): line.split("|")[2] for line in readme.splitlines() if line.startswith("| ")}
    listed = {row: set(re.findall(r"`([^`]+)`", rows[row])) for row in ("attributes", "SymPy", "builtins")}
    assert {name.removeprefix("m.") for name in listed["attributes"]} == set(formula_language.ALGEBRA)
    assert listed["SymPy"] - {"sympy.log"} == set(formula_language.SYMPY)
    assert listed["builtins"] == set(formula_language.BUILTINS)


class TestEachSideConditionIsNeeded:
    """Mutation tests: with one side-condition check of the prover disabled, the prover claims a false proof,
    and the check still answers "no": by a witness the exhaustive search finds before the prover is asked, or by one
    the structured deep search finds after it, which withdraws the proof — so each check is load-bearing, and
    the defence in depth works. Without the mutation, the same cells get no withdrawn proof (tests above)."""

    def withdrawn(self, measure: Measure, prop: str) -> bool:
        from irprops.proofs import Proof, clear_cache, prove
        from irprops.verdicts import Prop

        clear_cache()  # the mutation must reach the prover, not a cached proof
        try:
            claimed = prove(measure, Prop(prop))
            verdict = check(measure, [prop], budget=60)[prop]
        finally:
            clear_cache()
        false_proof = isinstance(claimed, Proof) and claimed.conclusion == "yes"
        return false_proof and verdict.verdict == "no" and (verdict.proof is None or bool(verdict.proof.withdrawn))

    def test_without_the_normaliser_sign_a_negative_normaliser_is_proved_convergent(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from irprops.proofs import weighted
        from irprops.verdicts import Lemma

        monkeypatch.setattr(weighted.WeightedProver, "_normaliser_positive", lambda self, prop: Lemma("assumed", "N > 0", "structure"))
        assert self.withdrawn(adv.negative_normaliser, "convergent")

    def test_without_fixed_weights_k_dependent_weights_are_proved_monotonic(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from irprops.proofs import structure

        monkeypatch.setattr(structure, "fixed", lambda weight, p: True)
        assert self.withdrawn(adv.k_dependent_weights, "monotonic")

    def test_without_reads_below_k_a_bounded_proof_misses_them(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from irprops.proofs import bounded

        monkeypatch.setattr(bounded._Depth, "read_below", lambda self, form, k: [])
        assert self.withdrawn(adv.reads_below_from_11, "convergent")

    def test_without_the_branch_guard_a_python_branch_on_the_rank_is_proved_top_weighted(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from irprops.metrics import agreement, tracing

        monkeypatch.setattr(tracing.Traced, "__ne__", lambda self, other: True)  # structural, as a bare SymPy symbol answers
        bump = weighted_precision("bump", adv.BRANCHING_WEIGHTS["not-equal"], relevance="binary")
        with pytest.raises(InputError, match="disagree at k = 100"):  # the agreement check catches it first
            check(bump, ["top_weighted"])
        monkeypatch.setattr(agreement, "AGREEMENT_DEPTHS", ())  # without it, the deep search does
        assert self.withdrawn(bump, "top_weighted")


    def test_without_the_smoothness_check_a_jump_at_rank_250_is_proved_decreasing(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from irprops.proofs import signs

        monkeypatch.setattr(signs, "smooth", lambda expr: True)
        i = sympy.Symbol("i", integer=True, positive=True)
        assert signs.decreasing(signs.Weight(adv.bump_at_250_weight(i), i)) is not None


class TestShapesTheProverSettles:
    def test_a_constant_is_bounded_monotonic_localized_complete_and_realizable_for_every_k(self) -> None:
        result = settled(adv.half, adv.half_truth)
        assert {p: v.verdict for p, v in result.verdicts.items()} == {
            "bounded": "yes", "monotonic": "yes", "convergent": "no", "top_weighted": "no",
            "localized": "yes", "complete": "yes", "realizable": "yes",
        }
        assert all(v.method == "proof (all k)" for v in result.verdicts.values() if v.verdict == "yes")

    def test_a_normaliser_written_in_k_is_telescoped_into_its_weights(self) -> None:
        result = settled(adv.srbp, adv.srbp_truth)
        for prop in ("bounded", "convergent", "top_weighted", "localized"):
            assert (result[prop].verdict, result[prop].method) == ("yes", "proof (all k)"), prop
        assert witness_depth(result, "monotonic") == 1 and result["realizable"].verdict == "no"
        assert "telescoped" in result["bounded"].proof.lemmas[0].statement  # type: ignore[union-attr]

    def test_a_normaliser_k_k_plus_1_over_2_makes_the_bottom_weighted_proposal_bounded_by_1(self) -> None:
        result = settled(adv.bottom_weighted, adv.bottom_weighted_truth, ["bounded"])
        assert (result["bounded"].verdict, result["bounded"].method) == ("yes", "proof (all k)")


class TestFormulasThatTellTheBackendsApart:
    @pytest.mark.parametrize("name", list(adv.OBSERVING_WEIGHTS))
    def test_a_weight_that_reads_the_rank_as_text_or_swallows_a_refusal_is_refused(self, name: str) -> None:
        with pytest.raises(BranchOnSymbol):
            weighted_precision(name, adv.OBSERVING_WEIGHTS[name])

    @pytest.mark.parametrize("measure", [adv.depth_by_type, adv.rank_by_type])
    def test_a_formula_that_tests_types_is_refused_before_its_forms_are_compared(self, measure: Measure) -> None:
        with pytest.raises(BranchOnSymbol, match="`isinstance`"):
            check(measure, ["monotonic"])

    @pytest.mark.parametrize("name", list(hiding.CONSTRUCTS))
    def test_a_formula_that_tells_the_runs_apart_to_hide_a_feature_at_depth_1501_is_refused_naming_how(self, name: str) -> None:
        measure, named = hiding.CONSTRUCTS[name]
        with pytest.raises(InputError) as refused:
            check(measure, ["monotonic", "top_weighted"], budget=5)
        assert any(text in str(refused.value) for text in named.split("|")), str(refused.value)

    def test_a_module_that_names_itself_part_of_the_catalog_is_watched_and_agreement_checked_all_the_same(
            self, monkeypatch: pytest.MonkeyPatch) -> None:
        with pytest.raises(BranchOnSymbol, match="`isinstance`"):
            check(spoofed.spoofed_isinstance, ["monotonic"])
        with pytest.raises(BranchOnSymbol, match=r"a write into an object|an in-place `\+=`"):
            check(spoofed.spoofed_catalog, ["monotonic"])
        changed_before_the_exact_runs(monkeypatch, spoofed)
        with pytest.raises(InputError, match="disagree at k = 6"):
            check(spoofed.spoofed_changed, ["monotonic"])

    def test_a_helper_of_the_users_whose_name_starts_with_is_is_not_mistaken_for_an_attribute_probe(self) -> None:
        hiding.helper_named_is.validate_forms()

    def test_a_formula_whose_global_changes_before_the_exact_runs_is_refused_where_its_forms_and_exact_form_disagree(
            self, monkeypatch: pytest.MonkeyPatch) -> None:
        changed_before_the_exact_runs(monkeypatch, hiding)
        with pytest.raises(InputError, match="disagree at k = 300"):
            check(hiding.changed_from_outside, ["monotonic"])

    @pytest.mark.parametrize("keeps", [
        "counter = [0]\ndef f(m):\n    counter[0] += 1\n    return m.num(counter[0])",
        "counter = [0]\ndef f(m):\n    counter.append(1)\n    return m.num(len(counter))",
        "import itertools\ncounter = itertools.count()\ndef f(m):\n    return m.num(next(counter))",
        "def make():\n    n = 0\n    def f(m):\n        nonlocal n\n        n += 1\n        return m.num(n)\n    return f\nf = make()",
        "import random\ndef f(m):\n    return m.num(random.randint(0, 1))",
    ])
    def test_a_formula_that_could_keep_state_between_calls_is_refused_by_the_language(self, keeps: str, tmp_path: Path) -> None:
        (tmp_path / "keeps.py").write_text(keeps)
        namespace = runpy.run_path(str(tmp_path / "keeps.py"))
        with pytest.raises(BranchOnSymbol):
            adv.proposal("keeps-state")(namespace["f"]).validate_forms()


class TestEqualNumbersSymPyCannotOrder:
    """Found by a tenth hostile review: SymPy decided Eq(log2(9), 2 log2(3)) false, in every backend alike. Such comparisons
    were then left open and the formulas refused; since the twenty-third review SymPy decides them by certified signs
    (:mod:`irprops.metrics.numberfacts`): log2(9) - 2 log2(3) is formally zero, so the comparisons are decided right."""

    def test_sympy_decides_the_comparison_of_log2_9_with_2_log2_3_right(self) -> None:
        from irprops.metrics.exact import log2

        zero = log2(9) - 2 * log2(3)
        assert (zero.is_negative, zero.is_positive) == (False, False)
        assert sympy.Eq(log2(9), 2 * log2(3)) is sympy.true and sympy.Gt(log2(9), 2 * log2(3)) is sympy.false
        assert sympy.sign(zero) == 0 and sympy.floor(zero) == 0

    def test_sympy_still_orders_numbers_that_differ(self) -> None:
        from irprops.metrics.exact import log2

        assert sympy.Gt(log2(5), log2(3)) is sympy.true and sympy.floor(7 / log2(3)) == 4

    def test_the_metrics_as_written_have_the_properties_the_forms_claimed_false(self) -> None:
        one_at_2, one_at_1 = (adv.Fraction(0), adv.Fraction(1)), (adv.Fraction(1), adv.Fraction(0))
        truth = adv.equal_logs_negated_truth
        assert truth(one_at_2, 1, (adv.Fraction(1),)) == 0 and truth(one_at_2, 2, (adv.Fraction(1),)) == adv.Fraction(-1, 4)
        assert truth(one_at_1, 1, (adv.Fraction(1),)) == adv.Fraction(-1, 2)  # convergent and top-weighted fail at k = 1, 2
        assert adv.equal_logs_incomplete_truth((adv.Fraction(0),), 1, ()) is None

    @pytest.mark.parametrize("name", ["equal", "unequal"])
    def test_the_exact_run_is_the_metric_as_written(self, name: str) -> None:
        for ranking, k in [((adv.Fraction(0), adv.Fraction(1)), 1), ((adv.Fraction(0), adv.Fraction(1)), 2), ((adv.Fraction(1),), 1)]:
            qrels = (adv.Fraction(1),)
            assert adv.EQUAL_LOGS[name].exact(Situation(ranking, k, qrels)) == adv.equal_logs_negated_truth(ranking, k, qrels)

    @pytest.mark.parametrize(("name", "prop"), [("equal", "monotonic"), ("unequal", "monotonic"), ("incomplete", "complete"),
                                                ("halved-from-4", "realizable"), ("greater", "monotonic")])
    def test_no_false_property_is_proved(self, name: str, prop: str) -> None:
        from irprops.proofs import Proof, prove

        found = prove(adv.EQUAL_LOGS[name], prop)  # type: ignore[arg-type]
        assert not (isinstance(found, Proof) and found.conclusion == "yes"), found

    def test_the_command_line_refutes_what_is_false(self) -> None:
        where = Path(adv.__file__)
        result = CliRunner().invoke(main, ["check", f"{where}:greater_log_precision", "monotonic", "--json"])
        assert result.exit_code == 0 and json.loads(result.stdout)["properties"]["monotonic"]["verdict"] == "no", result.output


class TestAGuardFromABranchNeverTaken:
    """Found by an eleventh hostile review: the encoder assumed the divisors of Piecewise branches never taken nonzero."""

    def test_a_division_in_a_branch_is_guarded_only_where_the_branch_is_taken(self) -> None:
        import z3

        from irprops.proofs.encode import Encoder

        R = sympy.Symbol("R", integer=True, nonnegative=True)
        z3_R = z3.Int("R")
        encoder = Encoder({R: z3_R})
        encoder.term(sympy.Piecewise((1 / (R - 1), R >= 2), (0, True)))
        solver = z3.Solver()
        solver.add(*encoder.guards, z3_R == 1)
        assert solver.check() == z3.sat

    def test_the_metrics_as_written_fail_at_k_11(self) -> None:
        one = adv.Fraction(1)
        falls, two = adv.falls_at_12_for_small_r_truth, (one, one)
        ranking = tuple(adv.Fraction(g) for g in "0110000000000")
        assert (falls(ranking, 11, two), falls(ranking, 12, two)) == (adv.Fraction(7, 2), adv.Fraction(-3, 2))
        bump = adv.bump_at_11_for_small_r_truth
        before, after = (tuple(adv.Fraction(g) for g in r) for r in ("01100000000", "10100000000"))
        assert (bump(before, 11, two), bump(after, 11, two)) == (adv.Fraction(22, 3), adv.Fraction(17, 6))

    @pytest.mark.parametrize(("measure", "prop"), [(adv.falls_at_12_for_small_r, "monotonic"),
                                                   (adv.bump_at_11_for_small_r, "top_weighted")], ids=["monotonic", "top_weighted"])
    def test_a_bounded_proof_does_not_reach_k_11(self, measure: Measure, prop: str) -> None:
        from irprops.proofs.bounded import bounded_proof

        assert not covers(bounded_proof(measure, prop), 11)  # type: ignore[arg-type]

    def test_a_cube_root_of_a_negative_number_is_undefined_not_a_traceback(self) -> None:
        from irprops.metrics import Undefined

        k_is_2 = Situation.of("10", k=2)
        assert isinstance(adv.cube_root_of_k_minus_3.exact(k_is_2), Undefined)
        result = CliRunner().invoke(main, ["check", f"{Path(adv.__file__)}:cube_root_of_k_minus_3", "monotonic", "--json"])
        assert result.exit_code in (0, 2) and not isinstance(result.exception, Exception)  # CliRunner keeps a SystemExit
        assert "Traceback" not in result.output


class TestReadsAndDivisionsTheFormsMustNotInvent:
    """Found by a twelfth hostile review: a read of rank k + 1 through a limit, and a square taken for a division."""

    def test_the_metrics_as_written_are_not_localized_and_not_monotonic(self) -> None:
        ones = tuple(adv.Fraction(g) for g in "1011000000000")
        read = adv.limit_reading_k_plus_1_truth
        assert (read(ones, 13, ones[:3]), read((*ones, adv.Fraction(1)), 13, ones[:4])) == (0, 1)  # same top 13
        five_hundred = (adv.Fraction(1),) * 500
        two = (adv.Fraction(1), adv.Fraction(1))
        assert (adv.square_at_r_500_truth(two, 1, five_hundred), adv.square_at_r_500_truth(two, 2, five_hundred)) == (-1, -2)

    @pytest.mark.parametrize("name", list(adv.LIMIT_READERS))
    def test_a_read_below_k_through_a_limit_is_not_proved_localized(self, name: str) -> None:
        from irprops.proofs import Proof, prove

        assert not isinstance(prove(adv.LIMIT_READERS[name], "localized"), Proof)  # type: ignore[arg-type]

    def test_a_square_is_not_a_division(self) -> None:
        for form in (adv.square_at_r_500.symbolic(3), adv.square_at_r_500.closed_form()):
            assert form is not None and all(d.xreplace({form.R: 500}) != 0 for d, _ in form.denominators), form.denominators

    @pytest.mark.parametrize("prop", ["monotonic", "convergent"])
    def test_a_bounded_proof_does_not_leave_r_500_out(self, prop: str) -> None:
        from irprops.proofs import Proof, prove

        assert not isinstance(prove(adv.square_at_r_500, prop), Proof)  # type: ignore[arg-type]


class TestTheAgreementCheckLooksWhereTheFormDividesByZero:
    """Defence in depth behind the twelfth review's fix: a form that calls the metric undefined where it has a value
    (at one R that no structured or drawn situation has) is refused at that depth, whatever recorded the divisor."""

    @staticmethod
    def _with_r12_mistake(monkeypatch: pytest.MonkeyPatch) -> None:
        from irprops.metrics import registry, tracing

        def every_power_divides(base: Any, exponent: Any) -> Any:
            return base  # the mistake the twelfth review found: Pow(R - 500, 2) recorded as a division by R - 500
        monkeypatch.setattr(domains, "negative_power_divisor", every_power_divides)
        monkeypatch.setattr(tracing, "negative_power_divisor", every_power_divides)
        # the strict exact run reads the same table: keep the mistake on the forms' side only, as a recording bug would be
        monkeypatch.setattr(registry, "_reaches_sympy", lambda formula: False)

    @pytest.mark.parametrize("R", [500, 4937])
    def test_a_form_undefined_at_one_r_where_the_metric_is_defined_is_refused(self, monkeypatch: pytest.MonkeyPatch, R: int) -> None:
        self._with_r12_mistake(monkeypatch)

        @adv.proposal(f"square-at-r-{R}")
        def square(m: Any) -> Any:  # a new function each time: nothing cached about it
            return m.sum(1, m.k, m.r) + 0 * sympy.Pow(m.R - R, 2)

        with pytest.raises(InputError, match=f"k = 3 .*R = ({R - 1}|{R}|{R + 1})"):
            square.symbolic(3)

    def test_a_closed_form_undefined_at_one_r_where_the_metric_is_defined_is_refused(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self._with_r12_mistake(monkeypatch)

        @adv.proposal("square-at-r-700")
        def square(m: Any) -> Any:
            return m.sum(1, m.k, m.r) / m.k + 0 * sympy.Pow(m.R - 700, 3)

        with pytest.raises(InputError, match="k = 1 .*R = (699|700|701)"):
            square.validate_forms()

    def test_a_form_undefined_where_the_metric_is_undefined_is_kept(self) -> None:
        @adv.proposal("undefined-at-r-500")
        def divided(m: Any) -> Any:
            return m.div(m.sum(1, m.k, m.r), m.R - 500, "R is 500")

        form = divided.symbolic(3)
        assert [str(d) for d, _ in form.denominators] == ["R - 500"]


class TestABinomialAtANegativeTopArgument:
    """Found by a thirteenth hostile review: SymPy's simplify calls binomial(n, n + 2) 0, which it is not at n < 0."""

    def test_sympy_simplifies_it_to_0_where_it_is_1(self) -> None:
        n = sympy.Symbol("n", integer=True)
        assert sympy.simplify(sympy.binomial(n - 252, n - 250)) == 0 and sympy.binomial(-2, 0) == 1  # why it is refused

    def test_the_metrics_as_written_fail_past_the_deep_search(self) -> None:
        zeros, one = (adv.Fraction(0),) * 302, (adv.Fraction(1),)
        assert [adv.binomial_bump_truth(zeros, k, ()) for k in (249, 250, 251, 252)] == [0, 1, -1, 0]
        at_200 = tuple(adv.Fraction(int(i == 200)) for i in range(1, 302))
        assert adv.binomial_weight_truth(at_200, 200, one) == adv.Fraction(1, 201) - 1  # a negative weight at rank 200
        at_201 = tuple(adv.Fraction(int(i == 201)) for i in range(1, 302))
        assert adv.binomial_index_truth(at_201, 200, one) == 1  # rank 201 read at k = 200

    @pytest.mark.parametrize("name", list(adv.BINOMIALS))
    def test_no_proof_rests_on_the_simplification(self, name: str) -> None:
        from irprops.proofs import Proof, prove

        measure, props = adv.BINOMIALS[name]
        for prop in props:
            found = prove(measure, prop)
            assert not (isinstance(found, Proof) and found.reach.max_k is None), (prop, found)


class TestTheFormAtEachDepthAProofUses:
    """A proof for k <= K is about the forms at depths 1 to K: each is compared with the exact form before a proof uses it."""

    @staticmethod
    def wrong_at_depth_5(monkeypatch: pytest.MonkeyPatch, error: Any) -> Measure:
        """A fresh proposal (sum b_i / i) whose form at depth 5, and only there, has ``error(b_1, b_2)`` added."""
        from irprops.metrics import registry

        build = registry.Measure._form

        def wrong(self: Measure, algebra: Any, k: object) -> Any:
            form = build(self, algebra, k)
            b1, b2 = (sympy.Symbol(f"b_{i}", integer=True, nonnegative=True) for i in (1, 2))
            return dataclasses.replace(form, expr=form.expr + error(b1, b2)) if k == 5 else form

        monkeypatch.setattr(registry.Measure, "_form", wrong)
        return adv.proposal("wrong-at-5")(lambda m: m.sum(1, m.k, lambda i: m.r(i) / i))

    def test_a_form_that_is_not_the_metric_at_depth_5_is_refused_naming_the_depth(self, monkeypatch: pytest.MonkeyPatch) -> None:
        measure = self.wrong_at_depth_5(monkeypatch, lambda b1, b2: 1)
        measure.validate_forms()  # depths 1 and 2, and the closed form, are the metric
        measure.symbolic(4)
        with pytest.raises(InputError, match="disagree at k = 5"):
            measure.symbolic(5)

    def test_a_form_wrong_only_where_rank_1_is_relevant_and_rank_2_is_not_is_refused(self, monkeypatch: pytest.MonkeyPatch) -> None:
        measure = self.wrong_at_depth_5(monkeypatch, lambda b1, b2: b1 * (1 - b2))  # 0 on every structured ranking
        with pytest.raises(InputError, match="disagree at k = 5"):
            measure.symbolic(5)

    def test_a_bounded_proof_does_not_rest_on_it(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from irprops.proofs import Failed, prove
        from irprops.proofs.bounded import bounded_proof

        measure = self.wrong_at_depth_5(monkeypatch, lambda b1, b2: 1)
        with pytest.raises(InputError, match="disagree at k = 5"):
            bounded_proof(measure, "convergent")  # type: ignore[arg-type]
        reads_marks = adv.proposal("wrong-at-5, reading marks")(  # only proofs at each depth: the closed form does not model marks
            lambda m: m.sum(1, m.k, lambda i: m.r(i) / i) - m.sum(1, m.k, lambda i: m.unjudged(i) / (i + 1)))
        found = prove(reads_marks, "convergent")  # type: ignore[arg-type]
        assert isinstance(found, Failed) and "disagree at k = 5" in found.reason

    def test_without_the_check_the_bounded_proof_reaches_past_depth_5(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from irprops.metrics import registry
        from irprops.proofs.bounded import bounded_proof

        measure = self.wrong_at_depth_5(monkeypatch, lambda b1, b2: 1)
        monkeypatch.setattr(registry, "check_depth_agreement", lambda measure, form, k: None)
        assert covers(bounded_proof(measure, "convergent"), 5)  # type: ignore[arg-type]


def changed_before_the_exact_runs(monkeypatch: pytest.MonkeyPatch, module: Any, after: bool = False) -> None:
    """Rebind ``module.CHANGED`` to 1 between the symbolic run and the exact runs of one validation (``after``: after them)."""
    from irprops.metrics import registry

    compare = registry.check_agreement

    def rebinding(measure: Measure, forms: Any) -> None:
        if not after:
            monkeypatch.setattr(module, "CHANGED", 1)
        compare(measure, forms)
        monkeypatch.setattr(module, "CHANGED", 1)

    monkeypatch.setattr(registry, "check_agreement", rebinding)


class TestTheFormulaLanguage:
    @pytest.mark.parametrize("name", list(language.ESCAPES))
    def test_each_escape_really_hides_a_feature_at_depth_1501_in_its_exact_run(self, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
        from irprops.metrics import registry

        monkeypatch.setattr(registry, "_reaches_sympy", lambda formula: False)  # the exact run without the strict hook, which
        measure, _ = language.ESCAPES[name]  # one escape detects (any profile hook reads as the watch to it)
        empty = [measure.exact(Situation((), k, ())) for k in (1500, 1501)]
        assert empty == [0, -1]  # monotonic is false at k = 1501: a "yes" would be false

    @pytest.mark.parametrize("name", list(language.ESCAPES))
    def test_each_escape_is_refused_naming_the_construct_outside_the_language(self, name: str) -> None:
        measure, named = language.ESCAPES[name]
        with pytest.raises(BranchOnSymbol) as refused:
            measure.validate_forms()
        assert any(text in str(refused.value) for text in named.split("|")), str(refused.value)

    @pytest.mark.parametrize("name", list(language.ESCAPES)[:3])
    def test_an_escape_checked_from_the_command_line_is_one_line_and_exit_status_2(self, name: str) -> None:
        measure, _ = language.ESCAPES[name]
        spec = f"tests.language_proposals:{measure.metric.formula.__name__}"
        result = CliRunner().invoke(main, ["check", spec, "monotonic"])
        assert result.exit_code == 2 and "Traceback" not in result.output, result.output
        assert "formula language" in result.output or "tell a symbolic rank" in result.output, result.output

    @pytest.mark.parametrize("name", list(language.ACCEPTED))
    def test_a_natural_formula_is_inside_the_language(self, name: str) -> None:
        language.ACCEPTED[name].validate_forms()

    def test_a_sympy_function_the_proposal_replaced_is_refused(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(sympy, "Min", language.CHECK)  # as a proposal file could, after irprops is imported
        measure = adv.proposal("replaced-min")(lambda m: m.sum(1, m.k, lambda i: m.r(i) * sympy.Min(1, i) / (i * (i + 1))))
        with pytest.raises(BranchOnSymbol, match="no longer sympy's own"):
            measure.validate_forms()

    @pytest.mark.parametrize("weight", [
        language.CHECK, functools.lru_cache(lambda i: 1 / i), operator.neg, lambda i, probe=isinstance: 1 / i,
    ])
    def test_a_weight_that_would_run_unwatched_or_carries_a_probe_is_refused_when_declared(self, weight: Any) -> None:
        with pytest.raises(BranchOnSymbol, match="weighted_precision"):
            weighted_precision("unwatched", weight)

    @pytest.mark.parametrize(("source", "named"), [
        ("import math\ndef f(m):\n    return m.num(math.comb(4, 2))", "the module `math`"),
        ("def f(m):\n    w = {1: m.num(1)}\n    return w[1]", "a dict or set"),
        (("def f(m):\n    total = m.num(0)\n    def add(x):\n        nonlocal total\n        total = total + x\n"
          "    add(m.r(1))\n    return total"), "a write to the enclosing variable `total`"),
        ("import sympy\ndef f(m):\n    with sympy.evaluate(False):\n        w = m.num(1)\n    return w", "a try or with"),
        ("def f(m):\n    assert m.num(1)\n    return m.num(1)", "a raise or assert"),
    ])
    def test_what_the_language_leaves_out_is_refused_with_the_construct_named(self, source: str, named: str, tmp_path: Path) -> None:
        (tmp_path / "outside.py").write_text(source)
        formula = runpy.run_path(str(tmp_path / "outside.py"))["f"]
        with pytest.raises(BranchOnSymbol, match=re.escape(named)):
            adv.proposal("outside")(formula).validate_forms()


class TestFormulasWithState:
    def test_a_formula_whose_global_changes_after_the_exact_runs_gives_another_closed_form_and_is_refused(
            self, monkeypatch: pytest.MonkeyPatch) -> None:
        changed_before_the_exact_runs(monkeypatch, hiding, after=True)
        with pytest.raises(InputError, match="another closed form when run again"):
            hiding.changed_from_outside.validate_forms()

class TestConvergenceIsNotTakenFromSymPysSeriesTest:
    """Found by a fourteenth hostile review: SymPy's Sum.is_convergent calls sum i^(1/i) / i^2 divergent, and bounded was
    refuted "for all k" on a bounded metric (a false "no" with a proof)."""

    def test_the_metric_is_bounded(self) -> None:
        assert adv.root_weight_is_bounded_by(adv.ROOT_WEIGHT_BOUND, 60)
        from irprops.metrics import exact

        deep = adv.root_weight.exact(Situation.of("1" * 300, k=300))
        assert exact.compare(deep, adv.ROOT_WEIGHT_BOUND) < 0  # type: ignore[arg-type]

    def test_bounded_is_not_refuted(self) -> None:
        from irprops.proofs import Proof, prove

        found = prove(adv.root_weight, "bounded")  # type: ignore[arg-type]
        assert not (isinstance(found, Proof) and found.conclusion == "no"), found

    def test_bounded_is_proved_by_comparison_with_a_convergent_series(self) -> None:
        from irprops.proofs import Proof, prove

        found = prove(adv.root_weight, "bounded")  # type: ignore[arg-type]
        assert isinstance(found, Proof) and found.conclusion == "yes"
        assert "limit comparison with sum 1/i^2" in " ".join(lemma.statement for lemma in found.lemmas)

    def test_dcg_is_still_unbounded_by_comparison_with_the_harmonic_series(self) -> None:
        from irprops.metrics import parse
        from irprops.proofs import Proof, prove

        found = prove(parse("DCG"), "bounded")  # type: ignore[arg-type]
        assert isinstance(found, Proof) and found.conclusion == "no"
        assert "limit comparison with the harmonic series" in " ".join(lemma.statement for lemma in found.lemmas)


class TestARootWithANegativeIndex:
    """Found by a fourteenth hostile review: root(0, n) is undefined where n < 0, and only n != 0 was recorded, so a term
    undefined at k = 250 alone (and dropped from the closed form when multiplied by 0) left false "yes" for all k."""

    @pytest.mark.parametrize("name", list(adv.ROOT_GAPS))
    def test_the_metrics_as_written_are_undefined_at_k_250_only(self, name: str) -> None:
        from irprops.metrics import Undefined

        measure, _ = adv.ROOT_GAPS[name]
        ranking = (adv.Fraction(1),)
        for k in (249, 250, 251):
            truth = adv.root_gap_truth(ranking, k, ranking, "constant" if name == "constant" else "weighted")
            found = measure.exact(Situation.of("1", k=k))
            assert (truth is None) == isinstance(found, Undefined) == (k == 250)
            assert truth is None or found == truth

    @pytest.mark.parametrize(("name", "prop"), [(name, prop) for name, (_, props) in adv.ROOT_GAPS.items() for prop in props])
    def test_no_proof_reaches_k_250(self, name: str, prop: str) -> None:
        from irprops.proofs import Proof, prove

        found = prove(adv.ROOT_GAPS[name][0], prop)  # type: ignore[arg-type]
        assert not (isinstance(found, Proof) and (found.reach.max_k is None or found.reach.max_k >= 250)), (prop, found)

    @pytest.mark.parametrize("name", list(adv.ROOT_GAPS))
    def test_where_a_root_divides_by_its_radicand_is_recorded(self, name: str) -> None:
        form = adv.ROOT_GAPS[name][0].closed_form()
        k = sympy.Symbol("k", integer=True, positive=True)
        assert form is not None and form.denominators, form  # the root's own record and its power's (root(x, n) = x ** (1/n))
        assert all(d.subs(k, 250) == 0 and d.subs(k, 249) != 0 and d.subs(k, 251) != 0 for d, _ in form.denominators), \
            form.denominators

    def test_a_root_of_index_0_is_undefined_in_every_form(self) -> None:  # root(1, 0) is 1**zoo, nan
        from irprops.metrics import Undefined

        measure = adv.proposal("root-index-0")(lambda m: m.sum(1, m.k, m.r) * sympy.root(1, m.max(0, 12 - m.k)))
        form = measure.closed_form()
        assert form is not None and isinstance(form.at(Situation.of("1", k=12)), Undefined)
        assert isinstance(measure.exact(Situation.of("1", k=12)), Undefined)

    def test_a_log_base_must_be_positive(self) -> None:  # log(4, -2) is not real; only base != 1 was recorded
        measure = adv.proposal("log-base")(lambda m: m.sum(1, m.k, m.r) * sympy.log(4, 2 * (-1) ** sympy.KroneckerDelta(m.k, 250)))
        form = measure.closed_form()
        assert form is not None and any("sympy.log's base" in why and "positive" in why for why in form.unmodelled), form.unmodelled

    def test_a_spike_built_from_a_power_of_zero_is_not_smooth(self) -> None:
        from irprops.proofs.signs import smooth

        i = sympy.Symbol("i", integer=True, positive=True)
        assert not smooth(sympy.Integer(0) ** ((i - 250) ** 2)) and not smooth(1 / i + (-1) ** i / i**2)
        assert smooth(1 / sympy.log(i + 1)) and smooth(2 ** (-i)) and smooth(sympy.root(i, i) / i**2)


class TestUnboundednessNeedsTheGrowingRankingDefined:
    """Found by a fifteenth hostile review: bounded was refuted "for all k" (4 false "no") for metrics whose all-relevant
    ranking grows only in the closed form: the metric divides by something 0 on it from some depth on."""

    @pytest.mark.parametrize("name", list(adv.CUTOFFS))
    def test_the_metrics_as_written_are_bounded_and_undefined_where_they_would_grow(self, name: str) -> None:
        from irprops.metrics import Undefined, exact

        measure, bound = adv.CUTOFFS[name]
        for k in (1, 5, 11, 12, 13, 40):
            ones = (adv.Fraction(1),) * k
            found, truth = measure.exact(Situation(ones, k, ones)), adv.cutoff_truth(ones, k, name)
            assert (truth is None) == isinstance(found, Undefined) == (k >= 12 and name != "dcg"), (k, found)
            if truth is not None:
                assert truth <= bound and exact.compare(found, truth) <= 0  # type: ignore[arg-type]
                assert name.startswith("dcg") or found == truth

    @pytest.mark.parametrize("name", list(adv.CUTOFFS))
    def test_bounded_is_not_refuted(self, name: str) -> None:
        from irprops.proofs import Proof, prove

        found = prove(adv.CUTOFFS[name][0], "bounded")  # type: ignore[arg-type]
        assert not (isinstance(found, Proof) and found.conclusion == "no"), found

    def test_the_prover_does_not_stop_on_an_undefined_all_relevant_score(self) -> None:
        from irprops.proofs import prove

        found = prove(adv.cutoff_dcg_12, "bounded")  # type: ignore[arg-type]
        assert "stopped" not in getattr(found, "reason", ""), found

    def test_the_fold_proves_its_all_relevant_run_defined_on_its_own(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from irprops.proofs import Proof, clear_cache, prove
        from irprops.proofs.structure import Prepared

        monkeypatch.setattr(Prepared, "undefined_on_all_relevant", lambda self: None)  # the central check taken away
        clear_cache()
        try:
            found = prove(adv.cutoff_sp, "bounded")  # type: ignore[arg-type]
        finally:
            clear_cache()
        assert not (isinstance(found, Proof) and found.conclusion == "no"), found

    def test_a_case_split_on_a_square_of_the_rank_is_not_read_as_one_rank(self) -> None:  # it was a ValueError
        from irprops.proofs.signs import Weight, exceptions

        i = sympy.Symbol("i", integer=True, positive=True)
        assert exceptions(Weight(sympy.Piecewise((1, sympy.Eq(i**2, 9)), (1 / i, True)), i)) is None
        assert exceptions(Weight(sympy.Piecewise((1, sympy.Eq(3, i)), (1 / i, True)), i)) is not None

    @pytest.mark.parametrize("name", ["DCG", "SP"])
    def test_table_2s_unbounded_metrics_are_still_proved_unbounded(self, name: str) -> None:
        from irprops.metrics import parse
        from irprops.proofs import Proof, prove

        found = prove(parse(name), "bounded")  # type: ignore[arg-type]
        assert isinstance(found, Proof) and found.conclusion == "no" and found.reach.all_k


class TestAFunctionHandedToTheAlgebraIsWatched:
    """Found by a fifteenth hostile review: m.sum(e, e, sympy.log) called sympy.log from irprops' code, so its condition
    went unrecorded (3 false "yes" for all k); and log2(0) was a number in the exact run (a wrong witness)."""

    @pytest.mark.parametrize("name", list(adv.HANDED))
    def test_the_metrics_as_written_are_undefined_where_the_function_is(self, name: str) -> None:
        from irprops.metrics import Undefined

        measure, _, k, R = adv.HANDED[name]
        zeros = (adv.Fraction(0),) * k
        qrels = (adv.Fraction(1),) * R
        for depth, r in ((k, R), (k + 1 if name != "harmonic" else k - 3, R + 1 if R else 0)):
            ranking = (adv.Fraction(0),) * depth
            truth = adv.handed_truth(ranking, depth, (adv.Fraction(1),) * r, name)
            found = measure.exact(Situation(ranking, depth, (adv.Fraction(1),) * r))
            assert (truth is None) == isinstance(found, Undefined) == ((depth, r) == (k, R)), (depth, r, found)
        assert adv.handed_truth(zeros, k, qrels, name) is None

    @pytest.mark.parametrize("name", list(adv.HANDED))
    def test_the_condition_of_a_handed_function_is_recorded(self, name: str) -> None:
        form = adv.HANDED[name][0].closed_form()
        assert form is not None and form.unmodelled, form

    @pytest.mark.parametrize("name", list(adv.HANDED))
    def test_no_proof_for_all_k(self, name: str) -> None:
        from irprops.proofs import Proof, prove

        measure, prop, k, _ = adv.HANDED[name]
        found = prove(measure, prop)  # type: ignore[arg-type]
        assert not (isinstance(found, Proof) and (found.reach.max_k is None or found.reach.max_k >= k)), found

    def test_log2_of_zero_has_no_value_in_the_exact_run(self) -> None:
        from irprops.metrics import Undefined

        for formula in (lambda m: m.log2(m.num(0)) * 0, lambda m: m.log2(m.num(0)) - m.log2(m.num(0)), lambda m: m.log2(m.num(0))):
            assert isinstance(adv.proposal("log2-of-0")(formula).exact(Situation.of("1", k=1)), Undefined)
        assert isinstance(adv.lone_log2.exact(Situation.of("01", k=1)), Undefined)

    def test_no_witness_rests_on_log2_of_zero(self) -> None:
        verdict = check(adv.lone_log2, ["convergent"], budget=60)["convergent"]
        assert verdict.verdict != "no", verdict.witness


class TestLog2ByNameAndSortedGradesAndFloatTies:
    """Found by a sixteenth hostile review: irprops' log2 called by name recorded no condition (5 false "yes"), a sorted
    grade's order argument was not read by the localized proof (1 false "yes"), and two witnesses were called minimal
    past candidates whose scores tie in floating point."""

    @pytest.mark.parametrize(("name", "k", "R", "defined"), [("a", 250, 0, False), ("a", 250, 1, True), ("a", 249, 0, False),
                                                             ("b", 250, 17, False), ("b", 250, 18, True)])
    def test_log2_by_name_is_undefined_where_its_argument_is_0(self, name: str, k: int, R: int, defined: bool) -> None:
        from irprops.metrics import Undefined

        measure = adv.log2_by_name_a if name == "a" else adv.log2_by_name_b
        found = measure.exact(Situation((adv.Fraction(0),) * k, k, (adv.Fraction(1),) * R))
        assert (adv.log2_by_name_truth(k, R, name) is not None) == defined == (not isinstance(found, Undefined))

    @pytest.mark.parametrize(("name", "prop"), [("a", "complete"), ("a", "localized"), ("b", "realizable"), ("b", "localized")])
    def test_log2_by_name_gets_no_proof(self, name: str, prop: str) -> None:
        from irprops.proofs import Proof, prove

        measure = adv.log2_by_name_a if name == "a" else adv.log2_by_name_b
        form = measure.closed_form()
        assert form is not None and any("log2" in why for why in form.unmodelled), form.unmodelled
        assert not isinstance(prove(measure, prop), Proof)  # type: ignore[arg-type]

    def test_a_sorted_grade_whose_order_reads_rank_k_plus_1_is_not_localized(self) -> None:
        from irprops.proofs import Proof, prove

        one = adv.Fraction(1)
        top = (one,) + (adv.Fraction(0),) * 249
        assert (adv.sorted_grade_truth(top, 250), adv.sorted_grade_truth((*top, one), 250)) == (1, 0)
        measure = adv.sorted_grade_reading_k_plus_1
        assert (measure.exact(Situation(top, 250, (one,))), measure.exact(Situation((*top, one), 250, (one, one)))) == (1, 0)
        assert not isinstance(prove(measure, "localized"), Proof)  # type: ignore[arg-type]

    def test_the_minimal_realizable_witness_is_not_passed_over_for_a_float_tie(self) -> None:
        verdict = check(adv.nearly_one_at_depth_1, ["realizable"], budget=60)["realizable"]
        assert verdict.verdict == "no" and verdict.witness is not None
        assert (verdict.witness.data["k"], verdict.witness.data["qrels"]) == (1, ["1"]), verdict.witness.data
        assert verdict.witness.data["max"] == str(1 - adv.EPSILON)

    def test_the_minimal_localized_witness_is_not_passed_over_for_a_float_tie(self) -> None:
        verdict = check(adv.nearly_one_with_r, ["localized"], budget=60)["localized"]
        assert verdict.verdict == "no" and verdict.witness is not None and verdict.witness.data["k"] == 1, verdict.witness
        assert verdict.search is not None and verdict.search.minimal


class TestAConditionMustHoldOverTheParametersWholeProofInterval:
    """Found by a sixteenth hostile review: a divisor nonzero at the parameter's default but 0 elsewhere in (0, 1) was left
    out, and realizable (yes) and bounded (no) were "proved" for every p in (0, 1)."""

    @pytest.mark.parametrize("name", ["realizable", "unbounded"])
    def test_at_p_one_half_the_metric_is_undefined_where_r_is_1(self, name: str) -> None:
        from irprops.metrics import Undefined

        half = adv.p_gap(name, adv.Fraction(1, 2))
        assert not adv.p_gap_defined(name, adv.Fraction(1, 2), 1) and adv.p_gap_defined(name, adv.Fraction(1, 4), 1)
        assert isinstance(half.exact(Situation.of("10", k=1)), Undefined)
        assert not isinstance(adv.p_gap(name).exact(Situation.of("10", k=1)), Undefined)

    def test_realizable_is_not_proved_for_every_p(self) -> None:
        from irprops.proofs import Proof, prove

        found = prove(adv.p_gap("realizable"), "realizable")  # type: ignore[arg-type]
        assert not (isinstance(found, Proof) and found.conclusion == "yes"), found

    def test_unboundedness_is_proved_not_for_every_p_but_for_the_value_bound_where_it_holds(self) -> None:
        from irprops.proofs import Proof, prove

        found = prove(adv.p_gap("unbounded"), "bounded")  # type: ignore[arg-type]
        assert isinstance(found, Proof) and found.conclusion == "no", found
        assert found.lemmas[0].statement.endswith("for p = 1/4"), found.lemmas[0].statement
        # the truth at p = 1/4: the divisor 1 - (floor(4 p) - 1) min(R, 1) is 1 at every R, so the score is (5/4) sum b_i
        assert all(adv.p_gap_defined("unbounded", adv.Fraction(1, 4), R) for R in range(100))
        assert adv.p_gap("unbounded").exact(Situation.of("1" * 40, k=40)) == 50

    def test_the_divisor_is_recorded(self) -> None:
        form = adv.p_gap("realizable").closed_form()
        assert form is not None and any("floor" in str(d) for d, _ in form.denominators), form.denominators

    def test_at_p_one_half_the_prover_does_not_stop_on_an_undefined_score(self) -> None:
        from irprops.proofs import prove

        found = prove(adv.p_gap("unbounded", adv.Fraction(1, 2)), "bounded")  # type: ignore[arg-type]
        assert "stopped" not in getattr(found, "reason", ""), found


class TestAProofAtTheValueTheParameterIsBoundWith:
    """Where no proof holds over a parameter's whole proof interval, the proofs are tried at the value the measure is bound
    with: that is the metric the user wrote, and the proof says which value it is for."""

    @pytest.mark.parametrize("prop", ["bounded", "monotonic", "convergent", "top_weighted"])
    def test_a_positive_multiple_of_rbp_at_p_three_quarters_is_proved_for_that_value_for_all_k(self, prop: str) -> None:
        from irprops.proofs import Proof, prove

        found = prove(adv.scaled_rbp(adv.Fraction(3, 4)), prop)  # type: ignore[arg-type]
        assert isinstance(found, Proof) and found.conclusion == "yes" and found.reach.all_k, found
        assert found.lemmas[0].statement.endswith("for p = 3/4"), found.lemmas[0].statement

    @pytest.mark.parametrize("prop", ["bounded", "monotonic", "convergent", "top_weighted", "localized"])
    def test_a_metric_with_no_value_at_the_bound_value_gets_no_proof_for_every_p(self, prop: str) -> None:
        from irprops.metrics import Undefined
        from irprops.proofs import Failed, prove

        assert all(isinstance(adv.nowhere_at_p.exact(Situation.of(r, k=k)), Undefined) for r, k in (("10", 1), ("0", 1), ("11", 2)))
        found = prove(adv.nowhere_at_p, prop)  # type: ignore[arg-type]
        assert isinstance(found, Failed) and "no value anywhere" in found.reason, found

    @pytest.mark.parametrize(("name", "proved_before"), [
        ("nowhere_floor", ["bounded", "monotonic", "convergent", "top_weighted"]),
        ("nowhere_k", ["bounded", "monotonic", "convergent", "top_weighted", "localized"]),
    ])
    def test_a_metric_with_no_value_anywhere_that_sympy_cannot_see_gets_no_proof(self, name: str, proved_before: list[str]) -> None:
        # a twenty-ninth hostile review: d is 0 at every k and R, but SymPy keeps it unevaluated, so the proof layer's test
        # of the denominators passes; the check gives no proof when no situation the search scored has a value
        from irprops.metrics import Undefined

        measure = getattr(adv, name)
        for ranking, k in (("1", 1), ("0", 1), ("10", 2), ("0110", 4)):
            assert isinstance(measure.exact(Situation.of(ranking, k=k)), Undefined)
        result = check(measure, proved_before, budget=5)  # no value anywhere: every search would run to its budget
        for prop, verdict in result.verdicts.items():
            assert verdict.verdict == "unknown" and verdict.proof is None, (prop, verdict)
            assert "no value at any of the" in (verdict.no_proof or ""), (prop, verdict.no_proof)

    def test_a_negative_multiple_at_p_one_quarter_is_refuted_not_proved(self) -> None:
        truth = adv.scaled_rbp_truth(adv.Fraction(1, 4))
        assert truth((adv.Fraction(0), adv.Fraction(1)), 2, (adv.Fraction(1),)) == adv.Fraction(-3, 64)
        result = settled(adv.scaled_rbp(adv.Fraction(1, 4)), truth, ["monotonic", "convergent", "top_weighted", "bounded"])
        assert [result[prop].verdict for prop in ("monotonic", "convergent", "top_weighted")] == ["no"] * 3
        assert result["bounded"].verdict != "no"  # true (|score| <= 3/16 * 4/3); the weighted-sum prover needs a positive scale


class TestAChainOfAdjacentSwapsMustStayDefined:
    """Found by a seventeenth hostile review: the fold's top_weighted proof chains adjacent swaps, each proved where both
    sides are defined, but a ranking in the chain may be undefined when the metric divides by a quantity of the grades."""

    def test_the_metric_is_not_top_weighted(self) -> None:
        assert (adv.jump_truth(50001), adv.jump_truth(50000), adv.jump_truth(49999)) == (-50002, None, -50098)

    def test_top_weighted_is_not_proved(self) -> None:
        from irprops.proofs import Proof, prove

        found = prove(adv.jump, "top_weighted")  # type: ignore[arg-type]
        assert not (isinstance(found, Proof) and (found.reach.max_k is None or found.reach.max_k >= 50001)), found

    def test_table_2s_folds_are_still_proved_top_weighted(self) -> None:
        from irprops.metrics import parse
        from irprops.proofs import Proof, prove

        for name in ("AP", "SN-AP"):
            found = prove(parse(name), "top_weighted")  # type: ignore[arg-type]
            assert isinstance(found, Proof) and found.conclusion == "yes" and found.reach.all_k, (name, found)


class TestPowWithAModulus:
    """Found by an eighteenth hostile review: pow(x, e, q) on a SymPy base escaped the guard (4 false "yes", all k)."""

    def test_the_exact_run_is_not_the_closed_form_past_depth_250(self) -> None:
        deep = adv.pow_with_a_modulus.exact(Situation.of("1" + "0" * 251, k=252))
        q = 2**2 * (252 - 300) ** 2 * (252 - 1000) ** 2 + 7
        assert deep == 7 * pow(7, -1, q) * adv.Fraction(1, 2) and deep > 1

    def test_it_is_refused_as_outside_the_language(self) -> None:
        with pytest.raises(BranchOnSymbol, match="modulus"):
            adv.pow_with_a_modulus.validate_forms()

    def test_the_check_says_so_in_one_line(self) -> None:
        result = CliRunner().invoke(main, ["check", f"{Path(adv.__file__)}:pow_with_a_modulus", "bounded", "--json"])
        assert result.exit_code == 2 and "Traceback" not in result.output, result.output
        assert "modulus" in result.output


class TestAPartialFunctionIsRecordedHoweverItIsBuilt:
    """Found by the eighth session's own attack: sympy.Pow(x, e=-1) (arguments by name) and, with SymPy's cache off,
    sympy.log(x) recorded no condition, and complete was "proved" for all k of metrics undefined at k = 250. The condition
    is now taken where SymPy builds the value, from its constructor's arguments bound by name (metrics/domains.py)."""

    @pytest.mark.parametrize("name", list(adv.BUILT_HOWEVER))
    def test_the_metrics_as_written_are_undefined_at_depth_250(self, name: str) -> None:
        from irprops.metrics import Undefined

        for k in (249, 250, 251):
            ranking = (adv.Fraction(1),) + (adv.Fraction(0),) * (k - 1)
            found = adv.BUILT_HOWEVER[name].exact(Situation(ranking, k, (adv.Fraction(1),)))
            expected = adv.built_however_truth(ranking, k, (adv.Fraction(1),))
            assert (isinstance(found, Undefined) and expected is None) or found == expected, (k, found, expected)

    @pytest.mark.parametrize("name", list(adv.BUILT_HOWEVER))
    def test_the_closed_form_keeps_the_condition(self, name: str) -> None:
        form = adv.BUILT_HOWEVER[name].closed_form()
        assert form is not None
        k = form.k
        assert form.unmodelled or any(sympy.simplify(d - (k - 250)) == 0 for d, _ in form.denominators), form

    @pytest.mark.parametrize("name", list(adv.BUILT_HOWEVER))
    def test_complete_is_not_proved(self, name: str) -> None:
        from irprops.proofs import Proof, prove

        found = prove(adv.BUILT_HOWEVER[name], "complete")  # type: ignore[arg-type]
        assert not (isinstance(found, Proof) and (found.reach.max_k is None or found.reach.max_k >= 250)), found

    def test_nor_with_sympys_cache_off(self) -> None:
        script = ("from irprops.proofs import Proof, prove\n"
                  "from tests import adversarial_proposals as adv\n"
                  "for measure in adv.BUILT_HOWEVER.values():\n"
                  "    found = prove(measure, 'complete')\n"
                  "    print(measure.name, isinstance(found, Proof) and (found.reach.max_k is None or found.reach.max_k >= 250))\n")
        env = {**os.environ, "SYMPY_USE_CACHE": "no"}
        done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
                              check=False)
        assert done.returncode == 0, done.stderr
        assert done.stdout.split() == [w for name in adv.BUILT_HOWEVER for w in (name, "False")], done.stdout


class TestADeclaredFoldIsRunAgainstTheMetric:
    """An eighteenth hostile review noted that "the fold program ... tested against the exact form" held only for the
    catalog's folds (a test runs them); a declared metric's fold is now run against its exact form before any proof."""

    def test_a_declared_fold_proof_says_its_fold_was_compared(self) -> None:
        from irprops.proofs import Proof, prove
        from irprops.proofs.foldcheck import FOLD_CHECKED
        from irprops.proofs.foldproofs import FOLD
        from tests import ordinary_proposals as ordinary

        found = prove(ordinary.q_measure, "monotonic")  # type: ignore[arg-type]
        assert isinstance(found, Proof) and found.reach.max_k is None, found
        assert FOLD_CHECKED in found.trusted and FOLD not in found.trusted

    @staticmethod
    def _scaled_at_r_7(p: Any) -> Any:
        """Q-measure's fold, scaled by 2 where R = 7: still monotonic (and proved so when used), but not the metric."""
        from irprops.proofs.folds import extract

        fold = extract(p)
        if fold is not None:
            fold.output = sympy.Piecewise((2 * fold.output, sympy.Eq(p.R, 7)), (fold.output, True))
        return fold

    def test_the_comparison_finds_where_such_a_fold_differs(self) -> None:
        from irprops.proofs.foldcheck import disagreement
        from irprops.proofs.structure import prepare
        from tests import ordinary_proposals as ordinary

        p = prepare(ordinary.q_measure)
        assert p is not None
        assert "with R = 7" in (disagreement(p, self._scaled_at_r_7(p)) or ""), disagreement(p, self._scaled_at_r_7(p))

    def test_a_fold_that_scores_unlike_the_metric_at_one_r_is_not_proved_anything(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from irprops import proofs
        from irprops.proofs import Proof, clear_cache, prove
        from tests import ordinary_proposals as ordinary

        monkeypatch.setattr(proofs, "extract", self._scaled_at_r_7)
        clear_cache()
        try:
            found = prove(ordinary.q_measure, "monotonic")  # type: ignore[arg-type]
        finally:
            clear_cache()
        assert not (isinstance(found, Proof) and found.reach.max_k is None), found


class TestADivisionInABranchTheMetricNeverTakes:
    """Found by a nineteenth hostile review: a division SymPy keeps in a Piecewise branch the metric never takes was
    recorded as a denominator of the whole form, and the k <= K proofs assumed it nonzero, leaving out the one R where each
    metric broke its property (4 false "yes", k <= 20). Those proofs now assume only what the form itself says (the
    encoder's guards, each where its branch is taken), never a recorded denominator; and the exact run is strict."""

    @pytest.mark.parametrize("name", list(adv.BRANCH_NEVER_TAKEN))
    def test_the_exact_run_has_no_value_where_the_branch_divides_by_zero(self, name: str) -> None:
        from irprops.metrics import Undefined

        measure, at = adv.BRANCH_NEVER_TAKEN[name]
        for R in (at - 1, at, at + 1, 50001):
            for marks, k in (("10", 1), ("10", 2), ("01", 2)):
                ranking, qrels = tuple(adv.Fraction(int(c)) for c in marks), (adv.Fraction(1),) * R
                truth = adv.branch_never_taken_truth(ranking, k, qrels, name)
                found = measure.exact(Situation(ranking, k, qrels))
                assert (truth is None) == isinstance(found, Undefined) == (R == at), (R, marks, k, found)
                assert truth is None or found == truth

    def test_a_k_up_to_k_proof_never_assumes_a_recorded_denominator_nonzero(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """count - k [R = 40] falls at R = 40; a form that records R - 40 as a denominator (as a division in a branch the
        metric never takes did, where the metric has a value) must not leave R = 40 out of a monotonic proof."""
        from irprops.metrics import Measure
        from irprops.proofs.bounded import bounded_proof

        falls = adv.proposal("falls-at-r-40")(lambda m: m.sum(1, m.k, m.r) - m.k * sympy.Piecewise((1, sympy.Eq(m.R, 40)), (0, True)))
        form_at = Measure.symbolic

        def recording_r_minus_40(measure: Measure, k: int | None = None) -> Any:
            form = form_at(measure, k)
            return dataclasses.replace(form, denominators=(*form.denominators, (form.R - 40, "recorded")))
        monkeypatch.setattr(Measure, "symbolic", recording_r_minus_40)
        found = bounded_proof(falls, "monotonic")  # type: ignore[arg-type]
        assert "a model of the negation" in getattr(found, "reason", ""), found


class TestADecisionOnAValueWithNoRealNumber:
    """Found by a twentieth hostile review: Eq(d, d + 1) is False for every finite d (SymPy decided so on symbols, in the
    closed form) and True for d = zoo, which a lazy exact run took where d divided by zero (23 false "yes", all k). The
    exact run of a declared formula is strict now: a step with no real value leaves the metric without one."""

    def test_the_exact_run_has_no_value_on_the_pattern_and_is_the_closed_form_elsewhere(self) -> None:
        from irprops.metrics import Undefined

        pattern = tuple(adv.Fraction(p) for p in adv._PATTERN)
        for ranking in (pattern, (adv.Fraction(1),) + pattern[1:], pattern[:11] + (adv.Fraction(0),)):
            qrels = (adv.Fraction(1),) * sum(1 for g in ranking if g)
            for k in (1, 2, 4):
                truth = adv.decided_on_zoo_truth(ranking, k, qrels)
                found = adv.decided_on_zoo.exact(Situation(ranking, k, qrels))
                assert (truth is None) == isinstance(found, Undefined) == (ranking == pattern), (ranking, k, found)
                assert truth is None or found == truth

    def test_only_a_formula_that_may_compute_with_sympy_values_is_watched(self) -> None:
        """Where no SymPy value can arise (exact integers and fractions only), a division by zero raises at once."""
        from irprops.metrics.strictness import reaches_sympy
        from tests import ordinary_proposals as ordinary

        half = sympy.Rational(1, 2)
        assert not reaches_sympy(ordinary.q_measure.metric.formula)
        assert reaches_sympy(adv.decided_on_zoo.metric.formula) and reaches_sympy(adv.hidden_zero_at_14.metric.formula)
        assert reaches_sympy(lambda m: m.sum(1, m.k, m.r) * half)  # an enclosing SymPy constant
        assert reaches_sympy(lambda m, f=sympy.log: f(m.k))  # a SymPy function as a default

    def test_a_value_sympy_then_refuses_to_compare_leaves_no_score_not_a_traceback(self) -> None:
        from irprops.metrics import Undefined

        log_of_0 = adv.proposal("max-over-log-of-0")(lambda m: m.sum(1, m.k, m.r) + m.max_over(1, m.k, lambda i: sympy.log(i - 1)))
        found = log_of_0.exact(Situation((adv.Fraction(1),), 1, (adv.Fraction(1),)))
        assert isinstance(found, Undefined) and "no real value" in str(found), found

    @pytest.mark.parametrize("prop", ["monotonic", "convergent", "top_weighted", "bounded"])
    def test_whatever_is_proved_holds_where_the_metric_has_a_value(self, prop: str) -> None:
        verdict = check(adv.decided_on_zoo, [prop], budget=60)[prop]
        assert verdict.verdict in ("yes", "unknown"), verdict  # true for the strict metric: sum b_i / i^2 where defined


class TestASymPySymbolOfTheFilesOwn:
    """Found by the eighth session's own attack: a global sympy.Symbol in a formula was its exact score at k = 250 (the
    symbol itself, not a number) while the closed form had a value there, and complete was "proved" for all k; a global
    Symbol("k", ...) is the closed form's k under another name. A formula's SymPy constants must be numbers."""

    @pytest.mark.parametrize("name", list(adv.FILE_SYMBOLS))
    def test_it_is_refused_as_outside_the_language(self, name: str) -> None:
        with pytest.raises(BranchOnSymbol, match="a SymPy constant with the symbols"):
            adv.FILE_SYMBOLS[name].validate_forms()

    def test_an_exact_score_holding_a_symbol_is_an_error_not_a_score(self) -> None:
        assert adv.free_symbol_at_250.exact(Situation((), 249, ())) == 0
        with pytest.raises(InputError, match="is no number: it holds the symbols z"):
            adv.free_symbol_at_250.exact(Situation((), 250, ()))

    def test_the_check_says_so_in_one_line(self) -> None:
        result = CliRunner().invoke(main, ["check", f"{Path(adv.__file__)}:free_symbol_at_250", "complete", "--json"])
        assert result.exit_code == 2 and "Traceback" not in result.output, result.output
        assert "a SymPy constant with the symbols z" in result.output


class TestASumOverARangeEmptyAtOneDepth:
    """Found by a twenty-first hostile review: SymPy's closed form of a sum (checked by telescoping) divided by k - 252 at
    every depth, while the range was empty at k = 252 and the metric divided by nothing there: the proofs left k = 252 out
    (5 false "yes", all k). The closed form now stands only where the range is not empty."""

    @pytest.mark.parametrize("name", list(adv.EMPTY_AT_252))
    def test_the_metric_has_a_value_at_depth_252_that_breaks_the_property(self, name: str) -> None:
        measure, _ = adv.EMPTY_AT_252[name]
        ones = (adv.Fraction(1),) * 253
        for k in (251, 252, 253):
            truth = adv.empty_at_252_truth(ones, k, ones, name)
            assert measure.exact(Situation(ones, k, ones)) == truth, k
        before, at = (adv.empty_at_252_truth(ones, k, ones, name) for k in (251, 252))
        assert at > 1 if name.endswith("bounded") else at < before

    @pytest.mark.parametrize("name", list(adv.EMPTY_AT_252))
    def test_no_proof_reaches_depth_252(self, name: str) -> None:
        from irprops.proofs import Proof, prove

        measure, prop = adv.EMPTY_AT_252[name]
        found = prove(measure, prop)  # type: ignore[arg-type]
        assert not (isinstance(found, Proof) and (found.reach.max_k is None or found.reach.max_k >= 252)), found


class TestADivisorExactlyZeroThatSymPyCancels:
    """Found by a twenty-first hostile review: d / d was 1 in the exact run where d = log2(15) - log2(3) - log2(5) is
    exactly 0, and the search built false "no" verdicts on a score that does not exist (3 of them)."""

    def test_the_exact_run_has_no_value_where_the_divisor_is_0(self) -> None:
        from irprops.metrics import Undefined

        for k in (13, 14, 15):
            ranking = (adv.Fraction(1),) + (adv.Fraction(0),) * 15
            truth = adv.hidden_zero_at_14_truth(ranking, k, (adv.Fraction(1),))
            found = adv.hidden_zero_at_14.exact(Situation(ranking, k, (adv.Fraction(1),)))
            assert (truth is None) == isinstance(found, Undefined) == (k == 14), (k, found)
            assert truth is None or found == truth

    def test_monotonic_is_not_refuted(self) -> None:
        verdict = check(adv.hidden_zero_at_14, ["monotonic"], budget=60)["monotonic"]
        assert verdict.verdict != "no", verdict


class TestSymPyReachedThroughTheBuiltins:
    """Found by a twenty-second hostile review: a file that rebinds ``__builtins__`` to a dictionary holding SymPy's
    functions reaches them by global names the static scan did not follow (it read the globals only), so the exact run was
    not strict: it had a value at k = 8 where the metric has none, and the search built three false "no" on it."""

    def test_the_scan_follows_the_functions_own_builtins(self) -> None:
        from irprops.metrics.strictness import reaches_sympy

        assert reaches_sympy(builtins_proposals.sympy_by_builtins.metric.formula)

    def test_the_scan_follows_a_name_added_to_the_builtins_module(self, monkeypatch: pytest.MonkeyPatch) -> None:
        import builtins

        from irprops.metrics.strictness import reaches_sympy

        def formula(m: Any) -> Any:
            return m.k * SYMPY_POW_BY_BUILTINS(m.k - 8, -1)  # type: ignore[name-defined]  # noqa: F821

        assert not reaches_sympy(formula)  # the name is resolved when the scan runs: not there, nothing to follow
        monkeypatch.setattr(builtins, "SYMPY_POW_BY_BUILTINS", sympy.Pow, raising=False)
        assert reaches_sympy(formula)

    def test_the_exact_run_has_no_value_at_depth_8_only(self) -> None:
        from irprops.metrics import Undefined

        for k in range(1, 12):
            ranking = tuple(adv.Fraction(i % 2) for i in range(k))
            truth = builtins_proposals.sympy_by_builtins_truth(ranking, k)
            found = builtins_proposals.sympy_by_builtins.exact(Situation(ranking, k, tuple(g for g in ranking if g)))
            assert (truth is None) == isinstance(found, Undefined) == (k == 8), (k, found)
            assert truth is None or found == truth

    def test_monotonic_is_not_refuted(self) -> None:
        verdict = check(builtins_proposals.sympy_by_builtins, ["monotonic"], budget=60)["monotonic"]
        assert verdict.verdict != "no", verdict


class TestASortedGradeOutsideTheTopKOnTheAllRelevantRanking:
    """Found by a twenty-third hostile review: bounded was refuted "for all k" for a metric that divides by the (2k - 20)-th
    largest grade of the top k, which has a value only at depths 11 to 20: the check that the all-relevant ranking is
    defined at every depth read each sorted grade as 1 there, whatever its order argument."""

    def test_the_metric_has_a_value_only_at_depths_11_to_20_and_is_bounded_by_20(self) -> None:
        from irprops.metrics import Undefined

        for k in (1, 10, 11, 15, 20, 21, 30, 300):
            ones = (adv.Fraction(1),) * k
            truth, found = adv.sorted_window_truth(ones, k), adv.sorted_window.exact(Situation(ones, k, ones))
            assert (truth is None) == isinstance(found, Undefined) == (not 11 <= k <= 20), (k, found)
            assert truth is None or found == truth <= 20

    def test_bounded_is_not_refuted(self) -> None:
        from irprops.proofs import Proof, prove

        found = prove(adv.sorted_window, "bounded")  # type: ignore[arg-type]
        assert not (isinstance(found, Proof) and found.conclusion == "no"), found
        assert check(adv.sorted_window, ["bounded"], budget=30)["bounded"].verdict != "no"


class TestASignSymPyReadOffAnExactZero:
    """Found by a twenty-third hostile review: SymPy decided sign(d) = 1, sign(d) > 0 and d**2 > 0 for d = log2(9) - 2 log2(3),
    which is exactly 0, from an insignificant two-digit evaluation; the exact run and every form took the same wrong branch,
    and 12 false "yes" (all k) followed. SymPy's signs of numbers are irprops' certified ones now."""

    def test_sympy_decides_signs_of_numbers_by_certified_signs(self) -> None:
        from irprops.metrics import certified
        from irprops.metrics.exact import log2

        d = log2(9) - 2 * log2(3)
        assert certified()
        assert sympy.sign(d) == 0 and (d**2 > 0) is sympy.false and (d**2).is_positive is False
        assert (log2(3) > 1) is sympy.true and sympy.sign(log2(3) - 1) == 1

    @pytest.mark.parametrize("name", list(adv.SIGN_OF_ZERO))
    def test_the_exact_run_is_the_metric_as_written(self, name: str) -> None:
        from irprops.metrics import Undefined

        measure, _, _ = adv.SIGN_OF_ZERO[name]
        one, zero = adv.Fraction(1), adv.Fraction(0)
        cases = [((), 1, ()), ((one,), 1, (one,)), ((zero, one), 2, (one, one)), ((one,) * 3, 249, (one,) * 3),
                 ((one,) * 3, 250, (one,) * 3), ((zero, one), 251, (one,))]
        for ranking, k, qrels in cases:
            truth = adv.sign_of_zero_truth(ranking, k, qrels, name)
            found = measure.exact(Situation(ranking, k, qrels))
            assert (truth is None) == isinstance(found, Undefined), (k, found)
            assert truth is None or found == truth, (k, found, truth)

    @pytest.mark.parametrize("name", list(adv.SIGN_OF_ZERO))
    def test_no_false_property_is_proved(self, name: str) -> None:
        from irprops.proofs import Proof, prove

        measure, false_properties, depth = adv.SIGN_OF_ZERO[name]
        for prop in false_properties:
            found = prove(measure, prop)  # type: ignore[arg-type]
            assert not (covers(found, depth) and isinstance(found, Proof) and found.conclusion == "yes"), (prop, found)


class TestADivisorWhoseSignCannotBeCertified:
    """Found by a twenty-fourth hostile review: a divisor exactly 0 that no interval shows 0 (a nested radical) was taken as
    nonzero by the strict exact run, so a metric with no value anywhere was scored, and the search built two false "no"."""

    def test_the_exact_run_cannot_say_and_says_so(self) -> None:
        with pytest.raises(InputError, match="irprops cannot certify that .* is nonzero"):
            adv.nested_radical_zero.exact(Situation((adv.Fraction(1),), 1, (adv.Fraction(1),)))

    def test_the_check_says_so_in_one_line(self) -> None:
        result = CliRunner().invoke(main, ["check", f"{Path(adv.__file__)}:nested_radical_zero", "monotonic", "--json"])
        assert result.exit_code == 2 and "cannot certify" in json.loads(result.stdout)["error"], result.output

    def test_a_logarithm_of_a_large_semiprime_is_factored_within_a_bound(self) -> None:
        from irprops.metrics.exact import formally_zero

        semiprime = sympy.nextprime(10**39) * sympy.nextprime(10**40)  # factoring it in full took minutes
        assert formally_zero((sympy.log(9) - 2 * sympy.log(3)) * sympy.log(semiprime))
        assert not formally_zero(sympy.log(semiprime) - sympy.log(semiprime - 1))

    def test_a_root_of_such_a_number_is_refused_for_its_sign_not_by_a_recursion(self) -> None:
        result = CliRunner().invoke(main, ["check", f"{Path(adv.__file__)}:root_of_a_radical_zero", "monotonic", "--json"])
        error = json.loads(result.stdout)["error"]
        assert result.exit_code == 2 and "cannot certify that" in error and "is nonnegative" in error, result.output

    def test_sympy_asks_the_sign_of_one_plus_its_root_without_recursing(self) -> None:
        d = sympy.sqrt(2) + sympy.sqrt(3) - sympy.sqrt(5 + 2 * sympy.sqrt(6))
        assert (1 + sympy.sqrt(d)).is_positive is None and (2 + sympy.sqrt(2)).is_positive is True


class TestCodeSymPyCompilesFromItsOwnTemplates:
    """Round 24 (lesser): SymPy's polynomial arithmetic builds its monomial operations with exec, under the file name
    <string>; the watcher took that code for the formula's own and refused what SymPy did on the formula's behalf."""

    def test_sympys_monomial_operations_are_sympys_code(self) -> None:
        from sympy.polys.monomials import MonomialOps

        for operation in (MonomialOps(7).mul(), MonomialOps(7).mulpow(), MonomialOps(7).lcm()):
            assert formula_language.genuine(operation.__code__, operation.__globals__), operation

    def test_a_proposals_own_text_through_the_same_compiler_stays_the_proposals(self) -> None:
        from sympy.polys.monomials import MonomialOps

        smuggled = MonomialOps(7)._build("def g(i):\n    return 3 if isinstance(i, int) else 1", "g")
        assert not formula_language.genuine(smuggled.__code__, smuggled.__globals__)

    def test_a_proposals_text_filled_in_by_sympys_own_method_stays_the_proposals(self) -> None:
        """Round 25 A: an instance's own _vars put the proposal's text into SymPy's template."""
        from sympy.polys.monomials import MonomialOps

        text = 'q,) = (0,)\n    c = 10 if A[0] >= 10 else 1\n    return (c,)\n    """'  # the rest of the template: a string
        ops = MonomialOps(17)
        ops._vars = lambda name: [text] if name == "a" else ["(b0"]  # type: ignore[method-assign]
        smuggled = ops.mul()
        assert smuggled((12,), (0,)) == (10,)  # the proposal's branch, compiled by SymPy's method
        assert not formula_language.genuine(smuggled.__code__, smuggled.__globals__)

    def test_code_a_proposal_compiles_itself_stays_the_proposals(self) -> None:
        namespace: dict[str, Any] = {"__name__": "sympy.polys.monomials"}
        exec("def monomial_mul(A, B):\n    return A", namespace)  # noqa: S102 (the test's point)
        assert not formula_language.genuine(namespace["monomial_mul"].__code__, namespace)


class TestARefusalWhereOnlyOneFormHasAValue:
    def test_names_the_form_without_a_value_and_its_condition(self) -> None:
        result = CliRunner().invoke(main, ["check", f"{Path(adv.__file__)}:half_power_of_minus_one", "monotonic", "--json"])
        error = json.loads(result.stdout)["error"]
        assert result.exit_code == 2, result.output
        assert "the closed form has none: sympy.Pow with an exponent that may not be an integer" in error, error
        assert "please report" not in error and "sympy.Mod(m.k, 2)" in error, error


class TestAnUndeclaredParameter:
    def test_is_refused_in_one_line_naming_the_declared_ones_and_how_to_declare_it(self) -> None:
        result = CliRunner().invoke(main, ["check", f"{Path(adv.__file__)}:undeclared_parameter", "monotonic", "--json"])
        error = json.loads(result.stdout)["error"]
        assert result.exit_code == 2, result.output
        assert error.startswith("m.param = 'q': the metric declares no parameter of that name (declared: none)"), error
        assert "params=(irprops.metrics.Param('q'" in error and "KeyError" not in error, error


class TestLibraryCodeCompiledFromText:
    """Session 26, by hand: SymPy's Mod of a number calls int(), which runs mpmath's arithmetic (compiled from templates at
    import) and parses text; the watcher took mpmath's code, and the module code of SymPy's own templates, for the
    formula's, and refused with a reason about the formula ("a write into an object")."""

    def test_mpmaths_arithmetic_is_mpmaths_code(self) -> None:
        from mpmath import ctx_mp_python

        for name in ("__add__", "__mul__", "__eq__", "__truediv__"):
            method = getattr(ctx_mp_python._mpf, name)
            assert formula_language.genuine(method.__code__, method.__globals__), name

    def test_code_a_proposal_compiles_into_mpmaths_namespace_stays_the_proposals(self) -> None:
        from mpmath import ctx_mp_python

        defined: dict[str, Any] = {}
        exec("def __mul__(self, other):\n    return 3 if isinstance(other, int) else 1", vars(ctx_mp_python), defined)  # noqa: S102
        assert not formula_language.genuine(defined["__mul__"].__code__, vars(ctx_mp_python))

    def test_the_module_code_of_sympys_templates_is_sympys(self) -> None:
        from sympy.polys.monomials import MonomialOps

        from irprops.metrics.watching import watching

        with watching() as seen:
            MonomialOps(23).mul()  # exec runs the template's module code, which defines the function
        assert [found for found in seen if "<module>" in found[1]] == []  # (this test's own calls are watched too)

    def test_text_a_library_parses_is_named_as_code_it_compiled_from_text(self) -> None:
        from sympy.parsing.sympy_parser import parse_expr

        from irprops.metrics.watching import watching

        with watching() as seen:
            parse_expr("1 + 2")  # what int() of such a number reached before int() was certified (nsimplify parses text)
        assert any(kind == "compiled" and "`sympy.parsing.sympy_parser.parse_expr` compiled from text" in where
                   for _, where, kind in seen), seen

    def test_mod_of_a_number_that_may_be_an_integer_is_refused_as_such_in_one_line(self) -> None:
        """int() is certified now (round 27): it no longer asks nsimplify, so the formula meets no parsed text; the Mod
        it cannot decide (1 + d is exactly 1, and no interval shows it) is what it is refused for."""
        result = CliRunner().invoke(main, ["check", f"{Path(adv.__file__)}:mod_by_a_radical_one", "bounded", "--json"])
        error = json.loads(result.stdout)["error"]
        assert result.exit_code == 2 and "\n" not in error, result.output
        assert "leaves sympy.Mod of a number unevaluated" in error and "inside the formula" not in error, error

    def test_sympys_max_of_a_number_it_cannot_evaluate_suggests_m_max(self) -> None:
        result = CliRunner().invoke(main, ["check", f"{Path(adv.__file__)}:max_with_a_hidden_zero", "bounded", "--json"])
        error = json.loads(result.stdout)["error"]
        assert result.exit_code == 2 and "not comparable" in error and "use m.min and m.max" in error, error

    def test_m_max_decides_with_the_certified_sign(self) -> None:
        ranking = (adv.Fraction(1), adv.Fraction(0), adv.Fraction(1))
        from irprops.metrics.exact import formally_zero

        score = adv.m_max_with_a_hidden_zero.exact(Situation(ranking, 3, (adv.Fraction(1), adv.Fraction(1))))
        assert formally_zero(score - sympy.Rational(5, 8))  # max(d, 0) is d or 0: both are 0


class TestALogarithmOfANumber:
    """SymPy divides by I inside log(n) (log.eval asks n.as_coefficient(I)); the strict run refused I as a divisor whose
    sign it cannot certify, so every sympy.log of a number SymPy had not cached was refused (round 25, found by hand)."""

    def test_the_exact_run_scores_a_logarithm_sympy_has_not_cached(self) -> None:
        sympy.core.cache.clear_cache()
        for k in (1, 2, 3):
            relevant = Situation(tuple([adv.Fraction(1)] * k), k, tuple([adv.Fraction(1)] * k))
            assert adv.precision_over_a_logarithm.exact(relevant) == 1 / sympy.log(k + 7919)

    def test_a_number_written_with_i_is_judged_by_its_parts(self) -> None:
        from irprops.metrics.exact import breaks, log2

        zero = log2(9) - 2 * log2(3)
        assert breaks(sympy.I, "nonzero") is False and breaks(sympy.I * zero, "nonzero") is True
        assert breaks(sympy.log(-4), "positive") is True and breaks(sympy.log(-4), "nonzero") is False
        assert breaks(2 + sympy.I * zero, "positive") is False


class TestAConditionTheFormsCannotWrite:
    """A binomial's top argument must be >= 0: at k = 1 the form at that depth says no value, as the exact run does, and
    the closed form, which cannot write the condition k >= 250 as a denominator, is refused with that condition named."""

    def test_the_form_at_a_depth_where_the_condition_fails_has_no_value(self) -> None:
        form = adv.binomial_factor.symbolic(1)
        assert any(d == 0 for d, _ in form.denominators) and not form.unmodelled

    def test_the_refusal_names_the_condition(self) -> None:
        result = CliRunner().invoke(main, ["check", f"{Path(adv.__file__)}:binomial_factor", "bounded", "--json"])
        error = json.loads(result.stdout)["error"]
        assert result.exit_code == 2 and "sympy.binomial's top argument: k - 250 may not be nonnegative" in error, error
        assert "please report" not in error


class TestTheIntegerPartOfANumberNextToAnInteger:
    """Found by a twenty-fifth hostile review: SymPy's floor and ceiling returned the nearest integer for a number within
    about 2^-350 of one, so floor(3 - 2.8e-400) was 3, every run and form used the wrong weight alike, and three false
    properties were proved for all k."""

    def test_the_number_is_between_2_and_3_by_an_interval_of_4000_bits(self) -> None:
        import mpmath

        previous, mpmath.iv.prec = mpmath.iv.prec, 4000
        try:
            c = 3 + mpmath.iv.log(3) / mpmath.iv.log(2) - mpmath.iv.mpf(adv.NEAR_THREE_P) / adv.NEAR_THREE_Q
        finally:
            mpmath.iv.prec = previous
        assert 2 < c.a and c.b < 3

    def test_floor_and_ceiling_are_certified(self) -> None:
        from irprops.metrics.exact import log2

        c = 3 + log2(3) - sympy.Rational(adv.NEAR_THREE_P, adv.NEAR_THREE_Q)
        assert (sympy.floor(c), sympy.ceiling(c), sympy.floor(-c), sympy.ceiling(-c)) == (2, 3, -3, -2)
        assert (sympy.floor(log2(9) / log2(3)), sympy.ceiling(log2(9) - 2 * log2(3))) == (2, 0)  # integers, written otherwise
        assert sympy.floor(10**30 * sympy.sqrt(2)) == 1414213562373095048801688724209

    def test_the_exact_run_is_the_metric_as_written(self) -> None:
        for ranking, k in (("1", 1), ("11", 1), ("11", 2), ("01", 2), ("10", 2)):
            situation = Situation.of(ranking, k=k)
            assert adv.floor_gate.exact(situation) == adv.floor_gate_truth(situation.ranking, k, situation.qrels)

    @pytest.mark.parametrize("prop", ["monotonic", "convergent", "top_weighted"])
    def test_no_false_property_is_proved(self, prop: str) -> None:
        from irprops.proofs import Proof, prove

        found = prove(adv.floor_gate, prop)  # type: ignore[arg-type]
        assert not (covers(found, 2) and isinstance(found, Proof) and found.conclusion == "yes"), found


class TestTheIntegerPartThatModTakes:
    """Found by a twenty-seventh hostile review: SymPy's int() of a number it cannot tell from an integer is the integer
    below (int(3 + 2^-4088) was 2), and Mod and % use it."""

    def test_is_certified_or_refused_never_guessed(self) -> None:
        x = 3 + sympy.log(adv.NEAR_THREE_LOG + 1845) - sympy.log(adv.NEAR_THREE_LOG)
        with pytest.raises(TypeError, match="not certified"):
            int(x)
        assert isinstance(sympy.Mod(x, 1), sympy.Mod)  # left unevaluated, not 1 + (x - 3)
        y = 3 + sympy.log(2**100 + 1) - sympy.log(2**100)  # 3 + 2^-100: certified
        assert (int(y), int(-y), sympy.Mod(y, 1) == y - 3) == (3, -3, True)
        assert (int(10 * sympy.sqrt(2)), int(-10 * sympy.sqrt(2)), int(sympy.sqrt(4) + sympy.sqrt(9))) == (14, -14, 5)

    def test_a_formula_taking_mod_of_such_a_number_is_refused_for_that_reason(self) -> None:
        result = CliRunner().invoke(main, ["check", f"{Path(adv.__file__)}:mod_of_a_number_just_above_3", "--json"])
        error = json.loads(result.stdout)["error"]
        assert result.exit_code == 2 and "leaves sympy.Mod of a number unevaluated" in error and "root" not in error, error


class TestABinomialOfANumberThatIsNotAnInteger:
    """Found by a twenty-fifth hostile review: the strict run did not check a binomial's integer conditions, so
    binomial(1/2, 2) was scored at k = 1 and a false "no" (monotonic) was built on it."""

    def test_the_metric_has_no_value_at_an_odd_depth(self) -> None:
        from irprops.metrics import Undefined

        assert isinstance(adv.binomial_of_half_the_depth.exact(Situation.of("00", k=1)), Undefined)
        assert adv.binomial_of_half_the_depth.exact(Situation.of("00", k=4)) == -1

    def test_no_no_is_built_on_a_score_that_does_not_exist(self) -> None:
        result = CliRunner().invoke(main, ["check", f"{Path(adv.__file__)}:binomial_of_half_the_depth", "monotonic", "--json"])
        assert result.exit_code == 2 and "k/2 may not be integer" in json.loads(result.stdout)["error"], result.output

    def test_a_number_within_2_to_the_minus_1000_of_an_integer_is_certified_not_to_be_one(self) -> None:
        """A twenty-sixth hostile review: c = 3 - 2.8e-400 was undecided, and the formula refused."""
        from irprops.metrics import Undefined
        from irprops.metrics.exact import breaks, log2

        c = 3 + log2(3) - sympy.Rational(adv.NEAR_THREE_P, adv.NEAR_THREE_Q)
        assert breaks(c, "integer") is True and breaks(log2(9) / log2(3), "integer") is False
        assert isinstance(adv.binomial_near_three.exact(Situation.of("10", k=2)), Undefined)

    @pytest.mark.parametrize("prop", ["monotonic", "convergent", "top_weighted", "bounded"])
    def test_a_metric_with_no_value_anywhere_gets_no_vacuous_proof(self, prop: str) -> None:
        """A twenty-seventh hostile review: such a metric was "proved" convergent and top-weighted for all k, with the lemma
        "c = binomial(c, 2) > 0" about a value the exact run says does not exist."""
        from irprops.proofs import Failed, prove

        found = prove(adv.binomial_near_three, prop)  # type: ignore[arg-type]
        assert isinstance(found, Failed) and "no value anywhere" in found.reason, found

    def test_an_integer_condition_it_cannot_decide_is_named_as_one(self) -> None:
        d = sympy.sqrt(2) + sympy.sqrt(3) - sympy.sqrt(5 + 2 * sympy.sqrt(6))  # exactly 0, and no interval shows it
        undecided = adv.proposal("binomial-of-a-radical-zero")(lambda m: sympy.binomial(3 + d, 2) * m.sum(1, m.k, m.r))
        with pytest.raises(InputError, match="may be exactly an integer.*visibly an integer"):
            undecided.exact(Situation.of("10", k=2))


class TestAnExactRunSharesOnlyTheSameFunction:
    """A thirtieth hostile review: the exact run kept partial sums and products of an inner function and served a second
    sum of the same code from them, although a helper it calls reads a variable the formula rebinds in between. Each
    proposal below computes sum_i r_i / 2^i when run as Python runs it (rebound_nowhere has no value anywhere)."""

    SITUATIONS = tuple(Situation.of("".join(bits), k=k) for n in range(1, 5) for bits in itertools.product("01", repeat=n)
                       for k in range(1, n + 1))

    @pytest.mark.parametrize("name", ["rebound_gap_product", "loop_mixture"])
    def test_its_exact_and_float_runs_score_as_python_runs_the_formula(self, name: str) -> None:
        measure = getattr(adv, name)
        for situation in self.SITUATIONS:
            truth = adv.halves_truth(situation.ranking, situation.k, situation.qrels)  # type: ignore[arg-type]
            assert measure.exact(situation) == truth, situation
            assert measure.screen(situation) == float(truth), situation

    def test_a_metric_whose_rebound_helper_leaves_it_no_value_anywhere_gets_no_value_and_no_proof(self) -> None:
        from irprops.metrics import Undefined

        assert all(isinstance(adv.rebound_nowhere.exact(s), Undefined) for s in self.SITUATIONS)
        result = check(adv.rebound_nowhere, ["bounded", "monotonic", "convergent", "top_weighted", "complete", "realizable"],
                       budget=5)  # no value anywhere: every search would run to its budget
        assert not [p for p, v in result.verdicts.items() if v.verdict == "yes"]
        assert [str(p) for p, v in result.verdicts.items() if v.verdict == "no"] == ["complete"]

    def test_no_false_no_on_the_product_served_from_an_old_value(self) -> None:
        result = check(adv.rebound_gap_product, ["convergent", "top_weighted"], budget=SELF_CHECKED)
        assert [v.verdict for v in result.verdicts.values()] == ["yes", "yes"]  # sum_i r_i / 2^i: proved, no witness

    def test_a_loop_over_two_weightings_is_not_refused(self) -> None:
        result = check(adv.loop_mixture, ["top_weighted"], budget=SELF_CHECKED)
        assert result["top_weighted"].verdict == "yes"  # sum_i r_i / 2^i

    @pytest.mark.parametrize(("name", "truth", "k", "relevant"), [
        ("prefix_rebound_at_250", "harmonic_truth", 251, (250, 251)),
        ("prefix_rebound_at_7", "harmonic_truth", 8, (6, 7, 8)),
        ("prefix_filled_then_rebound", "halves_truth", 201, range(1, 202)),
    ])
    def test_a_prefix_sum_asks_its_function_afresh_after_the_formula_rebinds_what_it_reads(
            self, name: str, truth: str, k: int, relevant: Any) -> None:
        measure, oracle = getattr(adv, name), getattr(adv, truth)
        for at in relevant:
            situation = Situation(tuple(adv.Fraction(int(i == at)) for i in range(1, k + 2)), k, (adv.Fraction(1),))
            assert measure.exact(situation) == oracle(situation.ranking, k, situation.qrels), (name, at)
        everything = Situation((adv.Fraction(1),) * k, k, (adv.Fraction(1),) * k)
        assert measure.exact(everything) == oracle(everything.ranking, k, everything.qrels)

    @pytest.mark.parametrize("name", ["prefix_summed_twice", "prefix_of_itself", "prefix_of_itself_over_a_number"])
    def test_a_sum_over_a_prefix_is_kept_only_while_the_prefix_computes_the_same_function(self, name: str) -> None:
        measure, oracle = getattr(adv, name), getattr(adv, f"{name}_truth")
        for k, ranking in ((3, "1100"), (8, "10110101"), (200, "1" * 201)):
            situation = Situation.of(ranking, k=k)
            assert measure.exact(situation) == oracle(situation.ranking, k, situation.qrels), (name, k)

    def test_a_prefix_sum_rebound_below_depth_8_is_not_refuted_on_top_weightedness(self) -> None:
        # it was: "no" with 00000001 at k = 8, swap 6 <-> 8 (1/8 -> 1/6 as written: a rise, no counterexample)
        verdict = check(adv.prefix_rebound_at_7, ["top_weighted"], budget=SELF_CHECKED)["top_weighted"]
        assert verdict.verdict == "yes", verdict.evidence

    def test_a_prefix_sum_filled_with_a_growing_weight_then_rebound_is_bounded_as_written(self) -> None:
        # as written the metric is sum_j r_j / 2^j; the exact run computed 20302 - 2^-201 at k = 201 with the old weight
        verdict = check(adv.prefix_filled_then_rebound, ["bounded"], budget=SELF_CHECKED)["bounded"]
        assert verdict.verdict == "yes" and "0 <= score <= c * sum_{i<=k} w(i) <= c * 1" in verdict.evidence, verdict.evidence

    def test_two_helpers_of_one_code_that_differ_in_their_attributes_are_different_functions(self) -> None:
        half, one, zero = adv.Fraction(1, 2), adv.Fraction(1), adv.Fraction(0)
        for ranking in ((zero, zero, half), (half, one, half, half), (zero, zero, half, half, zero)):
            for k in range(1, len(ranking) + 1):
                situation = Situation(ranking, k, tuple(g for g in ranking if g))
                truth = adv.attributes_apart_truth(ranking, k, situation.qrels)
                assert adv.attributes_apart.exact(situation) == truth and adv.attributes_apart.screen(situation) == float(truth)
        result = settled(adv.attributes_apart, adv.attributes_apart_truth, ["monotonic"])
        assert result["monotonic"].verdict != "no"
