"""Every worked number in the source documents (../shared/seeds), reproduced exactly.

Printed numbers are rounded (or truncated) to a few digits; :func:`rounds_to` checks
that the exact score lies in the interval the printed digits stand for, using exact
comparisons. Where a document's number disagrees with its own formula, the test says
so and keeps the formula.
"""

from __future__ import annotations

import itertools
import math
from decimal import Decimal
from fractions import Fraction

import pytest

from irprops.metrics import Situation, Undefined, compare, parse, score
from irprops.metrics.catalog.geometric import required_depth
from irprops.metrics.exact import Exact, enclose, log2, to_float

from .conftest import SEEDS, needs_seeds


def rounds_to(value: Exact, printed: str) -> bool:
    """Whether ``value`` rounds to ``printed`` (e.g. "0.6316"), decided exactly."""
    centre, half = Fraction(Decimal(printed)), Fraction(1, 2 * 10 ** _places(printed))
    return compare(value, centre - half) >= 0 and compare(value, centre + half) <= 0


def truncates_to(value: Exact, printed: str) -> bool:
    """Whether ``value`` truncates to ``printed`` (printed <= value < printed + one unit)."""
    low = Fraction(Decimal(printed))
    return compare(value, low) >= 0 and compare(value, low + Fraction(1, 10 ** _places(printed))) < 0


def within(value: Exact, printed: str, tolerance: Fraction) -> bool:
    """Whether ``value`` is within ``tolerance`` of ``printed``, decided exactly."""
    centre = Fraction(Decimal(printed))
    return compare(value, centre - tolerance) >= 0 and compare(value, centre + tolerance) <= 0


def _truncate(value: Exact, places: int) -> Fraction:
    """``value`` truncated to ``places`` decimals, from a certified enclosure."""
    lo, hi = enclose(value, 128)
    scale = 10**places
    low, high = int(lo * scale) / Fraction(scale), int(hi * scale) / Fraction(scale)
    assert low == high, f"{value} is too close to a multiple of 10^-{places} to truncate"
    return low


def _places(printed: str) -> int:
    return len(printed.partition(".")[2])


def exact(name: str, ranking: str | tuple, **situation: object) -> Exact:
    return score(name, ranking, **situation).exact  # type: ignore[arg-type]


@needs_seeds
def test_the_seed_documents_are_where_the_citations_say() -> None:
    assert (SEEDS / "000_8695c2ba34b771ac.txt").read_text().count("Seven Numeric Properties") >= 1
    assert "Rank-Biased Precision" in (SEEDS / "001_15e603c2e941fa92.txt").read_text()


class TestMoffat2013SevenProperties:
    """000: Moffat, "Seven Numeric Properties of Effectiveness Metrics", AIRS 2013."""

    def test_dcg5_of_11000_is_1_63(self) -> None:  # Section 2, Scaled DCG
        assert rounds_to(exact("DCG@5", "11000"), "1.63")

    def test_dcg11_of_00000111111_exceeds_it(self) -> None:  # Section 2: DCG is unbounded
        assert compare(exact("DCG@11", "00000111111"), exact("DCG@5", "11000")) == 1

    def test_sdcg5_of_11000_is_about_0_55_from_the_printed_weights(self) -> None:  # Section 2
        assert rounds_to(exact("SDCG@5", "11000"), "0.55")
        weights = [1 / log2(i + 1) for i in range(1, 6)]
        assert all(rounds_to(w, p) for w, p in zip(weights, ["1.00", "0.63", "0.50", "0.43", "0.39"]))

    def test_dcg_reaches_123_with_1000_relevant_documents_at_the_head(self) -> None:  # Section 2
        assert rounds_to(exact("DCG@1000", "1" * 1000), "123.1")

    def test_sn_dcg5_of_10100_is_0_92(self) -> None:  # Section 3, Self Normalization
        # The prose says "SDCG@k(R) divided by sum_{i<=R_k} 1/log(i+1)"; that reading would
        # give 0.31. The worked arithmetic (1.0 + 0.50)/(1.0 + 0.63) divides DCG, as Table 1
        # describes, so irprops defines SN-DCG that way.
        value = exact("SN-DCG@5", "10100")
        assert rounds_to(value, "0.92")
        prose_reading = exact("SDCG@5", "10100") / (1 + 1 / log2(3))
        assert rounds_to(prose_reading, "0.31")

    def test_sn_dcg5_of_10101_is_1_89_over_2_13_and_lower(self) -> None:  # Section 3
        assert rounds_to(exact("DCG@5", "10101"), "1.89") and rounds_to(exact("DCG@5", "11100"), "2.13")
        # The paper prints 0.88, a truncation: the exact value is 0.8855 (and 1.89/2.13 = 0.887),
        # which rounds to 0.89.
        value = exact("SN-DCG@5", "10101")
        assert truncates_to(value, "0.88") and rounds_to(value, "0.89")
        assert compare(value, exact("SN-DCG@5", "10100")) == -1

    def test_p_sdcg_and_ndcg_of_11111_are_1_and_drop_at_111110(self) -> None:  # Section 4 (2)
        for name in ("P", "SDCG", "NDCG"):
            assert exact(f"{name}@5", "11111", R=6) == 1
        assert rounds_to(exact("P@6", "111110", R=6), "0.83")
        assert rounds_to(exact("SDCG@6", "111110", R=6), "0.89")
        assert rounds_to(exact("NDCG@6", "111110", R=6), "0.89")

    def test_rr6_is_never_below_rr5_on_any_binary_ranking_of_length_6(self) -> None:  # Section 4 (2)
        for bits in itertools.product((0, 1), repeat=6):
            s = Situation.of(bits)
            assert parse("RR@6").exact(s) >= parse("RR@5").exact(s.at_depth(5))

    def test_sn_ap5_of_10000_is_1_and_of_10001_is_0_7(self) -> None:  # Section 4 (3)
        assert exact("SN-AP@5", "10000") == 1 and exact("SN-AP@5", "10001") == Fraction(7, 10)

    def test_rr5_ties_that_break_convergence_and_top_weightedness(self) -> None:  # Section 4 (3), (4)
        assert exact("RR@5", "01000") == exact("RR@5", "01100")
        assert exact("RR@5", "10001") == exact("RR@5", "11000")

    def test_self_normalised_metrics_are_undefined_with_nothing_relevant_in_the_top_k(self) -> None:  # note d
        for name in ("SN-DCG@5", "SN-AP@5"):
            assert isinstance(exact(name, "00000", R=3), Undefined)

    def test_rr_is_zero_with_nothing_relevant_in_the_prefix(self) -> None:  # note c
        assert exact("RR@5", "00000", R=3) == 0

    def test_recall_ap_and_ndcg_are_undefined_without_relevant_documents(self) -> None:  # Sections 2-3
        for name in ("R@5", "AP@5", "NDCG@5", "RPrec@5"):
            assert isinstance(exact(name, "00000", R=0), Undefined)
        assert exact("P@5", "00000", R=0) == 0

    def test_ndcg_and_rr_reach_1_with_a_single_relevant_document(self) -> None:  # Section 4 (7)
        assert exact("NDCG@5", "10000", R=1) == 1 and exact("RR@5", "10000", R=1) == 1


class TestMoffatZobel2008RankBiasedPrecision:
    """001: Moffat and Zobel, "Rank-Biased Precision ...", ACM TOIS 2008."""

    RANKING = "$$---$----$-----$---"

    @pytest.mark.parametrize(("R", "printed"), [(5, "0.6316"), (6, "0.5263"), (7, "0.4511")])
    def test_ap_of_the_running_example_for_r_5_6_7(self, R: int, printed: str) -> None:  # Section 3.1
        assert rounds_to(exact("AP@20", self.RANKING, R=R), printed)

    def test_the_text_truncates_the_r_5_value_to_0_6315(self) -> None:  # Section 3.1 vs Table I
        value = exact("AP@20", self.RANKING, R=5)
        assert truncates_to(value, "0.6315") and not rounds_to(value, "0.6315")

    def test_table_1_contributions_add_up_to_ap(self) -> None:  # Table I
        ranks = [1, 2, 6, 11, 17]
        totals = [sum(Fraction(1, d) for d in ranks[j:]) for j in range(5)]
        assert [rounds_to(t, p) for t, p in zip(totals, ["1.8164", "0.8164", "0.3164", "0.1497", "0.0588"])] == [True] * 5
        assert [rounds_to(t / 5, p) for t, p in zip(totals, ["0.3633", "0.1633", "0.0633", "0.0299", "0.0118"])] == [True] * 5
        assert [round(100 * t / sum(totals)) for t in totals] == [58, 26, 10, 5, 2]
        assert sum(totals) / 5 == exact("AP@20", self.RANKING, R=5)

    def test_ap_star_is_sn_ap_and_falls_to_0_5324_with_more_relevant_documents(self) -> None:  # Section 3.1
        assert exact("SN-AP@20", self.RANKING) == exact("AP@20", self.RANKING, R=5)
        assert rounds_to(exact("AP*@20", "$$---$----$-----$$$$"), "0.5324")
        # The extracted text prints the first ranking as "$---$----$-----$---", one "$"
        # short (19 characters); that string's AP* is 0.4875, not the 0.6315 quoted.
        assert exact("SN-AP@19", "$---$----$-----$---") == Fraction(39, 80)

    def test_ap_with_unjudged_documents_is_0_75_and_capped_at_0_5909(self) -> None:  # Section 3.1
        assert exact("AP@20", "$--$-----???????????", R=2) == Fraction(3, 4)
        # "if any one of the 10 unjudged documents is in fact relevant, then the AP cannot be
        # greater than 0.5909" = (1 + 2/4 + 3/11)/3: the first unjudged document is at rank 11.
        # The extracted string has 9 judged and 11 unjudged documents (first at rank 10,
        # cap 0.6); the ranking the paper describes has 10 and 10.
        described = "$--$------??????????"
        best = max(exact("AP@20", described.replace("?", "0")[:i] + "1" + "0" * (19 - i), R=3) for i in range(10, 20))
        assert rounds_to(best, "0.5909")
        printed_best = exact("AP@20", "$--$-----1" + "0" * 10, R=3)
        assert printed_best == Fraction(3, 5)

    def test_finding_relevant_unjudged_documents_can_raise_ap(self) -> None:  # Section 3.1
        before = exact("AP@19", "-----$--???????????", R=1)
        after = exact("AP@19", "-----$--1??????????", R=2)
        assert compare(after, before) == 1

    @pytest.mark.parametrize(("p", "totals", "rbp"), [
        ("0.5", ["1.0000", "0.5000", "0.0313", "0.0010", "0.0000"], "0.7661"),
        ("0.8", ["1.0000", "0.8000", "0.3277", "0.1074", "0.0281"], "0.4526"),
        ("0.95", ["1.0000", "0.9500", "0.7738", "0.5987", "0.4401"], "0.1881"),
    ])
    def test_table_2_rbp_contributions_and_scores(self, p: str, totals: list[str], rbp: str) -> None:  # Table II
        weights = [Fraction(p) ** (d - 1) for d in (1, 2, 6, 11, 17)]
        assert all(rounds_to(w, t) for w, t in zip(weights, totals))
        assert rounds_to(exact(f"RBP(p={p})@20", self.RANKING), rbp)

    @pytest.mark.parametrize(("p", "lower", "upper"), [("0.5", "0.7661", "0.7663"), ("0.8", "0.447", "0.489"), ("0.95", "0.17", "0.60")])
    def test_residual_bounds_with_unjudged_documents(self, p: str, lower: str, upper: str) -> None:  # Section 4.4
        s = score(f"RBP(p={p})@20", "$$---$----$-??--?---")
        q = Fraction(p)
        assert s.residual == q**20 + (1 - q) * (q**12 + q**13 + q**16)
        assert rounds_to(s.exact, lower) and rounds_to(s.upper, upper)
        # "Each of these ranges encompasses the values given in Table II."
        assert s.exact <= exact(f"RBP(p={p})@20", self.RANKING) <= s.upper

    def test_residual_of_depth_20_at_p_0_8_is_0_012(self) -> None:  # Section 4.4
        assert rounds_to(score("RBP(p=0.8)@20", "0" * 20).residual, "0.012")

    def test_four_digit_accuracy_needs_depths_14_42_180(self) -> None:  # Section 4.4
        depths = [required_depth(Fraction(p), Fraction("0.0001")) for p in ("0.5", "0.8", "0.95")]
        assert depths == [14, 42, 180]
        # They come from ln 0.0001 / ln p; the approximation 9.21 / (1 - p) would give 19, 47, 185.
        assert [int(Fraction("9.21") / (1 - Fraction(p))) + 1 for p in ("0.5", "0.8", "0.95")] == [19, 47, 185]

    def test_depth_100_gives_four_digits_only_when_p_is_at_most_0_91(self) -> None:  # Section 4.4
        assert required_depth(Fraction("0.91"), Fraction("0.0001")) <= 100 < required_depth(Fraction("0.92"), Fraction("0.0001"))

    def test_five_relevant_documents_keep_rbp_0_95_below_0_23(self) -> None:  # Section 4.2
        best = max(parse("RBP(p=0.95)@10").exact(Situation.of(bits, R=5))
                   for bits in itertools.product((0, 1), repeat=10) if sum(bits) == 5)
        assert best == 1 - Fraction(95, 100) ** 5 and best < Fraction(23, 100)

    def test_user_model_figures(self) -> None:  # Section 4.2
        assert rounds_to(Fraction(95, 100) ** 10, "0.60") and rounds_to(Fraction(95, 100) ** 20, "0.36")  # ~60%, 35% (truncated)
        assert rounds_to(Fraction(1, 2) ** 10, "0.001")  # one in a thousand
        assert rounds_to(Fraction(95, 100) ** 99, "0.006")  # rank 100 weighs 0.6% of rank 1

    def test_rbp_with_p_0_is_precision_at_1(self) -> None:  # Section 4.2
        for bits in itertools.product((0, 1), repeat=4):
            assert exact("RBP(p=0)@4", bits) == exact("P@1", bits[:1])

    def test_dcg_b_scaling_constants_21_79_and_123_99(self) -> None:  # Section 4.6
        at_100, at_1000 = exact("DCG-b@100", "1" * 100), exact("DCG-b@1000", "1" * 1000)
        assert rounds_to(at_100, "21.79") and rounds_to(at_1000, "123.99")
        # "might decrease by a factor of almost 5": the constants' own ratio is 5.69.
        assert rounds_to(at_1000 / at_100, "5.69")

    def test_precision_cannot_tell_relevant_documents_at_the_top_from_the_bottom(self) -> None:  # Section 3.2
        assert exact("P@10", "$$$$------") == exact("P@10", "------$$$$") == Fraction(2, 5)


class TestEvaluationTutorial003:
    """003: tutorial "Evaluation Metrics For Information Retrieval": relevant at ranks 1, 3 and 5."""

    @pytest.mark.parametrize(("k", "p", "r"), [(1, "1", "0.33"), (2, "0.5", "0.33"), (3, "0.67", "0.67"), (4, "0.5", "0.67"),
                                               (5, "0.6", "1")])
    def test_precision_and_recall_at_k(self, k: int, p: str, r: str) -> None:
        assert rounds_to(exact(f"P@{k}", "10101"), p) and rounds_to(exact(f"R@{k}", "10101"), r)

    def test_f1_is_the_harmonic_mean_and_the_tutorial_truncates_it(self) -> None:
        f1 = [2 * exact(f"P@{k}", "10101") * exact(f"R@{k}", "10101") / (exact(f"P@{k}", "10101") + exact(f"R@{k}", "10101"))
              for k in range(1, 6)]
        assert f1 == [Fraction(1, 2), Fraction(2, 5), Fraction(2, 3), Fraction(4, 7), Fraction(3, 4)]
        # The tutorial prints 0.666 and 0.749: truncations (0.749 is below the exact 3/4).
        assert truncates_to(f1[2], "0.666") and rounds_to(f1[3], "0.571") and not rounds_to(f1[4], "0.749")

    def test_the_declared_f_measure_scores_the_tutorials_f1_table(self) -> None:
        assert [exact(f"F@{k}", "10101") for k in range(1, 6)] == [Fraction(1, 2), Fraction(2, 5), Fraction(2, 3),
                                                                   Fraction(4, 7), Fraction(3, 4)]

    def test_reciprocal_ranks(self) -> None:
        assert exact("RR@5", "10101") == 1 and exact("RR@5", "00001") == Fraction(1, 5) and exact("RR@5", "00000", R=1) == 0

    def test_average_precision(self) -> None:
        assert exact("AP@5", "10101") == Fraction(34, 45) and truncates_to(Fraction(34, 45), "0.7555")
        assert exact("AP@5", "11100") == 1

    # Graded example: grades 3, 2, 3, 0, 1 on a 0-3 scale, mapped to [0, 1] by dividing by 3.
    # DCG is linear in the grades, so the tutorial's DCG is 3 times ours; NDCG is scale-free.
    GRADED = "1,2/3,1,0,1/3"

    @pytest.mark.parametrize(("k", "dcg", "idcg", "ndcg"), [
        (1, "3", "3", "1"), (2, "4.2618", "4.8927", "0.8710"), (3, "5.7618", "5.8927", "0.9777"),
        (4, "5.7618", "6.3233", "0.9112"), (5, "6.1486", "6.3233", "0.9723"),
    ])
    def test_dcg_idcg_and_ndcg_tables(self, k: int, dcg: str, idcg: str, ndcg: str) -> None:
        # The tutorial truncates each discounted gain to four places (2/1.5849 = 1.2618, exactly
        # 1.26186) and adds the truncations, so its DCG and IDCG can be one unit low in the
        # fourth place (DCG@5 is 6.14871, printed 6.1486); its NDCG is the truncated ratio of
        # those printed numbers (5.7618/5.8927 = 0.97779, printed 0.9777). The sums of
        # truncated gains and the truncated ratios match exactly; the exact values are within
        # 0.0002.
        qrels = "1,2/3,1,1/3"  # the tutorial's ideal ordering is of the five listed documents
        for ranking, printed in ((self.GRADED, dcg), ("1,1,2/3,1/3,0", idcg)):
            gains = [3 * exact(f"DCG@{i}", ranking) - 3 * exact(f"DCG@{i - 1}", ranking) if i > 1 else 3 * exact("DCG@1", ranking)
                     for i in range(1, k + 1)]
            truncated = sum(_truncate(g, 4) for g in gains)
            assert truncated == Fraction(Decimal(printed))
            assert within(3 * exact(f"DCG@{k}", ranking), printed, Fraction(2, 10**4))
        assert truncates_to(Fraction(Decimal(dcg)) / Fraction(Decimal(idcg)), ndcg)
        assert within(exact(f"NDCG@{k}", self.GRADED, qrels=qrels), ndcg, Fraction(2, 10**4))

    def test_its_ndcg_normalises_by_the_listed_documents_not_by_the_top_k(self) -> None:
        # The tutorial's IDCG@k sorts all five listed documents, so its NDCG is the paper's
        # NDCG with those five as the qrels: a self-normalisation over the list. It equals
        # SN-DCG@k (which sorts only the top k) at k = 1, 3, 5 and differs at k = 2, 4.
        qrels = "1,2/3,1,1/3"
        same = [compare(exact(f"NDCG@{k}", self.GRADED, qrels=qrels), exact(f"SN-DCG@{k}", self.GRADED)) == 0 for k in range(1, 6)]
        assert same == [True, False, True, False, True]

    def test_the_printed_discounts_are_floats_of_ln_over_ln_2(self) -> None:
        # The tutorial printed math.log(i + 1, 2) = ln(i + 1)/ln 2 in floats: for i = 2 that is
        # 1.5849625007211563, one ulp above the correctly rounded log2(3) = 1.584962500721156.
        printed = ["1", "1.5849625007211563", "2", "2.321928094887362", "2.584962500721156"]
        assert [math.log(i + 1, 2) for i in range(1, 6)] == [float(p) for p in printed]  # noqa: FURB163 (the point)
        assert all(within(log2(i + 1), p, Fraction(1, 2**51)) for i, p in zip(range(1, 6), printed))
        assert to_float(log2(3)) == 1.584962500721156

    def test_cumulative_gain_is_dcg_b_with_b_at_least_k(self) -> None:
        assert [3 * exact(f"DCG-b(b=5)@{k}", self.GRADED) for k in range(1, 6)] == [3, 5, 8, 8, 9]

    def test_the_declared_cumulative_gain_scores_the_tutorials_table(self) -> None:  # "CG@2 will be 5", 3 5 8 8 9
        assert [3 * exact(f"CG@{k}", self.GRADED) for k in range(1, 6)] == [3, 5, 8, 8, 9]


class TestLectureNotes004:
    """004: lecture notes on common IR metrics."""

    def test_precision_at_3_4_5_and_average_precision(self) -> None:
        assert [exact(f"P@{k}", "10101") for k in (3, 4, 5)] == [Fraction(2, 3), Fraction(2, 4), Fraction(3, 5)]
        assert rounds_to(exact("AP@5", "10101"), "0.76")

    def test_dcg_with_the_original_discount_rel1_plus_rel_i_over_log2_i(self) -> None:
        # DCG_p = rel_1 + sum_{i>=2} rel_i / log2 i is DCG-b with b = 2. Grades 0-3 divided by 3.
        grades = "1,2/3,1,0,0,1/3,2/3,2/3,1,0"
        cumulative = ["3", "5", "6.89", "6.89", "6.89", "7.28", "7.99", "8.66", "9.61", "9.61"]
        assert all(rounds_to(3 * exact(f"DCG-b@{k}", grades), c) for k, c in zip(range(1, 11), cumulative))


class TestTutorial002:
    """002: tutorial on IR evaluation. Its formulas and worked numbers were lost in extraction;
    what survives are claims, checked here on the paper's definitions."""

    def test_swapping_a_less_relevant_document_above_a_more_relevant_one_reduces_dcg(self) -> None:
        grades = [Fraction(g, 3) for g in (3, 2, 3, 0, 1, 2)]
        for i, j in itertools.combinations(range(6), 2):
            if grades[i] > grades[j]:
                swapped = list(grades)
                swapped[i], swapped[j] = grades[j], grades[i]
                assert compare(exact("DCG@6", tuple(swapped)), exact("DCG@6", tuple(grades))) == -1

    def test_cumulative_gain_ignores_the_order(self) -> None:
        assert exact("DCG-b(b=6)@6", "1,2/3,1,0") == exact("DCG-b(b=6)@6", "0,1,2/3,1")
