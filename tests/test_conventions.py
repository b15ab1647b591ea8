"""The scoring conventions of issue 11, each reproduced on the example that showed the old behaviour wrong.

* A name without ``@k`` covers the whole ranking and all R relevant documents (trec_eval's ``ndcg`` and ``Rprec``).
* RBP's residual counts the positions down to k past the end of a short run as unjudged (rbp_eval, cwl_eval).
"""

from __future__ import annotations

from fractions import Fraction

from irprops.metrics import Situation, score


def rbp(p: Fraction, ranking: str, k: int) -> Fraction:
    """RBP's residual by its definition (Moffat and Zobel 2008, Section 4.4), independently of the catalog."""
    padded = ranking.ljust(k, "?")[:k]
    return p**k + sum(((1 - p) * p ** (i - 1) for i, c in enumerate(padded, start=1) if c == "?"), Fraction(0))


class TestANameWithoutADepthCoversTheRankingAndEveryRelevantDocument:
    def test_ndcg_of_one_relevant_document_of_three_is_trec_evals_value(self) -> None:
        s = score("nDCG", "10", R=3)
        assert s.situation.k == 3
        assert round(s.value, 4) == 0.4693  # trec_eval ndcg: 1 / (1 + 1/log2(3) + 1/2)

    def test_rprec_divides_by_all_three_relevant_documents(self) -> None:
        assert score("Rprec", "10", R=3).exact == Fraction(1, 3)

    def test_the_depth_is_the_rankings_length_when_it_is_longer_than_r(self) -> None:
        assert score("P", "10100", R=2).situation.k == 5

    def test_an_explicit_depth_is_kept(self) -> None:
        assert score("RPrec@2", "10", R=3).exact == Fraction(1, 2)

    def test_a_ranking_given_as_an_empty_list_with_no_relevant_documents_has_depth_one(self) -> None:
        assert Situation.of([], R=0).k == 1


class TestRbpsResidualCountsTheUnretrievedPositionsDownToTheDepth:
    def test_a_run_of_three_scored_at_ten_has_rbp_evals_residual(self) -> None:
        s = score("RBP(p=0.8)@10", "1?0")
        assert s.exact == Fraction(1, 5)
        assert s.residual == Fraction(84, 125) == rbp(Fraction(4, 5), "1?0", 10)  # 0.672, as rbp_eval and cwl_eval report

    def test_positions_below_the_depth_are_not_counted(self) -> None:
        assert score("RBP(p=0.5)@2", "1").residual == rbp(Fraction(1, 2), "1", 2) == Fraction(1, 2)

    def test_a_run_as_long_as_the_depth_keeps_its_residual(self) -> None:
        assert score("RBP(p=0.5)@3", "1?0").residual == rbp(Fraction(1, 2), "1?0", 3) == Fraction(3, 8)

    def test_a_position_past_the_end_is_unjudged_only_down_to_the_depth(self) -> None:
        s = Situation.of("1", k=3)
        assert [s.unjudged(i) for i in (1, 2, 3, 4)] == [False, True, True, False]
