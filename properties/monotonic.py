"""Monotonicity.

Statement: for every depth k >= 1, every ranking with at least k + 1 documents and every
qrels,

    score(ranking, k + 1, qrels) >= score(ranking, k, qrels).

Paper (Moffat 2013, Section 4 (2)): "If a ranking of length k is extended so that k + 1
elements are included, the score never decreases."

Choices: the extension is the ranking's own document at rank k + 1, and nothing else
changes (same qrels). A comparison in which either score is undefined is not a
counterexample: undefinedness is what completeness is about.

Witness: ``{"k", "ranking", "qrels"}``, the ranking at least k + 1 long, scoring strictly
less at depth k + 1 than at depth k. The paper's example is ``11111`` -> ``111110`` for
P, SDCG and NDCG (R > 5); the search finds ``10`` at k = 1.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from irprops.metrics import Situation
from irprops.verdicts import Prop, Witness, ranking_text, show, situation_json

from .base import SearchProperty, register
from .space import Space, deep_situations, smaller
from .targets import Scored, Target, clearly, informative, relation, score_of

if TYPE_CHECKING:
    from hypothesis import strategies as st


@register
class Monotonic(SearchProperty[Situation]):
    key = Prop.MONOTONIC
    reading = ("the extension is the ranking's own document at rank k + 1, with the same qrels; "
               "a comparison with an undefined side is no counterexample")
    title = "Monotonicity"
    wording = "If a ranking of length k is extended so that k + 1 elements are included, the score never decreases."
    noun = "extensions"
    statement = "score(r, k + 1) >= score(r, k) for every ranking r of at least k + 1 documents"

    def instance(self, witness: Witness) -> str:
        before, after = witness.scores
        k = witness.data["k"]
        return f"score(r, {k + 1}) = {after.shown()} < {before.shown()} = score(r, {k}), for r = `{ranking_text(witness.data['ranking'])}`"

    def candidates(self, space: Space) -> Iterator[Situation]:
        for k, length in space.depths_and_lengths(at_least=1):
            yield from space.situations(k, length)

    def strategy(self, space: Space) -> st.SearchStrategy[Situation]:
        return space.strategy(at_least=1)

    def shrink(self, candidate: Situation) -> Iterator[Situation]:
        return smaller(candidate, min_length=1)

    def deep_candidates(self, space: Space) -> Iterator[Situation]:
        for k in space.deep_depths():
            yield from deep_situations(k, k + 2, space.unjudged, space.nonrelevant)

    def needs(self, candidate: Situation) -> list[Situation]:
        return [candidate, candidate.at_depth(candidate.k + 1)]

    def witness(self, candidate: Situation, target: Target) -> Witness | None:
        before = target.score(candidate)
        after = target.score(candidate.at_depth(candidate.k + 1))
        if not (isinstance(before, Scored) and isinstance(after, Scored)) or clearly(after, before) > 0:
            return None
        if after.approx == before.approx and informative(after):
            return None  # identical floats: a strict drop is not pursued (costs completeness only, never soundness)
        found = relation(after, before)
        if found is None or found.sign >= 0:
            return None
        text = f"{show(candidate, k=False)} scores {before.shown()} at k = {candidate.k} but {after.shown()} at k = {candidate.k + 1}"
        deeper = candidate.at_depth(candidate.k + 1)
        scores = (score_of(f"at k = {candidate.k}", candidate, before), score_of(f"at k = {candidate.k + 1}", deeper, after))
        return Witness(situation_json(candidate), text, found.numerical, scores=scores)

