"""Weights that clamp the rank, as DCG-b's log2(max(i, b)) does: decided for every k, and only where the clamp is exact.

From rank c on, max(c, i) is i and min(c, i) is c, so such a weight is smooth there and the
ranks below c add a finite head to every sum: its series converges exactly when the tail's does.
"""

from __future__ import annotations

from fractions import Fraction

import sympy

from irprops import check
from irprops.metrics import compare, score
from irprops.metrics.exact import log2
from irprops.proofs.signs import Weight, series, unclamped
from tests.helpers import SELF_CHECKED

i = sympy.Symbol("i", integer=True, positive=True)


class TestTheClampIsReadExactly:
    def test_a_maximum_is_the_rank_from_the_clamp_on(self) -> None:
        assert unclamped(Weight(1 / log2(sympy.Max(3, i)), i)) == (1 / log2(i), 3)

    def test_a_minimum_is_the_clamp_from_the_clamp_on(self) -> None:
        assert unclamped(Weight(sympy.Min(3, i) / i**3, i)) == (3 / i**3, 3)

    def test_a_clamp_at_a_symbol_or_of_another_expression_is_not_read(self) -> None:
        c = sympy.Symbol("c", positive=True)
        assert unclamped(Weight(1 / sympy.Max(c, i) ** 2, i)) is None
        assert unclamped(Weight(1 / sympy.Max(3, i + 1) ** 2, i)) is None

    def test_the_logarithm_of_a_maximum_above_one_is_positive_and_of_a_minimum_that_may_be_one_is_not_known(self) -> None:
        assert log2(sympy.Max(2, i)).is_positive is True
        assert log2(sympy.Min(2, i)).is_positive is None  # 0 at i = 1


class TestTheSeriesOfAClampedWeight:
    def test_dcg_b_weights_diverge_like_the_harmonic_series(self) -> None:
        assert series(Weight(1 / log2(sympy.Max(2, i)), i)).bounded is False

    def test_a_clamped_inverse_square_converges(self) -> None:
        assert series(Weight(1 / sympy.Max(2, i) ** 2, i)).bounded is True

    def test_a_clamp_at_rank_forty_keeps_forty_equal_weights_and_still_diverges(self) -> None:
        assert series(Weight(1 / sympy.Max(40, i), i)).bounded is False

    def test_a_clamp_with_a_convergent_tail_and_a_large_head_converges(self) -> None:
        assert series(Weight(sympy.Min(150, i) / i**3, i)).bounded is True


class TestDcgBIsDecidedForEveryK:
    def test_at_b_2_every_cell_is_settled_as_dcg_is_except_top_weightedness(self) -> None:
        result = check("DCG-b", budget=SELF_CHECKED)
        verdicts = {p: v.verdict for p, v in result.verdicts.items()}
        assert verdicts == {"bounded": "no", "monotonic": "yes", "convergent": "yes", "top_weighted": "no", "localized": "yes",
                            "complete": "yes", "realizable": "no"}
        assert all(v.proof.reach.all_k for v in result.verdicts.values() if v.verdict == "yes")  # type: ignore[union-attr]
        # ranks 1 and 2 weigh 1 each at b = 2: the swap leaves the score unchanged
        assert result["top_weighted"].witness is not None and result["top_weighted"].witness.data["k"] == 2

    def test_at_b_40_unboundedness_is_proved_and_holds_exactly(self) -> None:
        result = check("DCG-b(b=40)", budget=SELF_CHECKED)
        assert result["bounded"].verdict == "no" and result["bounded"].settled_by_proof
        # forty ranks of weight 1, then 1/log_40(i): the all-relevant ranking passes 50 at depth 51 (40 + 11 log2(40)/log2(i))
        assert compare(score("DCG-b(b=40)@51", "1" * 51).exact, Fraction(50)) == 1
        assert score("DCG-b(b=40)@40", "1" * 40).exact == 40
