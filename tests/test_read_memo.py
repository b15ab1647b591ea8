"""The read memo (irprops.metrics.reads): an exact score is shared only between situations that answer
every read of the formula's run alike, and is then the score the exact run computes."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irprops.metrics import Measure, Metric, Situation, parse, reads
from irprops.metrics.reads import COLD_LOOKUPS, ReadMemo


def declared(name: str, formula: Any, relevance: str = "binary") -> Measure:
    return Measure(Metric(name, formula, relevance, (), (), "a test formula"), {})  # type: ignore[arg-type]


# each formula reads the situation in one of the ways the algebra allows; the reads of ERR-like products depend on
# the answers (a rank is read only while the ones above it leave the product nonzero)
READS_R = declared("reads-R", lambda m: m.sum(1, m.k, lambda i: m.r(i)) / m.max(m.R, 1), "graded")
READS_G = declared("reads-g", lambda m: m.sum(1, m.k, lambda i: m.r(i) * m.g(i)), "graded")
READS_SORTED = declared("reads-r-sorted", lambda m: m.sum(1, m.k, lambda i: m.r_sorted(i) / i), "graded")
READS_UNJUDGED = declared("reads-unjudged", lambda m: m.sum(1, m.k, lambda i: m.r(i) + 2 * m.unjudged(i)), "graded")
RANKS_ONLY = declared("ranks-only", lambda m: m.sum(1, m.k, lambda i: m.r(i) / 2**i), "graded")
PRODUCT = declared("err-like", lambda m: m.sum(1, m.k, lambda i: m.r(i) / i * m.prod(1, i - 1, lambda j: 1 - m.r(j) / 2)),
                   "graded")
FORMULAS = (READS_R, READS_G, READS_SORTED, READS_UNJUDGED, RANKS_ONLY, PRODUCT)

GRADE = st.sampled_from([Fraction(0), Fraction(1, 2), Fraction(1), None])


@st.composite
def situations(draw: st.DrawFn) -> Situation:
    """Situations at depth 3 with rankings of 3 to 5 documents, some unjudged, and 0 to 2 relevant documents more."""
    ranking = tuple(draw(st.lists(GRADE, min_size=3, max_size=5)))
    extra = tuple(draw(st.lists(st.sampled_from([Fraction(1, 2), Fraction(1)]), max_size=2)))
    return Situation(ranking, 3, tuple(g for g in ranking if g) + extra)


class TestASharedScoreIsTheExactRunsScore:
    @settings(max_examples=150, deadline=None)
    @given(st.lists(situations(), min_size=2, max_size=12))
    def test_for_every_way_of_reading_a_situation(self, many: list[Situation]) -> None:
        memos = {measure.name: ReadMemo() for measure in FORMULAS}
        for situation in many:
            for measure in FORMULAS:
                assert memos[measure.name].exact(measure, situation) == measure.exact(situation), (measure.name, situation)

    @settings(max_examples=100, deadline=None)
    @given(st.lists(situations(), min_size=2, max_size=12))
    def test_and_a_shared_float_screen_is_the_float_runs(self, many: list[Situation]) -> None:
        memos = {measure.name: ReadMemo() for measure in FORMULAS}
        for situation in many:
            for measure in FORMULAS:
                assert memos[measure.name].screen(measure, situation) == measure.screen(situation), (measure.name, situation)

    def test_a_formula_that_reads_R_is_run_again_for_another_R(self) -> None:
        memo = ReadMemo()
        one, three = Situation.of("1000", k=2), Situation.of("1000", k=2, R=3)
        assert (memo.exact(READS_R, one), memo.exact(READS_R, three), memo.runs) == (1, Fraction(1, 3), 2)

    def test_a_formula_that_reads_the_unjudged_mark_tells_an_unjudged_document_from_a_nonrelevant_one(self) -> None:
        memo = ReadMemo()
        assert memo.exact(READS_UNJUDGED, Situation.of("10", k=2)) == 1
        assert memo.exact(READS_UNJUDGED, Situation.of("1?", k=2)) == 3 and memo.runs == 2

    def test_a_formula_that_reads_the_qrels_tells_their_grades_apart(self) -> None:
        memo = ReadMemo()
        half = Situation((Fraction(1), Fraction(0)), 2, (Fraction(1), Fraction(1, 2)))
        one = Situation((Fraction(1), Fraction(0)), 2, (Fraction(1), Fraction(1)))
        assert (memo.exact(READS_G, half), memo.exact(READS_G, one), memo.runs) == (1, 1, 2)

    def test_a_formula_that_reads_the_sorted_grades_tells_two_orders_of_one_set_alike_and_two_sets_apart(self) -> None:
        memo = ReadMemo()
        assert memo.exact(READS_SORTED, Situation.of("01", k=2)) == memo.exact(READS_SORTED, Situation.of("10", k=2)) == 1
        assert memo.exact(READS_SORTED, Situation.of("11", k=2)) == Fraction(3, 2) and memo.runs == 2


class TestWhatIsShared:
    def test_situations_that_differ_only_where_the_formula_does_not_read_are_run_once(self) -> None:
        memo = ReadMemo()
        for situation in (Situation.of("1000", k=2), Situation.of("1011", k=2), Situation.of("10", k=2, R=4)):
            assert memo.exact(RANKS_ONLY, situation) == Fraction(1, 2)
        assert memo.runs == 1

    def test_an_err_like_product_shares_along_the_ranks_it_read(self) -> None:
        memo = ReadMemo()
        values = [memo.exact(PRODUCT, Situation.of(r, k=3)) for r in ("100", "101", "110", "100")]
        assert values == [PRODUCT.exact(Situation.of(r, k=3)) for r in ("100", "101", "110", "100")] and memo.runs == 3

    def test_two_measures_and_two_depths_never_share(self) -> None:
        memo, rbp = ReadMemo(), parse("RBP(p=1/2)")
        assert memo.exact(rbp, Situation.of("11", k=1)) == Fraction(1, 2)
        assert memo.exact(rbp, Situation.of("11", k=2)) == Fraction(3, 4)
        assert memo.exact(RANKS_ONLY, Situation.of("11", k=2)) == Fraction(3, 4) and memo.runs == 3

    def test_a_run_that_raises_is_not_kept(self) -> None:
        calls = []

        def flaky(m: Any) -> Any:
            calls.append(1)
            if len(calls) == 1:
                raise RuntimeError("first run only")
            return m.r(1)

        measure, memo = declared("flaky", flaky), ReadMemo()
        try:
            memo.exact(measure, Situation.of("1", k=1))
        except RuntimeError:
            pass
        assert memo.exact(measure, Situation.of("1", k=1)) == 1 and memo.runs == 1 and len(calls) == 2

    def test_a_float_screen_that_needed_the_exact_run_is_not_kept(self) -> None:
        # 1 / (R - 3): no value at R = 3, which the float run leaves to the exact run (a 0 may be a number rounded to 0);
        # the exact run's reads are not the float run's, so that screen is computed again for the next situation
        measure, memo = declared("pole-at-three", lambda m: m.r(1) / (m.R - 3), "graded"), ReadMemo()
        for situation in (Situation.of("111", k=1), Situation.of("1110", k=1)):
            assert memo.screen(measure, situation) == measure.screen(situation)
        assert memo.screens == 2
        for situation in (Situation.of("1111", k=1), Situation.of("11110", k=1)):
            assert memo.screen(measure, situation) == 1
        assert memo.screens == 3


class TestAThresholdSharesNothing:
    def test_a_threshold_that_drops_a_qrel_is_not_answered_from_a_run_whose_reads_looked_alike(self) -> None:
        memo, measure = ReadMemo(), parse("AP(rel=1/2)@1")
        both = Situation.of("1", k=1, qrels="1,1")  # R = 2 after the threshold: AP = 1/2
        dropped = Situation.of("1", k=1, qrels="1,1/4")  # R = 2 before it, 1 after: AP = 1
        assert memo.exact(measure, both) == Fraction(1, 2)
        assert memo.exact(measure, dropped) == measure.exact(dropped) == 1


class TestAMemoThatSeldomSharesStopsKeepingPaths:
    """Where fewer than one lookup in COLD_SHARE is answered from a path (at depths of one binary magnitude) and runs are
    cheap, the memo runs the formula plainly: a time policy, never a value."""

    def distinct(self, count: int, k: int = 20) -> list[Situation]:
        return [Situation(tuple(Fraction(int(bit)) for bit in format(n, f"0{k}b")), k, (Fraction(1),) * k) for n in range(count)]

    def test_after_many_misses_a_situation_seen_before_is_run_again(self) -> None:
        memo, many = ReadMemo(), self.distinct(COLD_LOOKUPS + 10)
        for situation in many:
            memo.exact(RANKS_ONLY, situation)
        runs = memo.runs
        assert memo.exact(RANKS_ONLY, many[0]) == RANKS_ONLY.exact(many[0]) and memo.runs == runs + 1

    def test_before_that_it_is_answered_from_its_path(self) -> None:
        memo, many = ReadMemo(), self.distinct(COLD_LOOKUPS // 2)
        for situation in many:
            memo.exact(RANKS_ONLY, situation)
        runs = memo.runs
        assert memo.exact(RANKS_ONLY, many[0]) == RANKS_ONLY.exact(many[0]) and memo.runs == runs

    def test_where_runs_are_dear_it_keeps_sharing(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(reads, "COLD_RUN_SECONDS", 0.0)  # every run counts as dear
        memo, many = ReadMemo(), self.distinct(COLD_LOOKUPS + 10)
        for situation in many:
            memo.exact(RANKS_ONLY, situation)
        runs = memo.runs
        assert memo.exact(RANKS_ONLY, many[0]) == RANKS_ONLY.exact(many[0]) and memo.runs == runs

    def test_other_depths_keep_sharing(self) -> None:
        memo = ReadMemo()
        for situation in self.distinct(COLD_LOOKUPS + 10):
            memo.exact(RANKS_ONLY, situation)
        shallow = Situation.of("10", k=2)
        memo.exact(RANKS_ONLY, shallow)
        runs = memo.runs
        assert memo.exact(RANKS_ONLY, Situation.of("10", k=2, R=3)) == RANKS_ONLY.exact(shallow) and memo.runs == runs

    @settings(max_examples=10, deadline=None)
    @given(st.lists(st.integers(0, 2**12 - 1), min_size=COLD_LOOKUPS, max_size=3 * COLD_LOOKUPS))
    def test_every_value_is_the_runs_cold_or_not(self, numbers: list[int]) -> None:
        memos = {measure.name: ReadMemo() for measure in FORMULAS}
        for n in numbers:
            situation = Situation(tuple(Fraction(int(b)) for b in format(n, "012b")), 12, (Fraction(1),) * 12)
            for measure in FORMULAS:
                memo = memos[measure.name]
                assert memo.exact(measure, situation) == measure.exact(situation)
                assert memo.screen(measure, situation) == measure.screen(situation)
