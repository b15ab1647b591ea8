"""The metrics beyond Table 2 (Success, CG, F, ERR) score as their sources define them.

Each is compared with an oracle written here from its source, independently of the catalog's
formula (a loop over the ranking in Fractions), on every small situation and on Hypothesis'.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from irprops.metrics import Situation, parse, score

GRADES = (Fraction(0), Fraction(1, 4), Fraction(1, 2), Fraction(1))


def err(ranking: tuple[Fraction, ...], k: int) -> Fraction:
    """ERR by Chapelle et al.'s cascade (Section 4, Algorithm 1): stop at rank i with probability R_i, gain 1/i."""
    total, p_reach = Fraction(0), Fraction(1)
    for i, r in enumerate(ranking[:k], start=1):
        total += p_reach * r / i
        p_reach *= 1 - r
    return total


def f_measure(ranking: tuple[Fraction, ...], k: int, R: int, beta: Fraction) -> Fraction:
    """F by van Rijsbergen's harmonic mean of Prec@k and Recall@k; 0 when both are 0 and when R = 0 (trec_eval's set_F)."""
    if R == 0:
        return Fraction(0)
    found = sum(1 for g in ranking[:k] if g)
    precision, recall = Fraction(found, k), Fraction(found, R)
    return Fraction(0) if found == 0 else (1 + beta**2) * precision * recall / (beta**2 * precision + recall)


def situations(grades: tuple[Fraction, ...], length: int) -> list[Situation]:
    found = []
    for n in range(1, length + 1):
        for ranking in itertools.product(grades, repeat=n):
            own = tuple(g for g in ranking if g)
            for extra in (0, 2):
                found.append(Situation.of(ranking, qrels=own + (Fraction(1),) * extra))
    return found


class TestErrIsTheCascadeUsersExpectedReciprocalRank:
    def test_on_every_graded_ranking_up_to_length_four(self) -> None:
        measure = parse("ERR")
        for s in situations(GRADES, 4):
            assert measure.at(s.k).exact(s) == err(tuple(s.grade(i) for i in range(1, s.k + 1)), s.k), s

    @settings(max_examples=60, deadline=None)
    @given(st.lists(st.sampled_from(GRADES + (Fraction(1, 3), Fraction(5, 7))), min_size=1, max_size=25), st.integers(1, 30))
    def test_on_longer_rankings_at_any_depth(self, grades: list[Fraction], k: int) -> None:
        s = Situation.of(tuple(grades), k=k)
        assert parse(f"ERR@{k}").exact(s) == err(tuple(grades), k)

    def test_a_satisfying_first_document_ends_the_cascade(self) -> None:
        assert score("ERR@3", "1,1,1").exact == 1 and score("ERR@3", "0,0,1").exact == Fraction(1, 3)

    def test_on_binary_grades_it_is_reciprocal_rank(self) -> None:
        for s in situations((Fraction(0), Fraction(1)), 6):
            assert parse(f"ERR@{s.k}").exact(s) == parse(f"RR@{s.k}").exact(s)


class TestFMeasureIsTheHarmonicMeanOfPrecisionAndRecall:
    def test_on_every_binary_ranking_up_to_length_six_for_three_weights(self) -> None:
        for beta in (Fraction(1), Fraction(1, 2), Fraction(2)):
            measure = parse(f"F(beta={beta})")
            for s in situations((Fraction(0), Fraction(1)), 6):
                expected = f_measure(tuple(s.grade(i) for i in range(1, s.k + 1)), s.k, s.R, beta)
                assert measure.at(s.k).exact(s) == expected, (s, beta)

    def test_it_is_zero_without_relevant_documents_as_trec_eval_scores_it(self) -> None:
        assert score("F@3", "000", R=0).exact == 0


class TestSuccessAndCumulatedGain:
    def test_success_is_one_exactly_when_a_relevant_document_is_in_the_top_k(self) -> None:
        for s in situations((Fraction(0), Fraction(1)), 6):
            assert parse(f"Success@{s.k}").exact(s) == int(any(s.grade(i) for i in range(1, s.k + 1)))

    def test_cumulated_gain_adds_the_grades_of_the_top_k(self) -> None:
        for s in situations(GRADES, 4):
            assert parse(f"CG@{s.k}").exact(s) == sum(s.grade(i) for i in range(1, s.k + 1))
