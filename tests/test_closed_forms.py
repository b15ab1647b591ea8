"""Closed forms for symbolic k: weights as functions of i, sums as Sum, products as Product.

A closed form, with k, R and the grades substituted and the sums expanded, must give
exactly the exact form's value. Metrics whose formula needs a maximum over k grades or
a sort of k graded values have none, and say so.
"""

from __future__ import annotations

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from irprops.metrics import REGISTRY, Undefined, compare, parse
from tests.helpers import closed_form, draw_case

WITH_CLOSED_FORM = [key for key in REGISTRY if parse(key).closed_form() is not None]


class TestWhichMetricsHaveClosedForms:
    def test_every_declared_metric_has_one(self) -> None:
        assert set(WITH_CLOSED_FORM) == set(REGISTRY)

    def test_a_maximum_and_a_graded_sort_are_opaque_until_k_is_known(self) -> None:
        assert str(closed_form("HIT")) == "MaxOver(Lambda(i, r[i]), 1, k)"
        assert "OrderStatistic(j, r, k)" in str(closed_form("SN-DCG"))

    @pytest.mark.parametrize("key", WITH_CLOSED_FORM)
    def test_the_depth_is_a_symbol_and_the_form_runs_to_it(self, key: str) -> None:
        form = closed_form(key)
        assert form.closed and isinstance(form.k, sympy.Symbol) and form.k in form.expr.free_symbols

    def test_dcg_weights_are_a_function_of_the_rank(self) -> None:
        assert str(closed_form("DCG")) == "Sum(r[i]/log2(i + 1), (i, 1, k))"

    def test_rbp_keeps_p_symbolic(self) -> None:
        assert str(closed_form("RBP")) == "(1 - p)*Sum(p**(i - 1)*r[i], (i, 1, k))"

    def test_r_precision_sums_to_the_smaller_of_k_and_r(self) -> None:
        assert str(closed_form("RPrec")) == "Sum(b[i], (i, 1, Min(R, k)))/Min(R, k)"


class TestClosedFormsAgreeWithTheExactForm:
    @pytest.mark.parametrize("key", WITH_CLOSED_FORM)
    @settings(max_examples=25)
    @given(data=st.data())
    def test_at_concrete_depths(self, key: str, data: st.DataObject) -> None:
        measure, situation = draw_case(data, key, max_length=6)
        expected = measure.exact(situation)
        got = measure.closed_form().at(situation)
        if isinstance(expected, Undefined):
            assert isinstance(got, Undefined)
        else:
            assert not isinstance(got, Undefined) and compare(got, expected) == 0
