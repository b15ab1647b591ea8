"""A formula that reads unjudged marks is searched over unjudged documents and proved with a mark per rank.

The proposals and their truths are in tests/unjudged_proposals.py; every "no" is re-checked on
the independent oracle, never on irprops' forms.
"""

from __future__ import annotations

from typing import Any

import pytest

from irprops import Measure, check
from irprops.metrics import Situation, parse
from irprops.proofs import Proof
from irprops.proofs import bounded as bounded_module
from irprops.proofs.bounded import bounded_proof
from irprops.verdicts import Prop
from tests import unjudged_proposals as uj
from tests.helpers import covers, settled


class TestTheOraclesAgreeWithTheDeclarations:
    @pytest.mark.parametrize(("measure", "oracle"), [
        (uj.penalty_for_unjudged_top, uj.penalty_for_unjudged_top_truth),
        (uj.unjudged_bonus_from_7, uj.unjudged_bonus_from_7_truth),
        (uj.penalised_harmonic_gain, uj.penalised_harmonic_gain_truth),
        (uj.harmonic_with_unjudged_top_bonus_from_7, uj.harmonic_with_unjudged_top_bonus_from_7_truth),
    ])
    def test_on_every_ranking_of_0_1_and_unjudged_of_length_9_at_depths_1_to_8(self, measure: Measure, oracle: Any) -> None:
        entries = (uj.Fraction(0), uj.Fraction(1), None)
        for n in range(0, 3**9, 7):
            ranking = tuple(entries[(n // 3**b) % 3] for b in range(9))
            own = tuple(g for g in ranking if g)
            for k in range(1, 9):
                assert measure.exact(Situation(ranking, k, own)) == oracle(ranking, k, own), (k, ranking)


class TestWhatTheSearchSees:
    def test_only_a_formula_that_reads_marks_is_searched_over_unjudged_documents(self) -> None:
        assert uj.penalty_for_unjudged_top.reads_unjudged() and uj.mark_at_rank_r.reads_unjudged()
        assert not any(parse(name).reads_unjudged() for name in ("P", "AP", "nDCG", "RBP(p=0.8)"))

    def test_an_unjudged_document_at_k_that_earns_a_bonus_is_the_minimal_witness_against_convergence(self) -> None:
        result = settled(uj.unjudged_bonus_from_7, uj.unjudged_bonus_from_7_truth, ["convergent"])
        witness = result["convergent"].witness
        assert witness is not None and witness.data["k"] >= 7 and witness.data["ranking"][witness.data["k"] - 1] == "?"

    def test_an_extension_by_an_unjudged_document_refutes_monotonicity_of_a_penalised_gain(self) -> None:
        result = settled(uj.penalised_harmonic_gain, uj.penalised_harmonic_gain_truth, ["monotonic"])
        witness = result["monotonic"].witness
        assert witness is not None and (witness.data["k"], witness.data["ranking"]) == (1, ["0", "?"])


    def test_a_metric_undefined_below_an_unjudged_next_rank_is_not_localized_by_a_weak_witness(self) -> None:
        verdict = check(uj.undefined_below_an_unjudged_next, ["localized"], budget=30)["localized"]
        assert verdict.verdict == "no" and verdict.witness is not None
        assert verdict.witness.data["k"] == 1 and {tuple(verdict.witness.data[side]["ranking"]) for side in "ab"} == {("0",), ("0", "?")}


class TestTheProofsModelTheMarks:
    def test_true_swaps_are_proved_at_each_depth_with_the_marks_in_the_queries(self) -> None:
        result = settled(uj.penalised_harmonic_gain, uj.penalised_harmonic_gain_truth, ["convergent", "top_weighted"])
        for prop in ("convergent", "top_weighted"):
            verdict = result[prop]
            assert verdict.verdict == "yes" and verdict.method.startswith("proof (k <= "), (prop, verdict.evidence)
        found = bounded_proof(uj.penalised_harmonic_gain, Prop.TOP_WEIGHTED)
        assert isinstance(found, Proof)
        for query in found.obligations[0].queries:
            assert any(name.startswith("unjudged marks in {0, 1}") for name, _ in query.hypotheses), query.name

    def test_convergence_is_proved_where_a_better_document_also_lifts_a_penalty(self) -> None:
        result = settled(uj.penalty_for_unjudged_top, uj.penalty_for_unjudged_top_truth)
        assert result["convergent"].verdict == "yes" and result["top_weighted"].verdict == "no"
        assert all(v.method != "proof (all k)" for v in result.verdicts.values())

    def test_a_bonus_for_an_unjudged_document_at_k_stops_the_bounded_proof_at_depth_7(self) -> None:
        found = bounded_proof(uj.unjudged_bonus_from_7, Prop.CONVERGENT)
        assert covers(bounded_proof(uj.penalised_harmonic_gain, Prop.CONVERGENT), 6)
        assert not covers(found, 7) and "at k = 7" in getattr(found, "reason", "")

    def test_a_bonus_for_an_unjudged_top_document_stops_the_top_weighted_proof_at_depth_7(self) -> None:
        found = bounded_proof(uj.harmonic_with_unjudged_top_bonus_from_7, Prop.TOP_WEIGHTED)
        assert not covers(found, 7) and "at k = 7" in getattr(found, "reason", "")
        result = settled(uj.harmonic_with_unjudged_top_bonus_from_7, uj.harmonic_with_unjudged_top_bonus_from_7_truth,
                         ["top_weighted"])
        witness = result["top_weighted"].witness
        assert witness is not None and witness.data["k"] >= 7 and witness.data["ranking"][0] == "?"

    def test_a_mark_at_a_rank_no_depth_fixes_gets_no_proof(self) -> None:
        result = check(uj.mark_at_rank_r, budget=30)
        assert all(v.verdict != "yes" for v in result.verdicts.values())
        assert result["convergent"].verdict == "no"


class TestMutationsOfTheMarkModelAreCaught:
    """Each weakening of how the proofs model unjudged marks lets a bonus from depth 7 on be proved away."""

    def test_marks_that_stay_put_in_a_swap_prove_the_false_cell(self, monkeypatch: pytest.MonkeyPatch) -> None:
        def grades_only(self: Any, i: int, j: int) -> dict[Any, Any]:
            return {self.grade(i): self.grade(j), self.grade(j): self.grade(i)}

        monkeypatch.setattr(bounded_module._Depth, "swap", grades_only)
        assert covers(bounded_proof(uj.harmonic_with_unjudged_top_bonus_from_7, Prop.TOP_WEIGHTED), 7)

    def test_a_document_from_below_that_keeps_the_mark_it_replaces_proves_the_false_cell(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(bounded_module._Depth, "arrival", lambda self, i, better: {self.grade(i): better})
        assert covers(bounded_proof(uj.unjudged_bonus_from_7, Prop.CONVERGENT), 7)

    def test_marks_read_as_judged_prove_the_false_cell(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from irprops.metrics.symbolic import SymbolicAlgebra

        # the forms at each depth are made (and checked against the exact forms) with the true marks first, as the tests
        # before this one did in one process: made under the mutation, the check of the forms refuses them, a second
        # guard, and this test failed when it ran alone, on a worker where no earlier test had made them
        for k in range(1, bounded_module.K_TARGET + 2):
            uj.unjudged_bonus_from_7.symbolic(k)
        monkeypatch.setattr(SymbolicAlgebra, "_mark", lambda self, i: 0)
        assert covers(bounded_proof(uj.unjudged_bonus_from_7, Prop.CONVERGENT), 7)
