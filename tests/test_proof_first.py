"""The search around a proof (issue 13, item 1): a witness settles a cell without the prover, a proof for every k
shortens the search to a cross-check, and a proof that does not settle the cell after all sends it back to the full
search."""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import find
from hypothesis import strategies as st
from hypothesis.errors import NoSuchExample

from irprops import check
from irprops.metrics import Measure, Situation, judged_nonrelevant
from irprops.properties import Space
from irprops.properties.base import CROSS_CHECK_EXAMPLES, _search_settings
from irprops.properties.space import NONRELEVANT_EXTRA, consistent

from .adversarial_proposals import proposal


# The score of the top k is 1 + (relevant documents in it); from depth 11 on, a relevant document just below k adds
# 2^-80: the two scores round to the same float. Localization is false at k = 11 (`000000000001` at k = 11 scores
# 1 + 2^-80, its top 11 alone 1), past the exhaustive depths (k <= 6) and Hypothesis' (k <= 10).
@proposal("whisper-below-from-11")
def whisper_below_from_11(m: Any) -> Any:
    return 1 + m.sum(1, m.k, m.r) + m.min(1, m.max(0, m.k - 10)) * m.r(m.k + 1) / m.num(2**80)


def whisper_truth(ranking: tuple[Fraction, ...], k: int) -> Fraction:
    below = ranking[k] if k > 10 and len(ranking) > k else Fraction(0)
    return 1 + sum(ranking[:k], Fraction(0)) + below / 2**80


class TestAWitnessSettlesACellWithoutTheProver:
    def test_a_cell_the_exhaustive_search_refutes_is_never_handed_to_the_prover(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from irprops import checking

        monkeypatch.setattr(checking, "prove", lambda measure, prop: pytest.fail(f"the prover was asked about {prop}"))
        verdict = check("P", ["top_weighted"])["top_weighted"]
        assert verdict.verdict == "no" and verdict.witness is not None and verdict.witness.data["k"] == 2
        assert verdict.proof is None


class TestAProofForEveryKShortensTheSearchToACrossCheck:
    def test_a_proved_cell_tries_fewer_candidates_than_the_full_search_and_says_why(self) -> None:
        proved = check("P", ["convergent"])["convergent"]
        searched = check("P", ["convergent"], prove=False)["convergent"]
        assert proved.verdict == "yes" and proved.method == "proof (all k)" and searched.verdict == "unknown"
        assert proved.search is not None and searched.search is not None
        assert proved.search.tried < searched.search.tried
        assert f"then {CROSS_CHECK_EXAMPLES} Hypothesis examples" in proved.search.evidence
        assert "a proof settles the cell" in proved.search.evidence and "structured cases with k <= 200" in proved.search.evidence

    def test_the_proofs_time_is_not_taken_from_the_searchs_budget(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from irprops import checking
        from irprops.proofs import prove

        def slow(measure: Measure, prop: Any) -> Any:
            time.sleep(1.5)
            return prove(measure, prop)

        monkeypatch.setattr(checking, "prove", slow)
        verdict = check("P", ["complete"], budget=1.0)["complete"]
        assert verdict.search is not None and verdict.search.stopped is None
        assert verdict.verdict == "yes" and verdict.method == "proof (all k)"

    def test_a_disputed_proof_sends_the_cell_back_to_the_full_search(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from irprops import checking
        from irprops.verdicts import CrossCheck

        monkeypatch.setattr(checking, "cross_check", lambda obligations: CrossCheck("disagreement", "cvc5: sat (simulated)"))
        disputed = check("P", ["convergent"])["convergent"]
        searched = check("P", ["convergent"], prove=False)["convergent"]
        assert disputed.verdict == "unknown" and disputed.proof is not None and disputed.proof.disputed
        assert disputed.search is not None and searched.search is not None
        assert disputed.search.tried == searched.search.tried and "a proof settles the cell" not in disputed.search.evidence


class TestWhereNoProofSettlesTheCellTheDeepSearchComparesExactly:
    def test_two_scores_with_the_same_float_are_told_apart_at_depth_11(self) -> None:
        verdict = check(whisper_below_from_11, ["localized"])["localized"]
        assert verdict.verdict == "no" and verdict.witness is not None and verdict.witness.data["k"] == 11
        a, b = verdict.witness.data["a"], verdict.witness.data["b"]
        ranking_a = tuple(Fraction(g) for g in a["ranking"])
        ranking_b = tuple(Fraction(g) for g in b["ranking"])
        assert ranking_a[:11] == ranking_b[:11]
        first, second = whisper_truth(ranking_a, 11), whisper_truth(ranking_b, 11)
        assert first != second and float(first) == float(second)  # a difference below floating point


class TestTheHypothesisPhaseDrawsAsBefore:
    """Its strategies are built once per space (they were built on every draw): the examples, and so every report, are the
    same."""

    @staticmethod
    def per_draw(space: Space, at_least: int) -> st.SearchStrategy[Any]:
        @st.composite
        def situations(draw: st.DrawFn) -> Any:
            k = draw(st.integers(1, space.search_max_k), label="k")
            length = draw(st.integers(k + at_least, k + at_least + space.below + 2), label="length")
            grade = st.sampled_from(space.search_grades)
            entry = st.one_of(grade, st.none()) if space.unjudged else grade
            ranking = tuple(draw(st.lists(entry, min_size=length, max_size=length), label="ranking"))
            unretrieved = tuple(draw(st.lists(grade.filter(bool), max_size=space.extra + 2), label="unretrieved"))
            N = judged_nonrelevant(ranking) + draw(st.integers(0, NONRELEVANT_EXTRA + 2), label="N") if space.nonrelevant else None
            return consistent(ranking, k, tuple(g for g in ranking if g) + unretrieved, N)
        return situations()

    @pytest.mark.parametrize("space", [Space.default(True), Space.default(False), Space.default(True, True, True)],
                             ids=["binary", "graded", "unjudged-and-N"])
    @pytest.mark.parametrize("at_least", [0, 1])
    def test_the_first_200_situations_are_those_of_a_per_draw_build(self, space: Space, at_least: int) -> None:
        drawn: list[list[Any]] = []
        for strategy in (self.per_draw(space, at_least), space.strategy(at_least)):
            seen: list[Any] = []
            with pytest.raises(NoSuchExample):
                find(strategy, lambda s, seen=seen: seen.append(s) or False, settings=_search_settings(200))  # type: ignore[misc]
            drawn.append(seen)
        assert len(drawn[0]) == 200 and drawn[0] == drawn[1]


def test_the_whisper_oracle_is_the_declared_formula() -> None:
    """The oracle above, held against the formula's own exact runs (so the test of depth 11 rests on the right truth)."""
    for k in (1, 10, 11, 12):
        for ranking in ("0" * (k + 1), "0" * k + "1", "1" * (k + 2)):
            value = whisper_below_from_11.exact(Situation.of(ranking, k=k))
            assert value == whisper_truth(tuple(Fraction(c) for c in ranking), k)
