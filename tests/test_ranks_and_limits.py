"""The forms at a concrete depth are the metric for every R, and a rank below 1 reads 0 in every form.

A fifth hostile review found that a sum up to R was written out to rank k only at a concrete depth (so the
"proofs for k <= K" were about another metric), and that ``m.g(0)`` and ``m.r_sorted(0)`` were 1 in the symbolic
forms where the exact run has 0. The proposals and their truths are in tests/adversarial_proposals.py.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
import sympy

from irprops import Measure, check
from irprops.metrics import NotExpressible, Situation, parse
from irprops.proofs import prove
from irprops.proofs.bounded import bounded_proof
from irprops.verdicts import Prop
from tests import adversarial_proposals as adv
from tests.helpers import covers

ZERO, ONE = Fraction(0), Fraction(1)


def _s(m: Any) -> Any:
    return m.sum(1, m.k, lambda i: m.r(i) / (i * (i + 1)))


class TestTheOraclesAgree:
    @pytest.mark.parametrize(("measure", "oracle"), [
        (adv.sum_to_r, adv.sum_to_r_truth), (adv.tail_to_r, adv.tail_to_r_truth), (adv.g_of_rank_0, adv.rank_0_truth),
        (adv.r_sorted_of_rank_0, adv.rank_0_truth), (adv.r_of_rank_0, adv.rank_0_truth),
    ])
    @pytest.mark.parametrize("k", [1, 2, 5, 1500, 1501])
    def test_on_rankings_with_r_far_above_k(self, measure: Measure, oracle: Any, k: int) -> None:
        for ranking in ((ZERO,) * (k + 1), (ZERO,) * 50 + (ONE, ZERO), (ONE,) * (k + 1)):
            for R in (len([g for g in ranking if g]), 51, k + 60):
                own = tuple(g for g in ranking if g)
                qrels = own + (ONE,) * (R - len(own))
                assert measure.exact(Situation(ranking, k, qrels)) == oracle(ranking, k, qrels), (k, R)


class TestASumUpToRAtAConcreteDepth:
    def test_is_not_written_out_to_rank_k_only(self) -> None:
        with pytest.raises(NotExpressible, match="may pass the depth"):
            adv.sum_to_r.symbolic(3)

    def test_up_to_min_k_r_is_written_out(self) -> None:  # RPrec sums up to min(k, R)
        form = parse("RPrec").symbolic(3)
        assert form.expr.has(form.R) and len(form.expr.atoms(sympy.Piecewise)) == 3

    @pytest.mark.parametrize(("measure", "prop"), [(adv.sum_to_r, Prop.MONOTONIC), (adv.tail_to_r, Prop.CONVERGENT),
                                                   (adv.tail_to_r, Prop.MONOTONIC)])
    def test_no_proof_covers_depth_1_where_the_property_fails(self, measure: Measure, prop: Prop) -> None:
        assert not covers(bounded_proof(measure, prop), 1)
        assert not covers(prove(measure, prop), 1)


class TestARankBelow1ReadsZero:
    @pytest.mark.parametrize("measure", [adv.g_of_rank_0, adv.r_sorted_of_rank_0, adv.r_of_rank_0])
    def test_monotonicity_is_not_proved_past_depth_1500(self, measure: Measure) -> None:
        assert not covers(prove(measure, Prop.MONOTONIC), 1501)

    @pytest.mark.parametrize("measure", [adv.g_of_rank_0, adv.r_sorted_of_rank_0, adv.r_of_rank_0])
    def test_the_closed_form_is_the_exact_score_at_depth_1501(self, measure: Measure) -> None:
        form = measure.closed_form()
        assert form is not None
        situation = Situation((ZERO,) * 1501, 1501, ())
        assert form.at(situation) == measure.exact(situation) == -1

    def test_completeness_is_not_proved_where_the_divisor_vanishes_past_depth_1500(self) -> None:
        assert not covers(prove(adv.g_of_rank_0_divides, Prop.COMPLETE), 1501)
        assert adv.g_of_rank_0_divides.exact(Situation((ZERO,) * 1501, 1501, ())).__class__.__name__ == "Undefined"


class TestWhereFloatsFailTheExactValueScreens:
    @pytest.mark.parametrize(("name", "formula"), [
        ("huge", lambda m: _s(m) * m.num(10**400) / m.num(10**400)),
        ("log2-of-0", lambda m: m.div(m.sum(1, m.k, m.r), m.k + m.log2(m.k - 1), "log2(k - 1)")),
        ("sqrt-normaliser", lambda m: m.div(m.sum(1, m.k, m.r), 1 + sympy.sqrt(2) * m.k, "never")),
    ])
    def test_a_check_prints_its_verdicts(self, name: str, formula: Any) -> None:
        result = check(adv.proposal(name)(formula), ["monotonic", "complete"], budget=30)
        assert {v.verdict for v in result.verdicts.values()} <= {"yes", "no", "unknown"}
        assert result["monotonic"].verdict != "unknown" or name == "huge"
