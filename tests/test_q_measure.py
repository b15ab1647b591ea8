"""Graded Q-measure (Sakai) scores as its sources define it, and its row is decided by proofs and a witness.

Q needs the indicator [r_i > 0] (``m.relevant``) and the ideal ranking's cumulated gain at each rank
(``m.g``): the fold prover reads the ideal grade at each rank as an input shared by both runs of a swap.
The oracles here are loops over Fractions written from the definitions, never irprops' own forms; the
truth of each cell is argued in the comments and checked on them.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from irprops.metrics import Situation, Undefined, parse, score
from irprops.proofs import prove
from irprops.proofs.folds import extract
from irprops.proofs.structure import prepare
from irprops.properties.space import swapped
from irprops.verdicts import Prop

from .adversarial_proposals import grade, proposal
from .helpers import settled

GRADES = (Fraction(0), Fraction(1, 4), Fraction(1, 2), Fraction(1))
slow = pytest.mark.slow


def q(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...], beta: Fraction = Fraction(1)) -> Fraction | None:
    """Sakai's Q-measure: at each relevant rank i, the blended ratio (beta cg(i) + count(i)) / (beta cig(i) + i)
    against the ideal ranking (the qrel grades sorted decreasingly), averaged over the R relevant documents."""
    if not qrels:
        return None
    ideal = sorted(qrels, reverse=True)
    total, cg, count, cig = Fraction(0), Fraction(0), 0, Fraction(0)
    for i in range(1, k + 1):
        r = grade(ranking, i)
        cg, count, cig = cg + r, count + (r > 0), cig + (ideal[i - 1] if i <= len(ideal) else 0)
        if r > 0:
            total += (beta * cg + count) / (beta * cig + i)
    return total / len(qrels)


def moffat_zobel(ranking: tuple[Fraction, ...], k: int, R: int) -> Fraction:
    """The binary form in Moffat and Zobel (TOIS 2008), Section 3: (1/R) sum r_i 2 sum_{j<=i} r_j / (i + min(i, R))."""
    return sum((grade(ranking, i) * 2 * sum(grade(ranking, j) for j in range(1, i + 1)) / (i + min(i, R))
                for i in range(1, k + 1)), Fraction(0)) / R


def situations(grades: tuple[Fraction, ...], length: int) -> list[Situation]:
    """Every ranking over ``grades`` up to ``length``, with qrels its own grades plus none, one or two unretrieved ones."""
    found = []
    for n in range(1, length + 1):
        for ranking in itertools.product(grades, repeat=n):
            own = tuple(g for g in ranking if g)
            for extra in ((), grades[-1:], grades[-2:] if grades[-2] else grades[-1:] * 2):
                if own or extra:
                    found.append(Situation.of(ranking, qrels=own + extra))
    return found


def top(s: Situation) -> tuple[Fraction, ...]:
    return tuple(s.grade(i) for i in range(1, s.k + 1))


class TestQScoresAsSakaiDefinesIt:
    @pytest.mark.parametrize("beta", [Fraction(1), Fraction(1, 2), Fraction(3)])
    def test_on_every_graded_ranking_up_to_length_four(self, beta: Fraction) -> None:
        measure = parse(f"Q(beta={beta})")
        for s in situations(GRADES, 4):
            assert measure.at(s.k).exact(s) == q(top(s), s.k, s.qrels, beta), s

    @settings(max_examples=60, deadline=None)
    @given(st.lists(st.sampled_from(GRADES + (Fraction(1, 3), Fraction(5, 7))), min_size=1, max_size=20), st.integers(1, 25),
           st.lists(st.sampled_from((Fraction(1, 3), Fraction(1))), max_size=3))
    def test_on_longer_rankings_at_any_depth(self, grades: list[Fraction], k: int, unretrieved: list[Fraction]) -> None:
        qrels = tuple(g for g in grades if g) + tuple(unretrieved)
        if qrels:
            assert parse(f"Q@{k}").exact(Situation.of(tuple(grades), k=k, qrels=qrels)) == q(tuple(grades), k, qrels)

    def test_on_binary_grades_it_is_moffat_and_zobels_form(self) -> None:
        for s in situations((Fraction(0), Fraction(1)), 6):
            assert parse(f"Q@{s.k}").exact(s) == moffat_zobel(top(s), s.k, s.R), s

    def test_a_worked_example_by_hand(self) -> None:
        # 1, 0, 1/2 with qrels {1, 1/2}: rank 1 scores (1 + 1) / (1 + 1) = 1, rank 3 (3/2 + 2) / (3/2 + 3) = 7/9; / R = 2
        assert score("Q@3", "1,0,1/2", qrels="1,1/2").exact == Fraction(8, 9)

    def test_sakais_beta_over_gains_zero_to_m_is_beta_m_over_grades(self) -> None:
        # NTCIR gains 3, 2, 1 with beta = 1 are the grades 1, 2/3, 1/3 here with beta = 3: beta weighs the gain itself
        gains = (3, 0, 1, 2)
        sakai = q(tuple(Fraction(g) for g in gains), 4, (Fraction(3), Fraction(2), Fraction(1), Fraction(1)))
        here = score("Q(beta=3)@4", ",".join(str(Fraction(g, 3)) for g in gains), qrels="1,2/3,1/3,1/3").exact
        assert here == sakai and here != score("Q@4", "1,0,1/3,2/3", qrels="1,2/3,1/3,1/3").exact

    def test_it_is_undefined_without_relevant_documents(self) -> None:
        assert isinstance(parse("Q@2").exact(Situation.of("00", k=2, R=0)), Undefined)


class TestQsRow:
    @pytest.mark.parametrize("prop", [Prop.BOUNDED, Prop.MONOTONIC, Prop.CONVERGENT])
    def test_bounded_monotonic_and_convergent_are_proved_for_every_k_and_every_beta(self, prop: Prop) -> None:
        proof = prove(parse("Q"), prop)  # (each other bound value costs a minute of agreement checks of its forms)
        assert getattr(proof, "conclusion", None) == "yes" and str(proof.reach) == "all k", proof  # type: ignore[union-attr]
        assert "N_ideal" in proof.lemmas[0].statement and proof.lemmas[0].statement.endswith("for every beta > 0")  # type: ignore[union-attr]
        # no value of beta fixed (without beta > 0 among the facts of each induction step, Z3 breaks the invariants with a
        # negative beta, and only the bound value is proved)
        assert all(ob.path.startswith("Q/") for ob in proof.obligations)  # type: ignore[union-attr]

    def test_a_half_relevant_document_moved_up_past_two_relevant_ones_lowers_the_score(self) -> None:
        # the minimal such swap over grades {0, 1/2, 1} is at depth 8 (none at k <= 7, by exhaustive search): the count
        # term c(i) treats the half-relevant document as a whole one, and the ranks it passes gain less than it loses
        s = Situation.of("0,0,0,0,0,1,1,1/2,0,0", k=8, qrels="1,1,1,1/2")
        before, after = q(top(s), 8, s.qrels), q(top(swapped(s, 5, 8)), 8, s.qrels)
        assert before is not None and after is not None and after < before
        assert (before, after) == (Fraction(9817, 36708), Fraction(7249, 27132))

    def test_is_not_top_weighted_and_the_search_finds_the_depth_eight_swap(self) -> None:
        verdict = settled(parse("Q"), q, ["top_weighted"]).verdicts["top_weighted"]
        assert verdict.verdict == "no" and verdict.witness is not None
        assert (verdict.witness.data["k"], verdict.witness.data["i"], verdict.witness.data["j"]) == (8, 5, 8)

    def test_the_proof_for_small_depths_never_stands_for_every_k(self) -> None:
        proof = prove(parse("Q"), Prop.TOP_WEIGHTED)
        assert getattr(proof, "reach", None) is None or str(proof.reach) != "all k"  # type: ignore[union-attr]


# -- proposals that read the ideal grade or the indicator in ways the fold must not take for Q's -----------------
# The ideal grade one rank further down: g(i + 1) is no input of rank i. sum_{i<=k} [r_i > 0] (1 - g(i + 1)) is
# monotonic (each term is >= 0, as g <= 1) but not bounded: k relevant documents ranked with R = k... score 1 (only
# the last term is 1), but past R every g(i + 1) is 0, so "1" * k with qrels {1} * k scores 1 and a ranking of k
# relevant documents judged in a collection of R = 1 cannot exist; "1" then k - 1 documents of grade 1/2 with qrels
# {1, 1/2 * (k - 1)} scores 1 - 1/2 per rank below R and 1 at rank R: at least k/2, without bound.
@proposal("one-rank-further", relevance="graded")
def one_rank_further(m: Any) -> Any:
    return m.sum(1, m.k, lambda i: m.relevant(i) * (1 - m.g(i + 1)))


def one_rank_further_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction:
    ideal = sorted(qrels, reverse=True)
    return sum(((1 - (ideal[i] if i < len(ideal) else 0)) for i in range(1, k + 1) if grade(ranking, i) > 0), Fraction(0))


# Relying on g_i >= r_i at each rank (false: "01" with qrels {1} has g_2 = 0 < r_2 = 1): sum_{i<=k} (g(i) - r(i)) is not
# monotonic ("01", qrels {1}: 1 at k = 1, 0 at k = 2), although the prefix sums obey cg(i) <= cig(i).
@proposal("ideal-minus-grade", relevance="graded")
def ideal_minus_grade(m: Any) -> Any:
    return m.sum(1, m.k, lambda i: m.g(i) - m.r(i))


def ideal_minus_grade_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction:
    ideal = sorted(qrels, reverse=True)
    return sum(((ideal[i - 1] if i <= len(ideal) else 0) - grade(ranking, i) for i in range(1, k + 1)), Fraction(0))


# The indicator counts a grade of 1/4 as a whole document: sum_{i<=k} [r_i > 0] / 2^i is top-weighted over binary
# grades but not over graded ones (1/4 moved above 1: no change in the count, the score stays), so "no".
@proposal("counted-not-graded", relevance="graded")
def counted_not_graded(m: Any) -> Any:
    return m.sum(1, m.k, lambda i: m.relevant(i) * m.num(Fraction(1, 2)) ** i)


def counted_not_graded_truth(ranking: tuple[Fraction, ...], k: int, qrels: tuple[Fraction, ...]) -> Fraction:
    return sum((Fraction(1, 2) ** i for i in range(1, k + 1) if grade(ranking, i) > 0), Fraction(0))


class TestProposalsReadingTheIdealGradeOrTheIndicator:
    def test_the_ideal_grade_of_the_next_rank_is_not_read_as_this_ranks(self) -> None:
        prepared = prepare(one_rank_further)
        assert prepared is not None and extract(prepared) is None  # no fold: the step would read another rank's grade
        result = settled(one_rank_further, one_rank_further_truth, ["bounded", "monotonic"])
        # an unbounded metric needs a proof of unboundedness, and monotonicity a proof: unknown is the honest answer here
        assert result.verdicts["bounded"].verdict != "yes" and result.verdicts["monotonic"].verdict != "no"
        k = 12
        ranking = (Fraction(1),) + (Fraction(1, 2),) * (k - 1)
        assert one_rank_further_truth(ranking, k, ranking) >= k // 2  # no bound: the truth is "no"

    def test_a_fact_true_of_prefix_sums_is_not_taken_for_each_rank(self) -> None:
        truth = ideal_minus_grade_truth
        zero_one, qrels = (Fraction(0), Fraction(1)), (Fraction(1),)
        assert truth(zero_one, 1, qrels) == 1 and truth(zero_one, 2, qrels) == 0
        assert settled(ideal_minus_grade, truth, ["monotonic"]).verdicts["monotonic"].verdict == "no"

    def test_the_indicator_counts_a_partly_relevant_document_as_a_whole_one(self) -> None:
        quarter, one = Fraction(1, 4), Fraction(1)
        assert counted_not_graded_truth((quarter, one), 2, ()) == counted_not_graded_truth((one, quarter), 2, ())
        result = settled(counted_not_graded, counted_not_graded_truth, ["top_weighted", "convergent"])
        assert result.verdicts["top_weighted"].verdict == "no" and result.verdicts["convergent"].verdict == "no"

    def test_every_backend_reads_the_indicator_as_the_exact_run_does(self) -> None:
        for s in situations(GRADES, 3):
            exact = counted_not_graded.at(s.k).exact(s)
            assert exact == counted_not_graded_truth(top(s), s.k, s.qrels)
            assert counted_not_graded.symbolic(s.k).at(s) == exact, s


# -- a parameter proved over every positive value: what holds at the bound value only must stay there ---------------
def positive_parameter(name: str, value: Fraction, formula: Any) -> Any:
    from irprops.metrics import Measure, Metric, Param

    param = Param("beta", value, "beta > 0", lambda v: v > 0, assumptions={"positive": True}, proof_interval=(Fraction(0), None))
    return Measure(Metric(name, formula, "graded", (), (param,), "an adversarial proposal"), {"beta": value})


# (beta - 1) * Q: monotonic, bounded and convergent at beta = 2 (a positive multiple of Q), but at beta = 1/2 every term is
# negative: extending the ranking lowers the score, and a better document brought in lowers it. Proved for beta = 2 only.
def scaled_q(m: Any) -> Any:
    beta = m.param("beta")
    gain, count, ideal = m.prefix_sum(m.r), m.prefix_sum(m.relevant), m.prefix_sum(m.g)
    return (beta - 1) * m.div(m.sum(1, m.k, lambda i: m.relevant(i) * (gain(i) + count(i)) / (ideal(i) + i)), m.R, "R = 0")


# A divisor that is 0 at one positive value: sum_i [r_i > 0] / (2 - beta), bound at beta = 1, is monotonic there, undefined
# at beta = 2 and decreasing for beta > 2: no proof may cover every beta > 0.
def vanishing_divisor(m: Any) -> Any:
    return m.sum(1, m.k, lambda i: m.relevant(i)) / (2 - m.param("beta"))


class TestAParameterProvedOverEveryPositiveValue:
    @pytest.mark.parametrize("prop", [Prop.BOUNDED, Prop.MONOTONIC, Prop.CONVERGENT])
    def test_a_property_that_holds_at_the_bound_value_only_is_proved_there_only(self, prop: Prop) -> None:
        measure = positive_parameter("scaled-q", Fraction(2), scaled_q)
        half = positive_parameter("scaled-q", Fraction(1, 2), scaled_q)
        s = Situation.of("1", k=1, R=1)
        assert measure.at(1).exact(s) == 1 and half.at(1).exact(s) == Fraction(-1, 2)  # so no proof may cover beta = 1/2
        proof = prove(measure, prop)
        assert getattr(proof, "conclusion", None) == "yes", proof
        assert "for beta = 2" in proof.lemmas[0].statement and "every beta" not in proof.lemmas[0].statement  # type: ignore[union-attr]

    def test_a_divisor_zero_at_some_positive_value_keeps_the_proof_at_the_bound_value(self) -> None:
        measure = positive_parameter("vanishing-divisor", Fraction(1), vanishing_divisor)
        assert isinstance(positive_parameter("vanishing-divisor", Fraction(2), vanishing_divisor).at(1).exact(Situation.of("1", k=1)),
                          Undefined)
        proof = prove(measure, Prop.MONOTONIC)
        assert "every beta" not in str(getattr(proof, "lemmas", "")) and "every beta" not in getattr(proof, "reason", ""), proof


class TestAProofSaysWhichParameterValuesItCovers:
    @pytest.mark.parametrize(("name", "prop", "covers"), [
        ("Q", Prop.BOUNDED, "every beta > 0"), ("RBP", Prop.MONOTONIC, "every p in (0, 1)"),
        ("F", Prop.BOUNDED, "beta = 1"), ("DCG-b", Prop.MONOTONIC, "b = 2"), ("AP", Prop.BOUNDED, ""),
        ("Q", Prop.TOP_WEIGHTED, "beta = 1"),  # the forms at each depth, at the bound value: for k <= 3 only
    ])
    def test_as_a_field_of_the_record_the_verdict_carries(self, name: str, prop: Prop, covers: str) -> None:
        proof = prove(parse(name), prop)
        assert getattr(proof, "conclusion", None) == "yes", proof
        assert proof.record().parameters == covers  # type: ignore[union-attr]
        assert proof.record().to_record()["parameters"] == covers  # type: ignore[union-attr]


def with_parameter(name: str, formula: Any, relevance: str, parameter: str, value: Fraction, **declared: Any) -> Any:
    from irprops.metrics import Measure, Metric, Param

    declared.setdefault("assumptions", {"positive": True})
    param = Param(parameter, value, f"{parameter} > 0", lambda v: v > 0, proof_interval=(Fraction(0), None), **declared)
    return Measure(Metric(name, formula, relevance, (), (param,), "an adversarial proposal"), {parameter: value})


# A forty-first hostile review, (1): a parameter named Gi was the Z3 constant of the ideal grade at rank i, so the bring-in
# proof assumed it in [0, 1] and equal to that grade. sum_i r_i (2 - Gi) + r_i I(i) / (I(i) + i) is convergent for Gi < 2
# only: at Gi = 3, k = 1, qrels {1}, "0" scores 0 and "1" scores -1/2.
def gi_collide(m: Any) -> Any:
    b, ideal = m.param("Gi"), m.prefix_sum(m.g)
    return m.sum(1, m.k, lambda i: m.r(i) * (2 - b) + m.r(i) * ideal(i) / (ideal(i) + i))


# (2): floor(beta) is beta for a parameter declared integer, which a proof for every beta > 0 may not use:
# (1 - 4 (beta - floor(beta))) sum r_i is -sum r_i at beta = 1/2.
def frac_flip(m: Any) -> Any:
    b = m.param("beta")
    return m.sum(1, m.k, lambda i: m.r(i)) * (1 - 4 * (b - sympy.floor(b)))


# (3): m.div(x (beta - 2), beta - 2) has no value anywhere at beta = 2.
def cancel_pole(m: Any) -> Any:
    b = m.param("beta")
    return m.div(m.sum(1, m.k, lambda i: m.r(i)) * (b - 2), b - 2, "beta = 2")


class TestWhatAProofOverEveryPositiveValueMayNotAssume:
    def test_a_parameter_is_never_one_of_the_provers_own_variables(self) -> None:
        measure = with_parameter("gi-collide", gi_collide, "graded", "Gi", Fraction(1, 2))
        at_3 = with_parameter("gi-collide", gi_collide, "graded", "Gi", Fraction(3))
        assert at_3.at(1).exact(Situation.of("1", k=1, qrels="1")) == Fraction(-1, 2) < at_3.at(1).exact(Situation.of("0", k=1, qrels="1"))
        proof = prove(measure, Prop.CONVERGENT)
        assert getattr(proof, "conclusion", None) == "yes" and proof.parameters == "Gi = 1/2", proof  # type: ignore[union-attr]

    def test_an_assumption_true_at_the_value_only_keeps_the_proof_there(self) -> None:
        measure = with_parameter("frac-flip", frac_flip, "binary", "beta", Fraction(1), assumptions={"positive": True, "integer": True})
        assert with_parameter("f", frac_flip, "binary", "beta", Fraction(1, 2)).at(1).exact(Situation.of("1", k=1)) == -1
        for prop in (Prop.MONOTONIC, Prop.CONVERGENT):
            proof = prove(measure, prop)
            assert getattr(proof, "conclusion", None) == "yes" and proof.parameters == "beta = 1", (prop, proof)  # type: ignore[union-attr]

    def test_a_value_where_the_metric_has_no_value_is_not_covered(self) -> None:
        measure = with_parameter("cancel-pole", cancel_pole, "binary", "beta", Fraction(1))
        assert isinstance(with_parameter("cancel-pole", cancel_pole, "binary", "beta", Fraction(2)).at(1).exact(Situation.of("1", k=1)),
                          Undefined)
        proof = prove(measure, Prop.MONOTONIC)
        assert getattr(proof, "conclusion", None) == "yes" and proof.parameters == "beta = 1", proof  # type: ignore[union-attr]


class TestTheIndicatorHasOneTypeInBothRuns:
    def test_off_the_ranking_it_is_a_number_of_the_type_the_grade_has_there(self) -> None:
        from irprops.metrics.algebra import ExactAlgebra
        from irprops.metrics.symbolic import SymbolicAlgebra

        exact, symbolic = ExactAlgebra(Situation.of("01", k=2), {}), SymbolicAlgebra(2, False, {})
        for rank in (0, -1):
            assert exact.relevant(rank) == symbolic.relevant(rank) == 0
            assert type(symbolic.relevant(rank)) is type(symbolic.r(rank)) and type(exact.relevant(rank)) is type(exact.r(rank))
