"""What convergence and top-weightedness share: swapping a more relevant document upwards.

Both statements quantify over a situation and two 1-based ranks i < j with
grade_i < grade_j: exchanging the two documents (same qrels) must strictly increase the
score at depth k. They differ only in where j lies (below the depth, or inside the top
k); see :mod:`properties.convergent` and :mod:`properties.top_weighted`.

A swap where either score is undefined is not a counterexample (undefinedness is what
completeness is about). Witness: ``{"k", "ranking", "qrels", "i", "j"}``: swapping ranks i
and j does not increase the score (it stays equal or drops).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from irprops.metrics import Situation
from irprops.metrics.grades import format_ranking
from irprops.verdicts import Witness, ranking_text, show, situation_json

from . import targets
from .base import SearchProperty
from .space import HALF, ONE, ZERO, Space, marked, smaller, swapped, with_qrels
from .targets import TOLERANCE, Defect, Hang, Scored, Target, clearly, relation, score_of

if TYPE_CHECKING:
    from hypothesis import strategies as st

Swap = tuple[Situation, int, int]
FLOAT_EQUALITY_MAX_K = 6
"""The deepest depth at which identical float scores after a swap count as an equal score (see
:meth:`SwapProperty._resolved`): the exhaustive phase's."""
GRADED_SHAPES_MAX_K = 12
"""The deepest depth of the graded shapes of the deep phase (graded Q fails from depth 8 on; deeper, they cost time)."""


class SwapProperty(SearchProperty[Swap]):
    noun = "swaps"
    below_depth: bool
    """Whether j lies below the depth (convergence) or inside the top k (top-weightedness)."""

    def instance(self, witness: Witness) -> str:
        before, after = witness.scores
        d = witness.data
        return (f"score(r', {d['k']}) = {after.shown()} <= {before.shown()} = "
                f"score(r, {d['k']}), for r = `{ranking_text(d['ranking'])}` and r' = `{ranking_text(after.situation['ranking'])}` "
                f"(ranks {d['i']} and {d['j']} swapped)")

    @property
    def at_least(self) -> int:
        return 1 if self.below_depth else 0

    def pairs(self, s: Situation) -> Iterator[tuple[int, int]]:
        """The rank pairs (i, j) the statement quantifies over, in lexicographic order."""
        grade = [g or 0 for g in s.ranking]
        last = len(s.ranking) if self.below_depth else min(s.k, len(s.ranking))
        for i in range(1, s.k + 1):
            for j in range(s.k + 1 if self.below_depth else i + 1, last + 1):
                if grade[i - 1] < grade[j - 1]:
                    yield i, j

    def candidates(self, space: Space) -> Iterator[Swap]:
        for k, length in space.depths_and_lengths(at_least=self.at_least):
            for s in space.situations(k, length):
                for i, j in self.pairs(s):
                    yield s, i, j

    def deep_candidates(self, space: Space) -> Iterator[Swap]:
        """At each depth k, the swaps at the edge of what the statement allows: for convergence ranks (k, k + 1) and
        (1, k + 1), for top-weightedness (k - 1, k) and (1, k); a single relevant document moving up, and a
        nonrelevant one moving down among relevant ones."""
        for k in space.deep_depths():
            length = k + 2
            pairs = [(k, k + 1), (1, k + 1)] if self.below_depth else [(k - 1, k), (1, k)]
            for i, j in dict.fromkeys(p for p in pairs if 1 <= p[0] < p[1]):
                rankings = [marked(length, (j,)), marked(length, (i,), ZERO, ONE)]
                if space.unjudged:  # an unjudged document at i (grade 0) and a relevant one at j
                    rankings.append(tuple(None if p == i else ONE if p == j else ZERO for p in range(1, length + 1)))
                for ranking in rankings:
                    for s in with_qrels(ranking, k, space.nonrelevant):
                        yield s, i, j
            if not space.binary and k <= GRADED_SHAPES_MAX_K:
                yield from self._partly_relevant_moving_up(k, space.nonrelevant)

    def _partly_relevant_moving_up(self, k: int, counted: bool) -> Iterator[Swap]:
        """A partly relevant document (grade 1/2) two or three ranks below rank i, under fully relevant ones, swapped with
        the nonrelevant document at i: a metric that counts relevant documents as well as adding grades (graded
        Q-measure) can score the move lower, from depth 8 on."""
        j = k + 1 if self.below_depth else k
        for i in (j - 2, j - 3):
            if i >= 1:
                ranking = tuple(ONE if i < p < j else HALF if p == j else ZERO for p in range(1, k + 3))
                for s in with_qrels(ranking, k, counted):
                    yield s, i, j

    def strategy(self, space: Space) -> st.SearchStrategy[Swap]:
        from hypothesis import strategies as st

        def with_pair(s: Situation) -> st.SearchStrategy[Swap]:
            pairs = list(self.pairs(s))
            return st.sampled_from(pairs).map(lambda p: (s, *p)) if pairs else st.nothing()

        return space.strategy(self.at_least).flatmap(with_pair)

    def shrink(self, candidate: Swap) -> Iterator[Swap]:
        s, i, j = candidate
        for simpler in smaller(s, min_length=self.at_least):
            if (i, j) in set(self.pairs(simpler)):
                yield simpler, i, j

    @staticmethod
    def _probes(s: Situation, i: int, j: int) -> list[tuple[Situation | None, Situation]]:
        """For each of ranks i and j: ``s`` without the document there (nonrelevant there; None where it is not relevant),
        and the document of rank j alone at that rank (the others nonrelevant, the unjudged unjudged); then the baseline,
        every document nonrelevant (the unjudged unjudged), as the last pair's second."""
        found: list[tuple[Situation | None, Situation]] = []
        for rank in (i, j):
            without = tuple(ZERO if r == rank else g for r, g in enumerate(s.ranking, 1))
            found.append((Situation.unchecked(without, s.k, s.qrels, s.nonrelevant) if s.ranking[rank - 1] else None,
                          SwapProperty._alone(s, j, rank)))
        nothing = tuple(None if g is None else ZERO for g in s.ranking)
        found.append((None, Situation.unchecked(nothing, s.k, s.qrels, s.nonrelevant)))
        return found

    @staticmethod
    def _alone(s: Situation, j: int, rank: int) -> Situation:
        """``s`` with the grade at rank j alone at ``rank``, the others nonrelevant, the unjudged unjudged."""
        grade = s.ranking[j - 1]
        return Situation.unchecked(tuple(grade if r == rank else (None if g is None else ZERO) for r, g in enumerate(s.ranking, 1)),
                                   s.k, s.qrels, s.nonrelevant)

    @staticmethod
    def _resolved(s: Situation, i: int, j: int, score: Scored, target: Target) -> bool:
        """Whether identical floats after swapping ranks i and j stand for an equal score, as numerical evidence.

        Floats cannot tell an equal score from one that differs below their resolution: deep in a ranking a swap's effect
        is routinely lost (RBP's swap of ranks 153 and 154 is worth 8e-17 at a score near 1; ERR's at rank 49 behind 48
        relevant documents, 4e-17), and a term that does not move with the swap can hide one that does (a hostile
        review's 0.5 P + 0.5 RBP at k = 176, where even the document alone at rank 175 and at rank 176 scores the same
        float). So identical floats count only up to :data:`FLOAT_EQUALITY_MAX_K`, the exhaustive phase's depths, and
        only where the documents at ranks i and j visibly count, or visibly count for nothing:

        * the document of rank j alone at rank i, and alone at rank j, moves the score of the all-nonrelevant ranking
          (of 0 where that has no value) by exactly 0 or by more than the relative tolerance of float comparisons
          (:data:`~targets.TOLERANCE`): a weight below the float resolution at either rank (RBP with p = 1e-4 at rank 6,
          1e-20) leaves the equality unresolved, even where the document lies below the depth in ``s`` and its removal
          moves nothing;
        * removing a relevant document at rank i or j moves the score by exactly 0 or by more than that tolerance.

        Deeper, a true equality (equal weights at ranks 40 and 41) is not found: completeness, not soundness. What the
        probes cannot see is a term that does not move with the swap hiding one that does within six ranks (0.5 P +
        0.5 RBP(p = 1e-4) at ranks 5 and 6: removing the document moves P visibly), a constant offset that swallows a
        tiny weight alone as well (1 + RBP(p = 1e-4)), or a difference absorbed in context only (a cascade whose first
        relevant document stops with probability 1 - 2^-60, tanh(40 RBP) saturated at 1: their floats are reciprocal
        rank's, whose equality is true): the limit of float evidence, and why a float metric's "no" is labelled
        numerical (the README says so, and that a Fraction proposal gets an exact verdict)."""
        tolerance = TOLERANCE * max(1.0, abs(score.approx))
        if s.k > FLOAT_EQUALITY_MAX_K:
            return False
        probes = SwapProperty._probes(s, i, j)
        base = SwapProperty._worth(target, probes[-1][1])
        for without, alone in probes[:-1]:
            found = SwapProperty._worth(target, alone)
            if found is not None and 0.0 < abs(found - (0.0 if base is None else base)) <= tolerance:
                return False
            if without is None:
                continue
            less = SwapProperty._worth(target, without)
            if less is None:
                if found is None:
                    return False
                continue
            if 0.0 < abs(score.approx - less) <= tolerance:
                return False
        return True

    @staticmethod
    def _worth(target: Target, probe: Situation) -> float | None:
        """The float score of a probe, None where it has none (a defect too; a hang is raised)."""
        try:
            found = target.score(probe)
        except Hang:
            raise
        except Defect:
            return None
        return found.approx if isinstance(found, Scored) else None

    def needs(self, candidate: Swap) -> list[Situation]:
        s, i, j = candidate
        probes = [p for pair in self._probes(s, i, j) for p in pair if p is not None] if s.k <= FLOAT_EQUALITY_MAX_K else []
        return [s, swapped(s, i, j), *probes]

    def witness(self, candidate: Swap, target: Target) -> Witness | None:
        s, i, j = candidate
        after_swap = swapped(s, i, j)
        before, after = target.score(s), target.score(after_swap)
        if not (isinstance(before, Scored) and isinstance(after, Scored)) or clearly(after, before) > 0:
            return None
        found = relation(after, before)
        if found is None or found.sign > 0:
            return None
        if found.sign == 0 and found.numerical and not self._resolved(s, i, j, before, target):
            targets.note_undecided()
            return None
        change = "leaves the score at" if found.sign == 0 else "lowers the score to"
        text = (
            f"at k = {s.k}, swapping ranks {i} and {j} of {show(s, k=False)} gives `{format_ranking(after_swap.ranking)}`, "
            f"which {change} {after.shown()} (from {before.shown()})"
        )
        scores = (score_of("before the swap", s, before), score_of(f"after swapping ranks {i} and {j}", after_swap, after))
        return Witness({**situation_json(s), "i": i, "j": j}, text, found.numerical, scores=scores)
