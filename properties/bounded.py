"""Boundedness.

Statement: there is a constant M such that |score| <= M on every situation, at every
depth k.

Paper (Moffat 2013, Section 4 (1)): "The set of scores attainable by the metric is
bounded, usually in the range [0, 1]."

Choices: the bound must hold across depths, not only at each k separately (DCG@k is
bounded at each fixed k, but not over all k; the paper calls it unbounded).

No finite search can refute this for a black box (any finite set of scores is bounded),
nor prove it; only the proof layer can, from a metric's symbolic form. The search
reports what it saw instead, as a hint: the largest |score| among the situations scored
(the all-relevant ranking at each depth, and whatever the other properties' searches
scored), and how it grew with k.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterable, Iterator

from irprops.metrics import Situation
from irprops.verdicts import Prop, Search, Verdict, Witness, ranking_text, show

from .base import Property, register
from .space import ONE, Space, deep_situations
from .targets import Defect, Hang, Scored, Target

AHEAD = 2000
"""The situations handed to ``target.prefetch`` at a time (a toolkit's call scores as many)."""
SHOWN_DEPTHS = 10
"""The depths whose largest |score| the evidence lists (then the deepest one scored)."""


@register
class Bounded(Property):
    key = Prop.BOUNDED
    reading = "across all depths at once: DCG@k is bounded at each fixed k, but not over all k"
    title = "Boundedness"
    wording = "The set of scores attainable by the metric is bounded, usually in the range [0, 1]."
    statement = "there is an M with |score(r, k)| <= M for every ranking r at every depth k"

    def instance(self, witness: Witness) -> str:
        d = witness.data
        return (f"for M = {d['bound']}: score(r, {d['k']}) = {d['value']} > M, for r = `{ranking_text(d['ranking'])}`; "
                "a proof shows that every M is exceeded so")

    def run(self, target: Target, space: Space, settled: Callable[[], bool] | None = None) -> Verdict:
        start = time.perf_counter()
        stopped = None
        situations: Iterable[Situation] = self._scored(target, space)
        if target.batches:  # a toolkit scores them in few calls, a proposal's process is asked ahead; the others one by one
            situations = list(situations)
        for at, situation in enumerate(situations):
            if target.batches and at % AHEAD == 0:
                target.prefetch(situations[at:at + AHEAD])  # type: ignore[index]
            if time.perf_counter() - start > space.budget:
                stopped = "budget"
                break
            try:
                target.score(situation)
            except Hang:  # a Defect too: asked first (a thirty-eighth hostile review: it was never reached)
                stopped = "hang"
                break
            except Defect:
                pass
        scored = [(s, outcome) for s, outcome in target.seen().items() if isinstance(outcome, Scored)]
        if not scored:
            evidence = ("no finite search can refute or prove boundedness; no situation scored had a value (the all-relevant "
                        f"rankings of depth 1 to {space.search_max_k} are undefined)")
        else:
            largest, outcome = max(scored, key=lambda pair: abs(pair[1].approx))
            by_depth: dict[int, float] = {}
            for s, o in scored:
                by_depth[s.k] = max(by_depth.get(s.k, 0.0), abs(o.approx))
            depths = sorted(by_depth)
            growth = ", ".join(_size(by_depth[k], 4) for k in depths[:SHOWN_DEPTHS])
            if len(depths) > SHOWN_DEPTHS:
                growth += f", ...; at k = {depths[-1]}: {_size(by_depth[depths[-1]], 4)}"
            evidence = (
                f"no finite search can refute or prove boundedness; the largest |score| among {len(scored):,} situations scored is "
                f"{_size(abs(outcome.approx), 6)}, by {show(largest)}; largest |score| at k = 1, 2, ...: {growth}"
            )
        if stopped is not None:
            why = "the proposal hung" if stopped == "hang" else f"its time budget of {space.budget:g} s ran out"
            evidence += f"; the scoring stopped early ({why})"
        seconds = time.perf_counter() - start
        searched = Search("not decidable by search (needs the proof layer)", evidence, len(scored), "situations scored",
                          stopped=stopped, budget=space.budget, seconds=seconds)  # type: ignore[arg-type]
        return Verdict(self.key, "unknown", searched, seconds=seconds)

    @staticmethod
    def _scored(target: Target, space: Space) -> Iterator[Situation]:
        """The all-relevant ranking at depths 1 to ``space.search_max_k`` (it shows growth with k); for a metric a proof
        may bound, also the structured situations at every depth to ``space.deep_max_k`` (issue 10, item 4: the interval
        a proof states is held, exactly, against every score computed, and bounded alone computed only those ten)."""
        for k in range(1, space.search_max_k + 1):
            yield Situation.unchecked((ONE,) * k, k, (ONE,) * k, 0 if space.nonrelevant else None)
        if target.provable:
            for k in space.deep_depths():
                yield from deep_situations(k, k + 2, space.unjudged, space.nonrelevant)


def _size(value: float, digits: int) -> str:
    """A nonnegative float hint; a value past floating point (an exact score of thousands of digits) says so."""
    return f"{value:.{digits}g}" if value < sys.float_info.max else "more than 1.8e308 (beyond floating point)"
