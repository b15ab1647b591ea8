"""Exact scores at depth (issue 13, item 5): long sums in time close to linear, the same values as Fraction arithmetic,
huge values printed compactly and faithfully, and no shortcut that hides a value with no number."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import mpmath
import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

from irprops.metrics import Measure, Metric, Undefined, exact, score
from irprops.metrics.algebra import DeclaredExactAlgebra, ExactAlgebra
from irprops.metrics.exact import log2
from irprops.metrics.exactnumbers import ExactFraction, ExactInt
from irprops.metrics.rationals import Powers, RationalSum
from irprops.metrics.situation import Situation

fractions = st.fractions(max_denominator=10**30) | st.integers(-10**20, 10**20).map(Fraction)
geometric = st.integers(1, 40).flatmap(lambda b: st.builds(lambda a, n: Fraction(a, b) ** n, st.integers(-b, b),
                                                           st.integers(0, 60)))


class TestRationalSumsAreFractionSums:
    @given(st.lists(fractions | geometric, max_size=40))
    def test_any_terms_sum_to_what_fraction_gives(self, terms: list[Fraction]) -> None:
        running = RationalSum()
        for term in terms:
            running.add(term)
        assert running.value() == sum(terms, Fraction(0))

    @given(st.lists(st.integers(-10**6, 10**6), max_size=20), fractions)
    def test_ints_and_a_start_value_too(self, ints: list[int], start: Fraction) -> None:
        running = RationalSum(start)
        for n in ints:
            running.add(n)
        assert running.value() == start + sum(ints)


class TestPowersAreFractionPowers:
    @given(st.fractions(min_value=-3, max_value=3, max_denominator=50), st.lists(st.integers(-5, 30), max_size=30))
    def test_any_order_of_exponents_gives_fractions_powers(self, base: Fraction, exponents: list[int]) -> None:
        powers = Powers(base)
        for n in exponents:
            if base == 0 and n < 0:
                with pytest.raises(ZeroDivisionError):
                    powers ** n
                continue
            got = powers ** ExactInt(n) if n % 2 else powers ** n
            assert got == base ** n and type(got) is Fraction

    def test_other_operations_give_plain_fractions(self) -> None:
        p = Powers(4, 5)
        assert [type(x) for x in (1 - p, p * 2, p / 3, -p)] == [Fraction] * 4 and 1 - p == Fraction(1, 5)

    def test_only_the_catalogs_exact_run_hands_them_out(self) -> None:
        situation = Situation.of("101", k=3)
        assert type(ExactAlgebra(situation, {"p": Fraction(1, 2)}).param("p")) is Powers
        assert type(DeclaredExactAlgebra(situation, {"p": Fraction(1, 2)}).param("p")) is ExactFraction


class TestExactSumsKeepTheirTypes:
    def test_a_declared_run_sums_to_an_exact_fraction(self) -> None:
        m = DeclaredExactAlgebra(Situation.of("1101", k=4), {})
        assert type(m.sum(1, m.k, lambda i: m.r(i) / (i + 1))) is ExactFraction

    def test_a_catalog_run_sums_to_an_exact_fraction_when_a_term_is_one(self) -> None:
        m = ExactAlgebra(Situation.of("1101", k=4), {})
        held = ExactFraction(1, 3)
        assert type(m.sum(1, m.k, lambda i: held * m.r(i))) is ExactFraction  # as when the terms were added one by one
        assert type(m.sum(1, m.k, lambda i: Fraction(1, 3) * m.r(i))) is Fraction


def rbp_by_horner(grades: str, p: Fraction) -> Fraction:
    """(1 - p) * sum r_i p^(i-1), by Horner's rule from the bottom: a computation independent of the algebra."""
    total = Fraction(0)
    for grade in reversed(grades):
        total = int(grade) + p * total
    return (1 - p) * total


class TestRBPAtDepth:
    def test_all_relevant_at_depth_2000_is_one_minus_p_to_the_k_and_the_residual_p_to_the_k(self) -> None:
        s = score("RBP@2000", "1" * 2000)
        assert s.exact == 1 - Fraction(4, 5) ** 2000 and s.residual == Fraction(4, 5) ** 2000

    @pytest.mark.parametrize("seed", [1, 2])
    def test_a_long_mixed_ranking_scores_what_horners_rule_gives(self, seed: int) -> None:
        import random

        rng = random.Random(seed)
        grades = "".join(rng.choice("01") for _ in range(3000))
        assert score("RBP(p=0.95)@3000", grades).exact == rbp_by_horner(grades, Fraction(95, 100))

    def test_a_residual_below_floating_point_is_shown_by_its_exponent_not_as_zero(self) -> None:
        assert exact.brief(Fraction(4, 5) ** 10000).endswith("about 7.94e-970")
        assert exact.brief(Fraction(5, 4) ** 10000).endswith("about 1.26e+969")

    @pytest.mark.parametrize(("value", "shown"), [
        (Fraction(9996 * 10**400), "1e+404"), (-Fraction(9996, 10**403), "-1e-399"),  # rounded up to 10: one more digit
        (Fraction(1234, 10**326), "1.23e-323"),  # below normal floats, where float() keeps only a few bits
    ])
    def test_a_value_past_normal_floats_is_shown_to_three_digits(self, value: Fraction, shown: str) -> None:
        assert exact.brief(value).endswith(f"about {shown}")

    def test_an_expression_below_floating_point_is_shown_by_its_exponent(self) -> None:
        tiny = sympy.Rational(1, 10**400) * sum(1 / log2(i) for i in range(3, 300))
        assert exact.brief(tiny).endswith("about 4.61e-399")


class TestNDCGAtDepth:
    ranking = "".join("1" if (i * 7919) % 5 < 2 else "0" for i in range(1500))

    def test_its_float_is_the_high_precision_value(self) -> None:
        with mpmath.workdps(40):
            dcg = mpmath.fsum(1 / mpmath.log(i + 2, 2) for i, g in enumerate(self.ranking) if g == "1")
            ideal = mpmath.fsum(1 / mpmath.log(i + 2, 2) for i in range(self.ranking.count("1")))
            truth = float(dcg / ideal)
        assert score("nDCG@1500", self.ranking).value == pytest.approx(truth, rel=1e-15)  # display only: no verdict

    def test_its_exact_form_printed_in_full_reads_back_as_the_same_expression(self) -> None:
        value = score("DCG@1500", self.ranking).exact
        text = exact.to_str(value)
        assert text.count("log2(") == sum(1 for i, g in enumerate(self.ranking) if g == "1" and (i + 2) & (i + 1))
        assert sympy.sympify(text, locals={"log2": log2}) == value


class TestShortcutsHideNoUndefinedValue:
    @pytest.mark.parametrize("value", [1 / (log2(6) - 1 - log2(3)), 1 + 1 / (log2(9) - 2 * log2(3))])
    def test_a_division_by_a_sum_of_logarithms_that_is_exactly_zero_has_no_value(self, value: sympy.Expr) -> None:
        assert exact.no_value(value) is not None

    def test_a_sum_of_reciprocal_logarithms_over_a_positive_one_has_a_value(self) -> None:
        assert exact.no_value(sum(1 / log2(i) for i in range(3, 40)) / (1 + 1 / log2(3))) is None

    @pytest.mark.parametrize("x", [Fraction(1, 3), Fraction(3, 2), Fraction(8), Fraction(7), Fraction(2, 3)])
    def test_logarithms_of_rationals_answer_sympys_questions_truthfully(self, x: Fraction) -> None:
        value = log2(sympy.Rational(x.numerator, x.denominator))
        if isinstance(value, sympy.Integer):
            assert 2 ** int(value) == x
            return
        assert (value.is_zero, value.is_finite, value.is_positive, value.is_negative) == (False, True, x > 1, x < 1)

    def test_log2_of_one_written_unevaluated_is_zero(self) -> None:
        assert log2(sympy.Integer(1), evaluate=False).is_zero is True


def _declared(name: str, formula: Any) -> Measure:
    return Measure(Metric(name, formula, "binary", (), (), "a proposal dividing by a value exactly 0 at one depth"), {})


def _zero_log_divisor_at_7(m: Any) -> Any:
    """sum r_i / i over log2(k^2) - 2 log2(k) + (k - 7)^2: a formally zero combination of logarithms plus a square, 0 at
    k = 7 only (a hostile review of the no-value shortcut)."""
    return m.sum(1, m.k, lambda i: m.r(i) / i) / (m.log2(m.k * m.k) - 2 * m.log2(m.k) + (m.k - 7) * (m.k - 7))


def _log_of_one_at_3(m: Any) -> Any:
    return m.sum(1, m.k, lambda i: m.r(i) / i) / m.log2(m.num(m.k) / 3)


def _telescoping_zero_at_40(m: Any) -> Any:
    return m.sum(1, m.k, lambda i: m.r(i) / i) / (m.sum(1, m.k, lambda j: m.num(1) / j - m.num(1) / (j + 1)) - m.num(40) / 41)


def harmonic(k: int) -> Fraction:
    return sum((Fraction(1, i) for i in range(1, k + 1)), Fraction(0))


class TestDivisorsExactlyZeroAtOneDepth:
    """Declared proposals of a hostile review of the shortcuts: each has no value at exactly one depth and, elsewhere, the
    value its truth gives (all relevant: sum 1/i = H_k). End to end: the declared run's strict steps see these divisions
    too; the shortcut itself is pinned by TestShortcutsHideNoUndefinedValue."""

    @pytest.mark.parametrize(("formula", "zero_at", "truth"), [
        (_zero_log_divisor_at_7, 7, lambda k: harmonic(k) / (k - 7) ** 2),
        (_telescoping_zero_at_40, 40, lambda k: harmonic(k) / (Fraction(k, k + 1) - Fraction(40, 41))),
    ])
    def test_rational_elsewhere(self, formula: Any, zero_at: int, truth: Any) -> None:
        measure = _declared(formula.__name__.strip("_"), formula)
        assert isinstance(measure.exact(Situation.of("1" * zero_at)), Undefined)
        for k in (zero_at - 1, zero_at + 1, zero_at + 5):
            assert exact.compare(measure.exact(Situation.of("1" * k)), truth(k)) == 0  # decided exactly

    def test_a_logarithm_of_one(self) -> None:
        measure = _declared("log-of-one-at-3", _log_of_one_at_3)
        assert isinstance(measure.exact(Situation.of("111")), Undefined)
        with mpmath.workdps(30):
            truth = float(mpmath.mpf(25) / 12 / mpmath.log(mpmath.mpf(4) / 3, 2))  # H_4 / log2(4/3)
        assert exact.to_float(measure.exact(Situation.of("1111"))) == pytest.approx(truth, rel=1e-15)  # display only
