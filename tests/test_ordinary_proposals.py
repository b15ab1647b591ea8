"""Declared proposals of ordinary shapes get every true cell proved for all k, and every false one refuted.

The shapes (tests/ordinary_proposals.py) are the ones issue 10 lists: ERR's product over earlier
ranks, Q-measure's min(i, R), a rank-1 term added outside a sum, a constant written as a ratio,
harmonic weights normalised by hand, MAP@k over min(k, R), NDCG with a shifted discount, RBP
written out. Their verdicts were worked out by hand (the comments there); each "no" is re-checked
on the proposal's independent oracle, never on irprops' own forms.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import pytest
import sympy

from irprops import check
from irprops.metrics import Measure, Situation, Undefined, compare
from irprops.proofs import Proof, prove
from irprops.proofs.constant import constant
from irprops.proofs.signs import Weight, decreasing, exceptions, series
from irprops.proofs.structure import prepare
from tests import ordinary_proposals as ordinary
from tests.adversarial_proposals import proposal
from tests.helpers import SELF_CHECKED
from tests.recheck import recheck

NAMES = sorted(ordinary.TRUTH)


def measure_and_oracle(name: str) -> tuple[Measure, Any]:
    return getattr(ordinary, name), getattr(ordinary, f"{name}_truth")


def situations() -> list[tuple[tuple[Fraction, ...], int, tuple[Fraction, ...]]]:
    """Binary and graded rankings of length 7, at depths 1..6 and 20, with their own relevant documents and one more."""
    found = []
    grades = (Fraction(0), Fraction(1, 2), Fraction(1))
    for ranking in itertools.product(grades, repeat=5):
        for k in (1, 2, 3, 4, 5, 6, 20):
            padded = ranking + (Fraction(0),) * max(0, k + 1 - len(ranking))
            own = tuple(sorted((g for g in ranking if g), reverse=True))
            found += [(padded, k, own), (padded, k, (*own, Fraction(1)))]
    return found


class TestTheOraclesAgreeWithTheDeclarations:
    @pytest.mark.parametrize("name", NAMES)
    def test_on_every_ranking_of_length_5_over_three_grades(self, name: str) -> None:
        measure, oracle = measure_and_oracle(name)
        binary = measure.metric.relevance == "binary"
        for ranking, k, qrels in situations():
            if binary and any(g not in (0, 1) for g in (*ranking, *qrels)):
                continue
            value, truth = measure.exact(Situation(ranking, k, qrels)), oracle(ranking, k, qrels)
            assert (truth is None) == isinstance(value, Undefined), (ranking, k, qrels)
            if truth is not None:
                assert compare(value, truth) == 0, (ranking, k, qrels, value, truth)  # type: ignore[arg-type]


@pytest.mark.slow
class TestEveryCellIsSettledAsWorkedOutByHand:
    @pytest.mark.parametrize("name", NAMES)
    def test_the_profile(self, name: str) -> None:
        measure, oracle = measure_and_oracle(name)
        result = check(measure, budget=SELF_CHECKED)
        for prop, verdict in result.verdicts.items():
            if verdict.verdict == "no":
                assert verdict.witness is not None and recheck(oracle, prop, dict(verdict.witness.data)), (prop, verdict.evidence)
            if verdict.verdict == "yes":
                assert verdict.method == "proof (all k)" and not verdict.proof.withdrawn, (prop, verdict.evidence)  # type: ignore[union-attr]
        assert {p: v.verdict for p, v in result.verdicts.items()} == ordinary.TRUTH[name]


class TestProofsOfTheShapes:
    """The proofs alone (no search), for every k."""

    @pytest.mark.parametrize(("name", "prop"), [
        ("q_measure", "bounded"), ("q_measure", "monotonic"), ("q_measure", "convergent"), ("q_measure", "top_weighted"),
        ("rank_one_half", "bounded"), ("rank_one_half", "top_weighted"), ("rank_one_bonus", "localized"),
        ("one", "monotonic"), ("one", "realizable"), ("err", "realizable"),
    ])
    def test_is_proved_for_every_k(self, name: str, prop: str) -> None:
        found = prove(getattr(ordinary, name), prop)
        assert isinstance(found, Proof) and found.conclusion == "yes" and found.reach.all_k, found

    def test_an_unbounded_sum_with_a_separate_rank_1_term_is_proved_unbounded(self) -> None:
        found = prove(ordinary.rank_one_bonus, "bounded")
        assert isinstance(found, Proof) and found.conclusion == "no" and found.witness is not None
        assert recheck(ordinary.rank_one_bonus_truth, "bounded", dict(found.witness.data))

    def test_a_rank_1_term_is_the_weight_at_rank_1(self) -> None:
        i = sympy.Symbol("i", integer=True, positive=True)
        w = Weight(sympy.Piecewise((sympy.Rational(1, 2) + 1 / (2 * i * (i + 1)), sympy.Eq(i, 1)), (1 / (2 * i * (i + 1)), True)), i)
        assert exceptions(w) is not None and decreasing(w) is not None
        assert series(w).bound == 1  # 1/2 from the rank-1 term, 1/2 from the sum


class TestWhatTheShapesMustNotProve:
    """Adversarial variants of the same shapes, each with its counterexample worked out by hand."""

    def test_a_rank_1_penalty_that_makes_rank_2_weigh_more_is_not_top_weighted(self) -> None:
        # sum b_i / i - (3/4) b_1: the weights are 1/4, 1/2, 1/3, ...; "01" at k = 2 scores 1/2, "10" 1/4
        penalty = proposal("rank-one-penalty")(lambda m: m.sum(1, m.k, lambda i: m.r(i) / i) - m.r(1) * 3 / 4)
        assert not isinstance(prove(penalty, "top_weighted"), Proof)
        assert isinstance(prove(penalty, "convergent"), Proof)  # every weight is still positive

    def test_a_rank_5_term_outside_the_sum_is_a_read_below_k(self) -> None:
        # b_5 + sum_{i<=k} b_i: at k = 1 it reads rank 5, below the depth (not localized: "1" then "00001" or "00000")
        reads_rank_5 = proposal("reads-rank-5")(lambda m: m.r(5) + m.sum(1, m.k, m.r))
        assert not isinstance(prove(reads_rank_5, "localized"), Proof)
        assert not isinstance(prove(reads_rank_5, "convergent"), Proof)

    def test_a_ratio_that_is_undefined_at_k_1_is_not_a_constant(self) -> None:
        # (sum_{2<=i<=k} 1) / (k - 1) is 1 for k >= 2 and undefined at k = 1: not complete, not a constant
        almost_one = proposal("almost-one")(lambda m: m.div(m.sum(2, m.k, lambda i: 1), m.k - 1, "k = 1"))
        assert constant(prepare(almost_one)) is None  # type: ignore[arg-type]
        assert not isinstance(prove(almost_one, "complete"), Proof)

    def test_q_measure_without_the_rank_in_its_denominator_is_not_bounded_by_1(self) -> None:
        # (1/R) sum b_i 2 C(i) / min(i, R): "1" at k = 1 with R = 1 scores 2
        doubled = proposal("Q-doubled")(
            lambda m: m.div(m.sum(1, m.k, lambda i: m.r(i) * 2 * m.prefix_sum(m.r)(i) / m.min(i, m.R)), m.R, "R = 0"))
        found = prove(doubled, "bounded")
        assert not (isinstance(found, Proof) and found.conclusion == "yes")
        assert doubled.exact(Situation.of("1", R=1)) == 2
