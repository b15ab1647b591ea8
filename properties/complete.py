"""Completeness.

Statement: for every depth k >= 1, the score is defined on every situation whose
collection has no relevant document (R = 0; the ranking then holds only grade-0
documents).

Paper (Moffat 2013, Section 4 (6)): "A score can be calculated even if the query has no
relevant documents."

Choices: "can be calculated" means the metric's value is not undefined. A proposal
signals undefined by returning None or raising ZeroDivisionError; any other exception is
a defect of the proposal, reported as such, not a "no". The rankings tried are k to
k + below + 1 documents long.

Witness: ``{"k", "ranking", "qrels": []}``: the score is undefined there. For AP, NDCG,
Recall, RPrec and the self-normalised metrics the search finds ``0`` at k = 1.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from fractions import Fraction
from typing import TYPE_CHECKING

from irprops.metrics import Situation, judged_nonrelevant
from irprops.verdicts import Prop, Score, Witness, ranking_text, show, situation_json

from .base import SearchProperty, register
from .space import ZERO, Space, consistent, marked
from .targets import Target

if TYPE_CHECKING:
    from hypothesis import strategies as st


def _empty(k: int, length: int, counted: bool = False) -> Situation:
    """No relevant document: ``length`` judged nonrelevant ones (``counted``: and N = length, the collection's)."""
    return Situation.unchecked((Fraction(0),) * length, k, (), length if counted else None)


@register
class Complete(SearchProperty[Situation]):
    key = Prop.COMPLETE
    reading = "with R = 0 the score must not be undefined (None or a division by zero); any other failure is a defect, not an answer"
    title = "Completeness"
    wording = "A score can be calculated even if the query has no relevant documents."
    statement = "score(r, k) is defined for every ranking r of a collection with no relevant document (R = 0)"

    def instance(self, witness: Witness) -> str:
        return f"score(r, {witness.data['k']}) is undefined for r = `{ranking_text(witness.data['ranking'])}` with R = 0"
    noun = "situations with R = 0"

    def candidates(self, space: Space) -> Iterator[Situation]:
        for k in range(1, space.search_max_k + 1):
            for length in range(k, k + space.below + 2):
                yield _empty(k, length, space.nonrelevant)
                if space.unjudged and k <= space.max_k:  # every mix of nonrelevant and unjudged documents
                    for ranking in itertools.product((ZERO, None), repeat=length):
                        if None in ranking:
                            yield consistent(ranking, k, (), judged_nonrelevant(ranking) if space.nonrelevant else None)

    def deep_candidates(self, space: Space) -> Iterator[Situation]:
        for k in space.deep_depths():
            yield _empty(k, k + 2, space.nonrelevant)
            if space.unjudged:
                for where in ((1,), (k,), range(1, k + 3)):
                    ranking = marked(k + 2, where, None)
                    yield consistent(ranking, k, (), judged_nonrelevant(ranking) if space.nonrelevant else None)

    def strategy(self, space: Space) -> st.SearchStrategy[Situation]:
        from hypothesis import strategies as st

        return st.integers(1, space.search_max_k).flatmap(
            lambda k: st.integers(k, k + space.below + 3).map(lambda n: _empty(k, n, space.nonrelevant)))

    def witness(self, candidate: Situation, target: Target) -> Witness | None:
        if not target.certainly_undefined(candidate):
            return None
        return Witness(situation_json(candidate), f"{show(candidate)} is undefined, with no relevant document in the collection",
                       scores=(Score(f"at k = {candidate.k}", situation_json(candidate), None, None),))
