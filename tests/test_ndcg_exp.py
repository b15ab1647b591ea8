"""nDCG with exponential gain (Burges et al. 2005) scores as its source defines it, and its row is proved through its gain.

The gain of the integer level g = gmax r is 2^g - 1. The weighted-sum prover proves its Yes cells over the gains
f(r) = (2^(gmax r) - 1) / (2^gmax - 1): a gain with f(0) = 0, f(1) = 1, strictly increasing on [0, 1], turns the grades
of a situation into the grades of another, so lemmas stated for grades hold of the gains. The oracle here is written
from the definition with the toolkits' unscaled gain 2^g - 1 and natural logarithms, never irprops' own forms. The
proposals below are built to make a gain proof claim too much: a gain that decreases somewhere, one with a pole, one
read from the next rank, a numerator and a normaliser over different gains, and a Python branch on the grade.
"""

from __future__ import annotations

import itertools
import re
from fractions import Fraction
from typing import Any

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from irprops.metrics import InputError, Situation, Undefined, compare, parse
from irprops.proofs import prove
from irprops.proofs.gains import GAIN, X, recognise
from irprops.verdicts import Prop

from .adversarial_proposals import grade, proposal
from .helpers import settled

GRADES = (Fraction(0), Fraction(1, 4), Fraction(1, 2), Fraction(1))
LEVELS = {2: (Fraction(0), Fraction(1, 2), Fraction(1)), 3: (Fraction(0), Fraction(1, 3), Fraction(2, 3), Fraction(1))}


def burges(ranking: tuple[Fraction | None, ...], k: int, qrels: tuple[Fraction, ...], gmax: int = 2) -> Any:
    """nDCG over the gains 2^g - 1 of the integer levels g = gmax r, discounted by log2(i + 1) = ln(i + 1) / ln 2, against
    the ideal ordering of the qrels; None without relevant documents."""
    if not qrels:
        return None

    def dcg(grades: list[Fraction]) -> Any:
        return sum((((sympy.Integer(2) ** sympy.Rational(gmax * g)) - 1) * sympy.log(2) / sympy.log(i + 1)
                    for i, g in enumerate(grades[:k], 1)), sympy.Integer(0))

    top = [grade(tuple(r if r is not None else Fraction(0) for r in ranking), i) for i in range(1, k + 1)]
    return dcg(top) / dcg(sorted(qrels, reverse=True))


def situations(grades: tuple[Fraction, ...], length: int) -> list[Situation]:
    """Every ranking over ``grades`` up to ``length``, with qrels its own grades plus none or one unretrieved one."""
    found = []
    for n in range(1, length + 1):
        for ranking in itertools.product(grades, repeat=n):
            own = tuple(g for g in ranking if g)
            found += [Situation(ranking, n, own + extra) for extra in ((), (grades[-1],))]
    return found


def agrees(measure_name: str, s: Situation, gmax: int) -> bool:
    value, oracle = parse(measure_name).at(s.k).exact(s), burges(s.ranking, s.k, s.qrels, gmax)
    return isinstance(value, Undefined) if oracle is None else compare(value, oracle) == 0


class TestNdcgExpScoresAsBurgesDefinesIt:
    @pytest.mark.parametrize("gmax", [2, 3])
    def test_on_every_ranking_of_the_integer_levels_up_to_length_three(self, gmax: int) -> None:
        for s in situations(LEVELS[gmax], 3):
            assert agrees(f"NDCG-exp(gmax={gmax})", s, gmax), s

    def test_between_the_levels_the_gain_is_the_same_formula_exactly(self) -> None:
        for s in situations(GRADES, 3):  # 1/4 of 0..2 is the level 1/2: gain sqrt(2) - 1, irrational and exact
            assert agrees("NDCG-exp", s, 2), s

    @settings(max_examples=30, deadline=None)
    @given(st.lists(st.sampled_from(LEVELS[3]), min_size=1, max_size=12), st.integers(1, 14),
           st.lists(st.sampled_from(LEVELS[3][1:]), max_size=3))
    def test_on_longer_rankings_at_any_depth(self, ranking: list[Fraction], k: int, unretrieved: list[Fraction]) -> None:
        s = Situation(tuple(ranking), k, tuple(g for g in ranking if g) + tuple(unretrieved))
        assert agrees("NDCG-exp(gmax=3)", s, 3), s

    def test_a_worked_example_by_hand(self) -> None:
        # levels 2, 0, 1 of 0..2 against qrels {2, 1}: gains 3, 0, 1, so DCG = 3 + 1/log2(4) = 7/2, and the ideal
        # 3, 1 gives 3 + 1/log2(3)
        value = parse("NDCG-exp@3").exact(Situation.of("1,0,1/2", qrels="1,1/2"))
        assert compare(value, sympy.Rational(7, 2) / (3 + sympy.log(2) / sympy.log(3))) == 0

    def test_on_binary_grades_it_is_ndcg(self) -> None:
        for s in situations((Fraction(0), Fraction(1)), 4):
            assert parse("NDCG-exp(gmax=3)").at(s.k).exact(s) == parse("NDCG").at(s.k).exact(s)

    def test_it_is_undefined_without_relevant_documents(self) -> None:
        assert isinstance(parse("NDCG-exp@2").exact(Situation.of("00", k=2, R=0)), Undefined)


class TestItsNames:
    @pytest.mark.parametrize(("name", "irprops"), [
        ("nDCG(dcg=exp-log2)@10", "NDCG-exp(gmax=2)@10"), ("nDCG(dcg=exp-log2,max_rel=3)@10", "NDCG-exp(gmax=3)@10"),
        ("nDCG(max_rel=4, dcg=exp-log2)", "NDCG-exp(gmax=4)"), ("ndcg_burges@5", "NDCG-exp(gmax=2)@5"),
        ("NDCG-Burges(gmax=3)@2", "NDCG-exp(gmax=3)@2"),
    ])
    def test_ir_measures_and_ranx_names_are_this_metric(self, name: str, irprops: str) -> None:
        assert parse(name).name == irprops


class TestItsRow:
    @pytest.mark.parametrize("prop", [Prop.BOUNDED, Prop.CONVERGENT, Prop.TOP_WEIGHTED, Prop.REALIZABLE])
    def test_its_yes_cells_are_proved_for_every_k_over_the_gains(self, prop: Prop) -> None:
        proof = prove(parse("NDCG-exp(gmax=3)"), prop)
        assert getattr(proof, "conclusion", None) == "yes" and str(proof.reach) == "all k", proof  # type: ignore[union-attr]
        gain = next(lemma for lemma in proof.lemmas if lemma.name == "gain")  # type: ignore[union-attr]
        assert "f(0) = 0, f(1) = 1" in gain.statement and GAIN in proof.trusted  # type: ignore[union-attr]
        assert "f(r_i)" in proof.lemmas[0].statement and "f(g_j)" in proof.lemmas[0].statement  # type: ignore[union-attr]

    def test_the_search_refutes_the_others_with_witnesses_the_oracle_confirms(self) -> None:
        result = settled(parse("NDCG-exp"), burges, ["monotonic", "localized", "complete"])
        assert all(result.verdicts[p].verdict == "no" for p in ("monotonic", "localized", "complete"))


# -- gains built to make the prover claim too much ----------------------------------------------------------------------
# (1) f(x) = 3x^2 - 2x: f(0) = 0 and f(1) = 1, but it falls below 0 on (0, 2/3). Over the ideal of its own gains it is not
# top-weighted: qrels {1, 1/2} give the normaliser 1 - 1/(4 log2(3)) > 0, and moving the grade-1/2 document from rank 3 up
# to rank 2 (past a nonrelevant one) lowers the numerator from 1 - 1/4 * 1/2 to 1 - 1/4 * 1/log2(3).
def _dips(x: Any) -> Any:
    return 3 * x ** 2 - 2 * x


@proposal("dipping-gain", relevance="graded")
def dipping_gain(m: Any) -> Any:
    return m.div(m.sum(1, m.k, lambda i: _dips(m.r(i)) / m.log2(i + 1)), m.sum(1, m.k, lambda i: _dips(m.g(i)) / m.log2(i + 1)),
                 "R = 0")


def dipping_gain_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Any:
    def dcg(grades: list[Fraction]) -> Any:
        return sum(((3 * g * g - 2 * g) * sympy.log(2) / sympy.log(i + 1) for i, g in enumerate(grades[:k], 1)), sympy.Integer(0))
    top = [grade(ranking, i) for i in range(1, k + 1)]
    ideal = dcg(sorted(qrels, reverse=True))
    return None if not qrels or ideal == 0 else dcg(top) / ideal


# (2) f(x) = 5x - 2 - 1/(x - 1/2): f(0) = 0, f(1) = 1 and f' > 0 wherever it is defined, but a pole at 1/2 splits [0, 1],
# so f(3/5) = -9 < 0 = f(0). Bounded is false: qrels {1, 3/5} have the normaliser 1 - 9/log2(3) < 0, and the ranking
# 3/5, 0 scores -9 / (1 - 9/log2(3)) > 1, while qrels {3/5} score 1; with qrels {1, 3/5 - e} the normaliser comes near 0.
def _pole(x: Any) -> Any:
    return 5 * x - 2 - 1 / (x - sympy.Rational(1, 2))


@proposal("pole-gain", relevance="graded")
def pole_gain(m: Any) -> Any:
    return m.div(m.sum(1, m.k, lambda i: _pole(m.r(i)) / m.log2(i + 1)), m.sum(1, m.k, lambda i: _pole(m.g(i)) / m.log2(i + 1)),
                 "R = 0")


# (3) The gain of the next rank's grade: sum w(i) f(r_{i+1}) is no sum over the gains of the ranks it weighs.
@proposal("next-rank-gain", relevance="graded")
def next_rank_gain(m: Any) -> Any:
    return m.sum(1, m.k, lambda i: (sympy.Pow(2, 2 * m.r(i + 1)) - 1) / (3 * i))


# (4) The numerator over the linear grade, the normaliser over the exponential gain: 1/2 alone (qrels {1/2}) scores
# (1/2) / (1/3) = 3/2 at k = 1, above the 1 that the ideal reaches with qrels {1}: the ideal arrangement is no bound.
@proposal("mixed-gains", relevance="graded")
def mixed_gains(m: Any) -> Any:
    return m.div(m.sum(1, m.k, lambda i: m.r(i) / m.log2(i + 1)),
                 m.sum(1, m.k, lambda i: (sympy.Pow(2, 2 * m.g(i)) - 1) / 3 / m.log2(i + 1)), "R = 0")


# (5) Two gains: the numerator over (4^x - 1) / 3, the normaliser over x^2. Both are gains, but not the same one:
# 1/2 alone (qrels {1/2}) scores (1/3) / (1/4) = 4/3 at k = 1, where qrels {1} reach only 1 (not realizable), and a grade
# e near 0 alone scores about (2 ln 2 / 3) / e, without bound.
@proposal("two-gains", relevance="graded")
def two_gains(m: Any) -> Any:
    return m.div(m.sum(1, m.k, lambda i: (sympy.Pow(4, m.r(i)) - 1) / 3 / m.log2(i + 1)),
                 m.sum(1, m.k, lambda i: m.g(i) ** 2 / m.log2(i + 1)), "R = 0")


def two_gains_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Any:
    def dcg(grades: list[Fraction], gain: Any) -> Any:
        return sum((gain(g) * sympy.log(2) / sympy.log(i + 1) for i, g in enumerate(grades[:k], 1)), sympy.Integer(0))
    top = [grade(ranking, i) for i in range(1, k + 1)]
    exponential = dcg(top, lambda g: (sympy.Integer(4) ** sympy.Rational(g) - 1) / 3)
    return None if not qrels else exponential / dcg(sorted(qrels, reverse=True), lambda g: sympy.Rational(g) ** 2)


class TestGainsThatMustNotBeProved:
    def test_a_gain_that_dips_below_zero_is_not_proved_top_weighted_and_the_search_refutes_it(self) -> None:
        assert dipping_gain_truth((Fraction(1), Fraction(0), Fraction(1, 2)), 3, (Fraction(1), Fraction(1, 2))) > \
            dipping_gain_truth((Fraction(1), Fraction(1, 2), Fraction(0)), 3, (Fraction(1), Fraction(1, 2)))
        assert getattr(prove(dipping_gain, Prop.TOP_WEIGHTED), "conclusion", None) != "yes"
        assert "cannot show the gain" in prove(dipping_gain, Prop.BOUNDED).reason  # type: ignore[union-attr]
        result = settled(dipping_gain, dipping_gain_truth, ["top_weighted"])
        assert result.verdicts["top_weighted"].verdict == "no"

    def test_a_gain_with_a_pole_inside_the_grades_is_no_gain(self) -> None:
        x = sympy.IndexedBase("x")[1]
        assert _pole(sympy.Integer(0)) == 0 and _pole(sympy.Integer(1)) == 1 and _pole(sympy.Rational(3, 5)) == -9
        assert recognise(_pole(x) / sympy.log(3), x) is None
        for prop in (Prop.BOUNDED, Prop.TOP_WEIGHTED, Prop.CONVERGENT, Prop.REALIZABLE):
            assert getattr(prove(pole_gain, prop), "conclusion", None) != "yes", prop

    def test_a_gain_of_another_ranks_grade_is_no_gain_of_this_rank(self) -> None:
        x = sympy.IndexedBase("x")
        i = sympy.Symbol("i", integer=True, positive=True)
        assert recognise((2 ** x[i + 1] - 1) / i, x[i]) is None
        assert getattr(prove(next_rank_gain, Prop.TOP_WEIGHTED), "conclusion", None) != "yes"

    def test_a_numerator_and_a_normaliser_over_different_gains_are_not_an_ideal_bound(self) -> None:
        half, one = (Fraction(1, 2),), (Fraction(1),)
        above = mixed_gains.at(1).exact(Situation(half, 1, half))
        assert above == Fraction(3, 2) and mixed_gains.at(1).exact(Situation(one, 1, one)) == 1
        for prop in (Prop.BOUNDED, Prop.REALIZABLE):
            assert getattr(prove(mixed_gains, prop), "conclusion", None) != "yes", prop

    def test_a_numerator_and_a_normaliser_over_two_different_gains_are_not_an_ideal_bound(self) -> None:
        half, one = (Fraction(1, 2),), (Fraction(1),)
        assert two_gains_truth(half, 1, half) == Fraction(4, 3) and two_gains_truth(one, 1, one) == 1
        for prop in (Prop.BOUNDED, Prop.REALIZABLE):
            assert getattr(prove(two_gains, prop), "conclusion", None) != "yes", prop
        assert settled(two_gains, two_gains_truth, ["realizable"]).verdicts["realizable"].verdict == "no"

    @pytest.mark.parametrize(("F", "why"), [
        (2 ** X, "f(0) = 1: a nonrelevant document would gain"),
        (sympy.Piecewise((X, X < sympy.Rational(1, 2)), (2 * X - sympy.Rational(1, 2), True)), "a case split"),
        (sympy.log(1 + X), "a logarithm (of 0 at x = -1)"),
        (2 ** (2 ** 70 * X) - 1, "an exponent of 71 bits"),
        (X * sympy.Symbol("k"), "the depth inside the gain"),
        (sympy.Float(0.5) * X, "a float"),
        (sympy.exp(sympy.exp(2 ** 62 * X)) - sympy.E, "a tower of exponentials"),
        (sympy.exp(sympy.exp(sympy.exp(60 * X))) - sympy.exp(sympy.E), "a tower of three"),
    ])
    def test_only_continuous_modest_functions_of_the_grade_alone_with_f0_zero_are_gains(self, F: sympy.Expr, why: str) -> None:
        # (a tower of exponentials has F(1) too large for memory: refused by its form, before any number is computed)
        x = sympy.IndexedBase("x")[1]
        assert recognise(F.xreplace({X: x}) / sympy.log(3), x) is None, why

    def test_a_python_branch_on_the_grade_is_refused_before_any_proof(self) -> None:
        @proposal("branching-gain", relevance="graded")
        def branching_gain(m: Any) -> Any:
            return m.sum(1, m.k, lambda i: (5 * m.r(i) if m.r(i) == Fraction(1, 2) else m.r(i)) / i)

        assert getattr(prove(branching_gain, Prop.TOP_WEIGHTED), "conclusion", None) != "yes"


class TestItsParameterErrors:
    @pytest.mark.parametrize(("name", "message"), [
        ("nDCG(dcg=exp-log2,max_rel=abc)@3", "NDCG parameter max_rel = 'abc': not a number"),
        ("nDCG(dcg=exp-log2,max_rel=3,max_rel=4)@3", "'max_rel=3': write each parameter once"),
        ("nDCG(dcg=exp-log2,dcg=log2)@3", "'dcg=exp-log2': write each parameter once"),
        ("nDCG(dcg=exp-log2,max_rel=99999999999999999999)@1", "max_rel = '99999999999999999999': must satisfy 1 <= max_rel <= 1024"),
        ("NDCG-exp(gmax=10000000)@2", "gmax = '10000000': must satisfy 1 <= gmax <= 1024"),  # 2^gmax has gmax bits
        ("SDCG(dcg=exp-log2)@2", "the exponential gain is declared for nDCG only"),
        ("NDCG-exp(gmax=2,max_rel=3)@2", "give gmax or max_rel, not both"),
    ])
    def test_name_what_the_user_wrote_and_the_fix(self, name: str, message: str) -> None:
        with pytest.raises(InputError, match=re.escape(message)):
            parse(name)

    def test_the_top_level_may_be_given_as_ir_measures_max_rel_on_the_metric_itself(self) -> None:
        assert parse("NDCG-exp(max_rel=3, dcg=exp-log2)@2").name == "NDCG-exp(gmax=3)@2"


class TestTheExp2Primitive:
    def test_is_exact_a_fraction_on_integers_and_sympys_power_otherwise(self) -> None:
        from irprops.metrics.algebra import exact_exp2

        assert exact_exp2(Fraction(10)) == 1024 and exact_exp2(Fraction(-3)) == Fraction(1, 8)
        assert exact_exp2(Fraction(3, 2)) == 2 * sympy.sqrt(2)

    def test_refuses_an_argument_whose_power_has_too_many_digits(self) -> None:
        # 2^(10^12) has 10^12 bits: a review's check of m.exp2(10**12) ran 548 s to a MemoryError
        from irprops.metrics.algebra import MAX_EXP2, exact_exp2

        with pytest.raises(InputError, match="too many digits"):
            exact_exp2(Fraction(10**12))
        assert exact_exp2(Fraction(MAX_EXP2)) == 2**MAX_EXP2
