"""A declared formula's closed form is the metric: the symbolic run and the exact run compute alike (issue 10).

The exact run scores with ``Fraction`` and ints; the symbolic run builds the closed form every proof is
about. Where a value is a number in both runs it now has the same Python type in both (``m.num``,
``m.div`` and ``m.min`` of numbers, ``m.log2`` of a number), and where SymPy would simplify away a point
at which the exact run has no value (``0 / x``, ``0 * log(x)``), the closed form either records it as a
denominator or says it cannot, and then no proof rests on it. The formulas are in
``tests/language_proposals.py`` (``ALIKE``, ``UNMODELLED``); each once got a false "yes" in a hostile review.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
import sympy

from irprops import InputError, check
from irprops.metrics import Measure, Metric, Situation, Undefined
from irprops.metrics.registry import Param
from irprops.proofs import Proof, prove
from tests import language_proposals as language
from tests.adversarial_proposals import proposal

DEPTH = language.DEPTH


def empty(k: int) -> Situation:
    return Situation((), k, ())


class TestNumbersHaveOneTypeInBothRuns:
    @pytest.mark.parametrize("name", list(language.ALIKE))
    def test_the_closed_form_is_the_exact_score_where_the_runs_once_differed(self, name: str) -> None:
        measure = language.ALIKE[name]
        measure.validate_forms()
        form = measure.closed_form()
        assert form is not None
        for situation in (empty(DEPTH), empty(DEPTH + 1), empty(2017), Situation((), 3, (1,) * 2017)):
            value, closed = measure.exact(situation), form.at(situation)
            assert isinstance(value, Undefined) == isinstance(closed, Undefined), (situation, value, closed)
            assert isinstance(value, Undefined) or value == closed, (situation, value, closed)

    def test_m_min_of_two_counts_divides_exactly(self) -> None:
        third = proposal("third")(lambda m: 1 / m.min(m.k, 3))
        assert third.exact(empty(10)) == Fraction(1, 3)

    def test_m_div_of_two_ints_is_a_fraction(self) -> None:
        tenth = proposal("tenth")(lambda m: m.div(1, 10))
        assert tenth.exact(empty(1)) == Fraction(1, 10) and isinstance(tenth.exact(empty(1)), Fraction)

    def test_m_num_of_text_is_a_one_line_error(self) -> None:
        text = proposal("num-text")(lambda m: m.num("1/2"))
        with pytest.raises(InputError, match=r"m\.num .*exact number"):
            text.exact(empty(1))


class TestWhatTheClosedFormCannotSayIsNotProved:
    @pytest.mark.parametrize("name", list(language.UNMODELLED))
    def test_the_exact_run_has_no_value_at_depth_1501(self, name: str) -> None:
        assert isinstance(language.UNMODELLED[name].exact(empty(DEPTH + 1)), Undefined)

    @pytest.mark.parametrize("name", list(language.UNMODELLED))
    @pytest.mark.parametrize("prop", ["complete", "monotonic"])
    def test_no_proof_for_all_k_rests_on_the_closed_form(self, name: str, prop: str) -> None:
        measure = language.UNMODELLED[name]
        measure.validate_forms()
        found = prove(measure, prop)  # at each depth k <= K the forms are written out, and a proof may rest on them
        assert not (isinstance(found, Proof) and found.conclusion == "yes" and found.reach.all_k), found

    def test_a_logarithm_of_a_rank_is_not_a_condition(self) -> None:
        logs = proposal("log-weights")(lambda m: m.sum(1, m.k, lambda i: m.r(i) / (sympy.log(i + 1) * i * (i + 1))))
        form = logs.closed_form()
        assert form is not None and form.unmodelled == ()


class TestParametersKeepTheirDeclaredAssumptions:
    def test_a_value_that_breaks_its_assumptions_is_refused(self) -> None:
        def lying(m: Any) -> Any:  # SymPy writes floor(p) as p for an integer p; the exact run has floor(1/2) = 0
            p = m.param("p")
            return language._s(m) - language._late(m) * (p - sympy.floor(p))

        p = Param("p", Fraction(1, 2), "any number", lambda q: True, assumptions={"integer": True, "nonnegative": True})
        measure = Measure(Metric("lying-param", lying, "binary", (), (p,), "an adversarial proposal"), {"p": Fraction(1, 2)})
        assert measure.exact(empty(DEPTH + 1)) == Fraction(-1, 2)  # the feature is real
        with pytest.raises(InputError, match="assumes it is integer"):
            measure.validate_forms()


class TestAFailingFormulaIsNamedNotATraceback:
    @pytest.mark.parametrize(("formula", "named"), [
        (lambda m: m.num(1) < 2, "a boolean is not a score"),
        (lambda m: m.sum(1, m.k, m.r) * pow(m.num(3), 2, 5), "TypeError"),
    ])
    def test_validation_names_the_exception(self, formula: Any, named: str) -> None:
        with pytest.raises(InputError, match=named):
            proposal("failing")(formula).validate_forms()

    def test_check_of_a_formula_with_a_hidden_zero_division_finishes(self) -> None:
        result = check(language.UNMODELLED["0 * log(x) is undefined where x is 0"], ["complete"], budget=5)
        assert result.verdicts["complete"].verdict != "yes"
