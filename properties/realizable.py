"""Realizability.

Statement: for every depth k >= 1 and every collection with at least one relevant
document of grade 1, some arrangement of the collection reaches, at depth k, the
metric's supremum (the least upper bound of its scores over all situations, at any depth).

Paper (Moffat 2013, Section 4 (7)): "Provided that the collection has at least one
relevant document, it is possible for the score at depth k to be maximal."

Choices: the collection is the qrels plus k nonrelevant documents, so that any k
documents can fill the top k; an arrangement orders the whole collection (a ranking of
k + R documents), and the qrels are the collection's relevant grades. "Grade 1" keeps HIT
realizable: with only half-relevant documents it cannot reach 1. The supremum is over
scores at any depth, so an unbounded metric is never realizable and a metric such as
RBP, whose largest score at depth k grows with k, is not either.

Witness: ``{"k", "qrels", "max", "better": {"k", "ranking", "qrels", "value"}}``: the exact
maximum over every arrangement at depth k, and a situation elsewhere that scores more.
For P it finds k = 2 with R = 1 (maximum 1/2, while ``10`` scores 1 at k = 1). Where the metric
is undefined on every arrangement of the collection, ``max`` is null and the better situation
is any defined one: no arrangement reaches the supremum.

Search: every depth k <= max_k and every collection of up to three relevant documents
over the exhaustive grade scale (at least one of grade 1); all arrangements of each are
scored. A witness's maximum is certified against every arrangement, and its better
situation is the first one, in the minimal order, that certifiably scores more. Where
that finds none, a wide phase tries larger collections at depths 1 and 2 (R = 4 to
WIDE_RELEVANT, all of grade 1; on a graded scale also one of grade 1 and the rest of the
lowest grade, at depth 1): a metric undefined, or short of its supremum, only from some
R on is a failure of realizability no small collection shows.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterator
from fractions import Fraction

from sympy.utilities.iterables import multiset_permutations

from irprops.metrics import Situation, Undecided
from irprops.verdicts import Prop, Search, Verdict, VerdictValue, Witness, grades_json, ranking_text, show, situation_json

from . import targets
from .base import RERUNS, Property, SearchLog, method, register
from .space import ONE, Space, consistent
from .targets import Defect, Hang, Scored, Target, clearly, relation, score_of

MAX_RELEVANT = 3
WIDE_RELEVANT = 10
WIDE_DEPTHS = (1, 2)


def arrangements(k: int, qrels: tuple[Fraction, ...], counted: bool = False) -> list[Situation]:
    """Every ordering of the collection (the qrels and k nonrelevant documents), as situations at depth k; ``counted``:
    each giving N = k (the collection's judged nonrelevant documents, for a metric that reads them).

    >>> [s.ranking for s in arrangements(1, (Fraction(1),))]
    [(Fraction(0, 1), Fraction(1, 1)), (Fraction(1, 1), Fraction(0, 1))]
    """
    documents = sorted(qrels + (Fraction(0),) * k)
    return [consistent(tuple(order), k, qrels, k if counted else None) for order in multiset_permutations(documents)]


@register
class Realizable(Property):
    key = Prop.REALIZABLE
    reading = ("the supremum is over every depth; the collection is the qrels (at least one of grade 1) "
               "plus k nonrelevant documents, arranged in every order")
    title = "Realizability"
    wording = "Provided that the collection has at least one relevant document, it is possible for the score at depth k to be maximal."
    statement = "max over the arrangements a of the collection of score(a, k) = sup score, whenever R >= 1"

    def instance(self, witness: Witness) -> str:
        d = witness.data
        better = d["better"]
        where = f"at k = {d['k']} with qrels {{{','.join(d['qrels'])}}}"
        elsewhere = f"`{ranking_text(better['ranking'])}` scores {better['value']} at k = {better['k']}"
        if d["max"] is None:
            return f"{where}, score(a, {d['k']}) is undefined for every arrangement a, but {elsewhere}"
        return f"{where}, max_a score(a, {d['k']}) = {d['max']}, but {elsewhere}, so the supremum is not reached"

    def collections(self, space: Space) -> Iterator[tuple[int, tuple[Fraction, ...]]]:
        """(k, qrels) in minimal order: depth, then number of relevant documents, then grades."""
        for k in range(1, space.max_k + 1):
            for R in range(1, MAX_RELEVANT + 1):
                for qrels in itertools.combinations_with_replacement(sorted(space.positive, reverse=True), R):
                    if ONE in qrels:
                        yield k, qrels

    @staticmethod
    def wide(space: Space) -> Iterator[tuple[int, tuple[Fraction, ...]]]:
        """(k, qrels) of the wide phase, in its order: depth, then R, then the all-grade-1 collection first."""
        lowest = min(space.positive)
        for k in WIDE_DEPTHS:
            for R in range(MAX_RELEVANT + 1, WIDE_RELEVANT + 1):
                yield k, (ONE,) * R
                if lowest != ONE and k == WIDE_DEPTHS[0]:
                    yield k, (ONE,) + (lowest,) * (R - 1)

    @staticmethod
    def describe(space: Space) -> str:
        return (f"{space.scale()}, k <= {space.max_k}, collections of 1 to {MAX_RELEVANT} relevant documents "
                "(at least one of grade 1) plus k nonrelevant ones")

    @staticmethod
    def describe_wide(space: Space) -> str:
        mixed = (f"; at k = {WIDE_DEPTHS[0]} also one of grade 1 and the rest of grade {grades_json([min(space.positive)])[0]}"
                 if min(space.positive) != ONE else "")
        return (f"at k = {' and '.join(map(str, WIDE_DEPTHS))}, collections of {MAX_RELEVANT + 1} to {WIDE_RELEVANT} relevant "
                f"documents of grade 1{mixed}")

    def run(self, target: Target, space: Space, settled: Callable[[], bool] | None = None) -> Verdict:
        start = time.perf_counter()
        log = SearchLog(space.budget)
        explored: list[tuple[Situation, Scored]] = []
        maxima: list[tuple[int, tuple[Fraction, ...], list[tuple[Situation, Scored]] | None]] = []
        phases = ((self.collections(space), f"Minimal in the order (k, then R) over {self.describe(space)}"),
                  (self.wide(space), f"None over {self.describe(space)}; found in the wide phase ({self.describe_wide(space)})"))
        undecided = targets.undecided()
        for minimal, (collections, where) in enumerate(phases):
            try:
                for k, qrels in collections:
                    if time.perf_counter() - start > space.budget:
                        log.out_of_time = True
                        break
                    scored = self._scored(target, arrangements(k, qrels, space.nonrelevant), log)
                    explored.extend(scored or [])
                    maxima.append((k, qrels, scored))
            except Hang as hang:
                log.hang = hang
            if log.stopped:
                how, evidence = log.stop_reason("arrangements")
                return self._done("unknown", log.search(how, evidence + "." + log.defect_note(), "arrangements",
                                                        time.perf_counter() - start), None)
            if explored:
                top = _near_top(explored)
                for place, (k, qrels, scored) in enumerate(maxima):
                    found = self._witness(k, qrels, scored, explored, top, space.nonrelevant)
                    if found is not None and self._confirmed(found, target, log):
                        skipped = targets.undecided() - undecided
                        if skipped and not minimal:
                            where = (f"First in the order (k, then R) over {self.describe(space)}, not certified minimal ({skipped:,} "
                                     "earlier comparisons could not be decided exactly)")
                        elif place > 0 and not minimal:  # the supremum may lie above every score the search saw (a
                            largest = max(top, key=lambda o: o.approx).shown()  # twenty-sixth hostile review)
                            where = (f"First in the order (k, then R) over {self.describe(space)}; the {place:,} collection(s) "
                                     f"before it reach the largest score found ({largest}), so it is minimal if no situation "
                                     "scores more (the supremum is over every depth: not shown by a search)")
                        evidence = f"{found.text}. {where}; {log.tried:,} arrangements scored."
                        how = method("exhaustive search", found.numerical)
                        searched = log.search(how, evidence + log.defect_note(), "arrangements", time.perf_counter() - start,
                                              minimal=not minimal and not skipped and place == 0)
                        return self._done("no", searched, found)
        evidence = (f"not refuted in {log.tried:,} arrangements: over {self.describe(space)}, and {self.describe_wide(space)}, "
                    "every collection reaches the largest score found.")
        return self._done("unknown", log.search(method("exhaustive search", not target.exact), evidence + log.defect_note(),
                                                "arrangements", time.perf_counter() - start), None)

    def _done(self, verdict: VerdictValue, searched: Search, witness: Witness | None) -> Verdict:
        return Verdict(self.key, verdict, searched, witness, seconds=searched.seconds)

    def _scored(self, target: Target, situations: list[Situation], log: SearchLog) -> list[tuple[Situation, Scored]] | None:
        """The defined scores of ``situations``; defects are counted and skipped, a hang propagates. None when the
        target is certainly undefined on every one (no defect; a declared metric's floats are confirmed by its exact
        form): a collection where no arrangement reaches the supremum."""
        scored, defects = [], log.defects
        if target.batches:
            target.prefetch(situations)  # a toolkit scores them in one call
        for s in situations:
            log.tried += 1
            try:
                outcome = target.score(s)
            except Hang:
                raise
            except Defect as defect:
                log.record(defect)
                continue
            if isinstance(outcome, Scored):
                scored.append((s, outcome))
        if not scored and situations and log.defects == defects and all(target.certainly_undefined(s) for s in situations):
            return None
        return scored

    def _confirmed(self, found: Witness, target: Target, log: SearchLog) -> bool:
        """Re-derive the witness on fresh copies of a proposal (RERUNS times): a nondeterministic one is a defect."""
        if target.fresh() is target:
            return True
        k, qrels = found.data["k"], tuple(Fraction(g) for g in found.data["qrels"])
        better, counted = found.data["better"], "N" in found.data
        again_better = consistent(tuple(Fraction(g) for g in better["ranking"]), better["k"], tuple(Fraction(g) for g in better["qrels"]),
                                  better.get("N"))
        for _ in range(RERUNS):
            fresh = target.fresh()
            scored = self._scored(fresh, arrangements(k, qrels, counted), log)
            elsewhere = self._scored(fresh, [again_better], log)
            again = None
            if elsewhere:
                again = self._witness(k, qrels, scored, elsewhere, _near_top((scored or []) + elsewhere), counted)
            if again is None or (again.data, again.text) != (found.data, found.text):
                log.record(Defect(again_better, f"answered differently when re-run on the same inputs ({found.text})"))
                return False
        return True

    def _witness(self, k: int, qrels: tuple[Fraction, ...], scored: list[tuple[Situation, Scored]] | None,
                 explored: list[tuple[Situation, Scored]], top: list[Scored], counted: bool = False) -> Witness | None:
        collection = {"N": k} if counted else {}
        where = f"at k = {k} with qrels {{{','.join(grades_json(qrels))}}}" + (f" and N = {k}" if counted else "")
        if scored is None:  # undefined on every arrangement: none reaches the supremum, which a defined score bounds below
            if not explored:
                return None
            s, outcome = explored[0]
            text = (f"{where}, the metric is undefined on every arrangement, so "
                    f"none reaches the supremum, while {show(s)} scores {outcome.shown()}")
            return Witness({"k": k, "qrels": grades_json(qrels), **collection, "max": None,
                            "better": {**situation_json(s), "value": outcome.text()}}, text, outcome.numerical,
                           scores=(score_of("a situation with a value", s, outcome),))
        if not scored:
            return None
        best_here, best_score = max(scored, key=lambda pair: pair[1].approx)
        if not any(clearly(o, best_score) > 0 for o in top):  # as large as the largest scores seen, in floating point
            above = [relation(o, best_score) for o in top if clearly(o, best_score) >= 0]
            if any(r is None for r in above) or not any(r is not None and r.sign > 0 for r in above):
                return None  # reaches the largest score seen, exactly (or cannot be told apart from it: counted undecided)
        numerical = False
        for here, outcome in scored:  # the exact maximum over the arrangements (floats may tie: 1 and 1 - 2**-60)
            found = relation(outcome, best_score)
            if found is None:
                return None
            if found.sign > 0:
                best_here, best_score = here, outcome
            numerical |= found.numerical
        for s, outcome in explored:  # the first situation, in minimal order, that certifiably scores more
            if clearly(outcome, best_score) >= 0:
                found = relation(outcome, best_score)
                if found is not None and found.sign > 0:
                    text = (
                        f"{where}, no arrangement scores more than {best_score.shown()} "
                        f"(reached by {show(best_here, k=False)}), but {show(s)} scores {outcome.shown()}"
                    )
                    data = {"k": k, "qrels": grades_json(qrels), **collection, "max": best_score.text(),
                            "better": {**situation_json(s), "value": outcome.text()}}
                    scores = (score_of("the best arrangement", best_here, best_score), score_of("scores more", s, outcome))
                    return Witness(data, text, numerical or found.numerical, scores=scores)
        return None


def _near_top(explored: list[tuple[Situation, Scored]]) -> list[Scored]:
    """The scores seen that are not clearly below the largest in floating point, one per exact value: a collection's best
    is compared exactly with these (a sixteenth hostile review: 1 - 2**-60 and 1 tie in floats, and a collection that
    misses the supremum by 2**-60 was passed over while the witness was called minimal)."""
    outcomes = [o for _, o in explored]
    near: dict[str, Scored] = {}
    while outcomes and not near:
        largest = max(outcomes, key=lambda o: o.approx)
        try:
            near[largest.text()] = largest
        except Undecided:  # its floats say it has a value, its exact form says none (round 34: a traceback): no score
            outcomes = [o for o in outcomes if o is not largest]
    for outcome in outcomes:
        if clearly(outcome, largest) >= 0:
            try:
                near.setdefault(outcome.text(), outcome)
            except Undecided:
                continue
    return list(near.values())
