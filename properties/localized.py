"""Localization.

Statement: for every depth k >= 1 and any two situations whose rankings have the same
grades at ranks 1..k, the scores at depth k are equal (or both undefined), whatever the
qrels and whatever the documents below k.

Paper (Moffat 2013, Section 4 (5)): "A score at depth k can be computed based solely on
knowledge of the documents that appear in the top k."

Choices: "knowledge of the documents" is read as knowledge of their grades. The two
situations may differ in the documents below k and in the relevant documents that were
not retrieved (so in R), and each must be consistent (its qrels contain its ranking's
relevant documents). One defined and one undefined score is a counterexample, but a weak
one: the search reports it only when it finds no pair with both scores defined (which does
not lean on the metric's convention for an undefined score, say at R = 0).

Witness: ``{"k", "a": {"ranking", "qrels"}, "b": {"ranking", "qrels"}}``. The search
compares each situation b with a, the same top k and nothing else (no documents below
k, no relevant documents beyond those in the top k): if all situations sharing a top k
scored alike, each would score like a. For AP it finds ``1`` with R = 1 against ``1``
with R = 2 at k = 1. Where a proof settles the cell, the structured deep phase only cross-checks it, and two identical
floats there are not compared exactly (a witness still is).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import TYPE_CHECKING

from irprops.metrics import Situation, Undefined
from irprops.verdicts import Prop, Witness, collection_json, grades_json, ranking_text, show

from .base import SearchLog, SearchProperty, register
from .space import Space, deep_situations, size, smaller, top_only
from .targets import Scored, Target, informative, relation, score_of

if TYPE_CHECKING:
    from hypothesis import strategies as st

Pair = tuple[Situation, Situation]


class _Deep(tuple):  # type: ignore[type-arg]
    """A pair of the structured deep phase cross-checking a proof (where identical floats are not compared exactly)."""

    __slots__ = ()


@register
class Localized(SearchProperty[Pair]):
    key = Prop.LOCALIZED
    reading = ("knowledge of the top k is knowledge of its grades; the qrels and the documents below k may differ; "
               "a defined score against an undefined one is a counterexample only when no pair with both defined is found")
    title = "Localization"
    wording = "A score at depth k can be computed based solely on knowledge of the documents that appear in the top k."
    statement = "score(a, k) = score(b, k) whenever rankings a and b have the same grades at ranks 1 to k"
    noun = "pairs of situations"
    preferred = "with both scores defined"

    def candidates(self, space: Space) -> Iterator[Pair]:
        for k in range(1, space.max_k + 1):
            for length in range(k, k + space.below + 2):  # up to below + 1 documents under the depth
                for b in space.situations(k, length):
                    a = top_only(b)
                    if a != b:
                        yield a, b

    def deep_candidates(self, space: Space) -> Iterator[Pair]:
        for k in space.deep_depths():
            for b in deep_situations(k, k + 2, space.unjudged, space.nonrelevant):
                a = top_only(b)
                if a != b:
                    yield a, b

    def cross_checking(self, candidate: Pair) -> Pair:
        return _Deep(candidate)

    def strategy(self, space: Space) -> st.SearchStrategy[Pair]:
        return space.strategy(at_least=0).map(lambda b: (top_only(b), b)).filter(lambda pair: pair[0] != pair[1])

    def shrink(self, candidate: Pair) -> Iterator[Pair]:
        for b in smaller(candidate[1], min_length=0):
            a = top_only(b)
            if a != b:
                yield a, b

    def passed_over(self, seen: list[Pair], target: Target, log: SearchLog, everything: bool = False) -> tuple[Pair, Witness] | None:
        """Two situations of ``seen`` with the same top k, both scores defined and different, the later one as small as
        can be and smaller than the witness found (the last of ``seen``): in each class of situations sharing a top k,
        the first defined one against the first that differs from it (any pair of the class before that one scores
        alike). A twenty-seventh hostile review: a metric undefined at R = 0 paired `0` (R = 2) only with `0` (R = 0),
        and a witness at R = 3 was called minimal past `0` with R = 1 and 2."""
        classes: dict[tuple[int, tuple[object, ...]], set[Situation]] = {}
        for pair in seen:
            for s in pair:
                classes.setdefault((s.k, s.ranking[: s.k]), set()).add(s)
        best: tuple[Pair, Witness] | None = None
        limit = (math.inf,) * 3 if everything else size(seen[-1][1])[:3]  # the witness found: only a smaller one replaces it
        for members in classes.values():
            # an unjudged document (None) sorts after every grade: Python cannot order None against a Fraction (round 39)
            ordered = sorted(members, key=lambda s: (size(s), tuple((g is None, g or 0) for g in s.ranking), s.qrels))
            defined = [s for s in ordered if size(s)[:3] < limit and isinstance(target.score(s), Scored)]
            for later in defined[1:]:
                found = log.attempt(self, (defined[0], later), target)
                if found is not None and not found.weak:
                    if best is None or size(later)[:3] < size(best[0][1])[:3]:
                        best = (defined[0], later), found
                    break
        return best

    def instance(self, witness: Witness) -> str:
        a, b = witness.scores
        k = witness.data["k"]
        return (f"score(a, {k}) = {a.shown()} but score(b, {k}) = {b.shown()}, for a = `{ranking_text(a.situation['ranking'])}` "
                f"(R = {len(a.situation['qrels'])}) and b = `{ranking_text(b.situation['ranking'])}` (R = {len(b.situation['qrels'])}), "
                f"which agree on ranks 1 to {k}")

    def witness(self, candidate: Pair, target: Target) -> Witness | None:
        a, b = candidate
        first, second = target.score(a), target.score(b)
        if isinstance(first, Scored) and isinstance(second, Scored):
            if isinstance(candidate, _Deep) and first.approx == second.approx and informative(first):
                return None  # a proof settles the cell, and the deep phase only cross-checks it: identical floats are not
                # pursued there (as monotonicity does everywhere: completeness only, never soundness; comparing them exactly
                # was most of the time of a proved cell, issue 13)
            found = relation(first, second)  # identical floats are compared exactly too (1 and 1 + 2**-60 differ: a sixteenth
            # hostile review found a witness called minimal past such a pair)
            if found is None or found.sign == 0:
                return None
            numerical = found.numerical
        elif isinstance(first, Undefined) != isinstance(second, Undefined):
            if not target.certainly_undefined(a if isinstance(first, Undefined) else b):
                return None
            numerical = False
        else:
            return None
        text = f"at k = {a.k}, {show(a, k=False)} scores {_text(first)} but {show(b, k=False)} scores {_text(second)}"
        weak = isinstance(first, Undefined) or isinstance(second, Undefined)
        scores = (score_of("a", a, first), score_of("b", b, second))
        return Witness({"k": a.k, "a": _side(a), "b": _side(b)}, text, numerical, weak, scores=scores)


def _side(s: Situation) -> dict[str, object]:
    return {"ranking": grades_json(s.ranking), "qrels": grades_json(s.qrels), **collection_json(s)}


def _text(outcome: Scored | Undefined) -> str:
    return "undefined" if isinstance(outcome, Undefined) else outcome.shown()
